package dev.sbemu.amqp.internal.node;

import dev.sbemu.amqp.internal.link.RequestLink;
import dev.sbemu.amqp.internal.security.Credentials;
import dev.sbemu.amqp.internal.security.NamespaceKeys;
import dev.sbemu.amqp.internal.transport.AmqpConnection;
import dev.sbemu.amqp.internal.transport.AmqpErrors;
import org.apache.qpid.proton.amqp.messaging.AmqpValue;
import org.apache.qpid.proton.amqp.transport.DeliveryState;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;
import org.apache.qpid.proton.message.Message;

/**
 * The {@code $cbs} node: claims-based security, as the service does it for shared access signatures. A
 * {@code put-token} request carries a token {@code SharedAccessSignature sr=..&sig=..&se=..&skn=..}, checked by
 * {@link Credentials}; a valid one is accepted (status 200) and authorizes the connection for every entity. Anything
 * else is refused with 401, which the SDKs report as unauthorized.
 */
final class CbsNode implements RequestLink.Node {
    private final NamespaceKeys keys;
    private final AmqpConnection connection;

    CbsNode(Credentials credentials, AmqpConnection connection) {
        this(NamespaceKeys.single("", credentials), connection);
    }

    CbsNode(NamespaceKeys keys, AmqpConnection connection) {
        this.keys = keys;
        this.connection = connection;
    }

    @Override
    public RequestLink.Response handle(Message request, DeliveryState state) {
        String operation = RequestLink.operation(request);
        if (!"put-token".equals(operation)) {
            return RequestLink.Response.error(new ErrorCondition(
                    AmqpErrors.NOT_IMPLEMENTED,
                    "The $cbs operation '" + operation + "' is not supported; only put-token is."));
        }
        Object token = request.getBody() instanceof AmqpValue value ? value.getValue() : null;
        String refusal = refusal(token);
        if (refusal != null) {
            return new RequestLink.Response(401, refusal, AmqpErrors.UNAUTHORIZED.toString(), null);
        }
        String chosen = keys.namespaceOfToken(token);
        if (connection != null && !connection.select(chosen)) {
            return new RequestLink.Response(
                    401,
                    "InvalidSignature: this connection serves namespace '" + connection.namespace()
                            + "'; a token for namespace '" + chosen + "' needs a connection of its own.",
                    AmqpErrors.UNAUTHORIZED.toString(),
                    null);
        }
        if (connection != null) {
            connection.authorize();
        }
        return new RequestLink.Response(200, "OK", null, null);
    }

    /**
     * Why {@code token} is refused, or null when it is valid: its key name chooses the namespace (NS-2), whose key
     * policy then checks it.
     */
    String refusal(Object token) {
        String chosen = keys.namespaceOfToken(token);
        Credentials credentials = keys.of(chosen);
        if (credentials == null) {
            return "InvalidSignature: the token's key name chooses namespace '" + chosen
                    + "', which this server does not serve.";
        }
        return credentials.refusal(token);
    }
}
