package dev.sbemu.amqp.internal.node;

import dev.sbemu.amqp.internal.link.RequestLink;
import dev.sbemu.amqp.internal.security.Authorizer;
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
 * {@link Credentials}; a valid one whose scope reaches the request's audience ({@code name}) is accepted (status 200)
 * and adds its grant to the connection ({@link Authorizer#admit}): what the token's policy allows under its {@code
 * sr}, checked at each attach. Anything else is refused with 401 and the reason (SEC-4, SEC-5), which the SDKs report
 * as unauthorized.
 */
final class CbsNode implements RequestLink.Node {
    private final Authorizer authorizer;
    private final AmqpConnection connection;

    CbsNode(Authorizer authorizer, AmqpConnection connection) {
        this.authorizer = authorizer;
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
        Credentials.Verdict verdict =
                authorizer.credentials().token(authorizer.policies(), token, System.currentTimeMillis());
        if (verdict.refusal() != null) {
            return new RequestLink.Response(401, verdict.refusal(), AmqpErrors.UNAUTHORIZED.toString(), null);
        }
        Object name = request.getApplicationProperties() == null
                ? null
                : request.getApplicationProperties().getValue().get("name");
        if (name instanceof String audience && !verdict.grant().reaches(Credentials.resourcePath(audience))) {
            return new RequestLink.Response(
                    401,
                    "InvalidAudience: the token's scope '" + verdict.grant().scope()
                            + "' does not include the audience '" + audience + "'.",
                    AmqpErrors.UNAUTHORIZED.toString(),
                    null);
        }
        authorizer.admit(connection, verdict.grant());
        return new RequestLink.Response(200, "OK", null, null);
    }
}
