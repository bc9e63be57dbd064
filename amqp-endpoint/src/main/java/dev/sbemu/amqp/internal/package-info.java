/**
 * The AMQP 1.0 listener behind {@code dev.sbemu.amqp.ServiceBusEmulatorServer}: the event loop, connections, links,
 * the {@code $cbs} and {@code $management} nodes and the transaction coordinator.
 *
 * <p><b>Internal API</b> of {@code amqp-endpoint}: its types are public only so that the module's own packages can
 * reach them. Nothing outside {@code amqp-endpoint} may use them (the architecture test fails on such a use), and
 * they change without notice in any release.
 */
package dev.sbemu.amqp.internal;
