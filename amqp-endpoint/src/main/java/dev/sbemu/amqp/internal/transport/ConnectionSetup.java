package dev.sbemu.amqp.internal.transport;

import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.qpid.proton.amqp.Symbol;
import org.apache.qpid.proton.engine.SslDomain;

/**
 * What every connection of one endpoint is built with, assembled by {@code Endpoint}.
 *
 * @param limits the limits the connection enforces
 * @param authentication the SASL layer's server side
 * @param links builds a connection's link routing
 * @param http where HTTP connections go now, or null while there is no HTTP side
 * @param offeredCapabilities the capabilities the open answers with (the JMS dialect's, JMS-12, JMS-16, JMS-23)
 * @param tls the TLS material's SSL domain when the endpoint has a TLS port, else null: a plain port's connection
 *     whose first byte starts a TLS handshake is served with it too (AMQP-26: the SDKs dial AMQP over WebSockets
 *     with TLS to the connection string's port)
 */
public record ConnectionSetup(
        Limits limits,
        Authentication authentication,
        Function<AmqpConnection, AttachHandler> links,
        Supplier<HttpHandOver> http,
        Symbol[] offeredCapabilities,
        SslDomain tls) {}
