/**
 * The AMQP 1.0 endpoint behind {@code dev.sbemu.amqp.ServiceBusEmulatorServer}: its assembly ({@link
 * dev.sbemu.amqp.internal.Endpoint}), which hands each part its share of the settings. The parts are in the sub-packages: {@code transport} (the
 * event loop and connections), {@code security} (SASL, tokens, TLS), {@code link} (routing and link kinds), {@code
 * node} ({@code $cbs}, {@code $management}, the coordinator), {@code jms} (the JMS dialect) and {@code http} (the HTTP
 * side). See docs/architecture.md, "amqp-endpoint".
 *
 * <p><b>Internal API</b> of {@code amqp-endpoint}: its types are public only so that the module's own packages can
 * reach them. Nothing outside {@code amqp-endpoint} may use them (the architecture test fails on such a use), and
 * they change without notice in any release.
 */
package dev.sbemu.amqp.internal;
