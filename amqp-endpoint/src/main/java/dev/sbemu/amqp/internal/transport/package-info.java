/**
 * The network side: the one event loop thread ({@link dev.sbemu.amqp.internal.transport.EventLoop}), connections
 * that pump bytes through proton-j ({@link dev.sbemu.amqp.internal.transport.AmqpConnection}) and answer its events
 * ({@code ProtonEvents}: attaches to an {@link dev.sbemu.amqp.internal.transport.AttachHandler}, link events to the
 * {@link dev.sbemu.amqp.internal.transport.LinkHandler} in the link's context), their timers, the protocol sniffer (HTTP
 * or AMQP by the first bytes), delivery I/O, the AMQP error conditions and the limits the transport enforces. It
 * depends on no other package of the endpoint: SASL, the link routing and the HTTP hand-over plug in through its
 * interfaces.
 *
 * <p><b>Internal API</b> of {@code amqp-endpoint}: public only so that the module's own packages can reach it. Nothing
 * outside {@code amqp-endpoint} may use it (the architecture test fails on such a use), and it changes without notice.
 */
package dev.sbemu.amqp.internal.transport;
