package dev.sbemu.amqp.internal.node;

import dev.sbemu.amqp.internal.link.EntityAddress;
import dev.sbemu.amqp.internal.link.RequestLink;
import dev.sbemu.amqp.internal.link.ServedNamespace;
import dev.sbemu.amqp.internal.security.Authorizer;
import dev.sbemu.amqp.internal.security.Credentials;
import dev.sbemu.amqp.internal.security.NamespaceKeys;
import dev.sbemu.amqp.internal.transport.AmqpConnection;
import dev.sbemu.amqp.internal.transport.AmqpErrors;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import java.util.Locale;
import java.util.Map;
import org.apache.qpid.proton.amqp.messaging.AmqpValue;
import org.apache.qpid.proton.amqp.messaging.ApplicationProperties;
import org.apache.qpid.proton.amqp.transport.DeliveryState;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;
import org.apache.qpid.proton.message.Message;

/**
 * The {@code $cbs} node: claims-based security, as the service does it for shared access signatures. A
 * {@code put-token} request carries a token {@code SharedAccessSignature sr=..&sig=..&se=..&skn=..}, checked by
 * {@link Credentials}; a valid one whose scope reaches the request's audience ({@code name}) adds its grant to the
 * connection ({@link Authorizer#admit}): what the token's policy allows under its {@code sr}, checked at each attach.
 * Anything else is refused with 401 and the reason (SEC-4, SEC-5), which the SDKs report as unauthorized. A valid token
 * for an entity that does not exist (its audience is {@code <scheme>://<host>/<entity>}) is refused with 404 and the
 * service's not-found wording, from which the SDKs derive their not-found error; a link attached anyway (or to an
 * entity deleted since) is still refused at the attach.
 */
final class CbsNode implements RequestLink.Node {
    private final NamespaceKeys keys;
    private final AmqpConnection connection;
    private final ServedNamespace namespace;

    /**
     * @param keys the served namespaces' authorizers: the token's key name chooses one (NS-2)
     * @param namespace the namespace whose routing table made this node: where an entity is looked up when the keys
     *     know no namespace of the chosen name's
     */
    CbsNode(NamespaceKeys keys, AmqpConnection connection, ServedNamespace namespace) {
        this.keys = keys;
        this.connection = connection;
        this.namespace = namespace;
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
        // the key name chooses the namespace first (NS-2); that namespace's authorizer checks the rest
        String chosen = keys.namespaceOfToken(token);
        Authorizer authorizer = keys.of(chosen);
        if (authorizer == null) {
            return new RequestLink.Response(
                    401,
                    "InvalidSignature: the token's key name chooses namespace '" + chosen
                            + "', which this server does not serve.",
                    AmqpErrors.UNAUTHORIZED.toString(),
                    null);
        }
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
        if (connection != null && !connection.select(chosen)) {
            return new RequestLink.Response(
                    401,
                    "InvalidSignature: this connection serves namespace '" + connection.namespace()
                            + "'; a token for namespace '" + chosen + "' needs a connection of its own.",
                    AmqpErrors.UNAUTHORIZED.toString(),
                    null);
        }
        String missing = missingEntity(request, chosen);
        if (missing != null) {
            return RequestLink.Response.error(AmqpErrors.entityNotFound(missing));
        }
        if (connection != null) {
            authorizer.admit(connection, verdict.grant());
        }
        return new RequestLink.Response(200, "OK", null, null);
    }

    /**
     * The audience of a token for an entity that does not exist, or null: a token for the namespace (no path), for
     * an entity that exists, or for a path that names no entity is not refused here.
     */
    private String missingEntity(Message request, String chosen) {
        ApplicationProperties properties = request.getApplicationProperties();
        Map<String, Object> values = properties == null ? null : properties.getValue();
        Object name = values == null ? null : values.get("name");
        if (!(name instanceof String audience)) {
            return null;
        }
        String path = EntityAddress.strip(audience);
        if (path.toLowerCase(Locale.ROOT).endsWith(MANAGEMENT)) {
            path = path.substring(0, path.length() - MANAGEMENT.length());
        }
        if (path.isEmpty() || path.startsWith("$")) {
            return null;
        }
        EntityPath entity;
        try {
            entity = EntityAddress.parse(path);
        } catch (RuntimeException e) {
            return null;
        }
        Namespace known = keys.namespace(chosen);
        Namespace ns = known != null ? known : namespace.get();
        boolean exists = entity.isSubscription()
                ? ns.subscriptionExists(entity.topicOrQueue(), entity.subscription())
                : ns.queueExists(entity.topicOrQueue()) || ns.topicExists(entity.topicOrQueue());
        return exists ? null : audience;
    }

    private static final String MANAGEMENT = "/$management";
}
