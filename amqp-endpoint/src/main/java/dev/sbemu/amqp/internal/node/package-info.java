/**
 * The request-response nodes and the coordinator: {@code $cbs}, {@code <entity>/$management}, the transaction
 * coordinator and the transactions it owns ({@link dev.sbemu.amqp.internal.node.Transactions}), with their rows of the
 * routing table ({@link dev.sbemu.amqp.internal.node.NodeRoutes}).
 *
 * <p><b>Internal API</b> of {@code amqp-endpoint}: public only so that the module's own packages can reach it. Nothing
 * outside {@code amqp-endpoint} may use it (the architecture test fails on such a use), and it changes without notice.
 */
package dev.sbemu.amqp.internal.node;
