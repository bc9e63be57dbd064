package dev.sbemu.amqp.internal.node;

import dev.sbemu.amqp.internal.link.RequestLink;
import dev.sbemu.amqp.internal.security.Credentials;
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
    private final Credentials credentials;
    private final AmqpConnection connection;

    CbsNode(Credentials credentials, AmqpConnection connection) {
        this.credentials = credentials;
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
        connection.authorize();
        return new RequestLink.Response(200, "OK", null, null);
    }

    /** Why {@code token} is refused, or null when it is valid. */
    String refusal(Object token) {
        return credentials.refusal(token);
    }
}
