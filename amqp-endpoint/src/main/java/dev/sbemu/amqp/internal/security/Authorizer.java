package dev.sbemu.amqp.internal.security;

import dev.sbemu.amqp.internal.transport.AccessCheck;
import dev.sbemu.amqp.internal.transport.AmqpConnection;
import dev.sbemu.amqp.internal.transport.AmqpErrors;
import dev.sbemu.core.AuthorizationRule.AccessRight;
import dev.sbemu.core.SharedAccessPolicy;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;

/**
 * The AMQP side of authorization: keeps each connection's grants (from {@code $cbs} tokens and SASL PLAIN, {@link
 * #admit}) and answers the link routing's question at each attach ({@link AccessCheck}) with the service's
 * condition and text (spec SEC-3). The policies are the served namespace's, read per call. Loop thread only, but
 * holds no state of its own beyond the connections' grants (a
 * {@code $management} call a scripted delay holds asks from a worker).
 */
public final class Authorizer implements AccessCheck {
    private final Credentials credentials;
    private final Supplier<List<SharedAccessPolicy>> policies;

    public Authorizer(Credentials credentials, Supplier<List<SharedAccessPolicy>> policies) {
        this.credentials = credentials;
        this.policies = policies;
    }

    public Credentials credentials() {
        return credentials;
    }

    /** The served namespace's policies now. */
    public List<SharedAccessPolicy> policies() {
        return policies.get();
    }

    /** Adds {@code grant} to what {@code connection} may do, and authorizes it. Loop thread. */
    public void admit(AmqpConnection connection, Credentials.Grant grant) {
        grantsOf(connection).add(grant);
        connection.authorize();
    }

    /** The connection's grants: added on the loop thread, read there and by a worker's {@code $management} call. */
    @SuppressWarnings("unchecked")
    private static List<Credentials.Grant> grantsOf(AmqpConnection connection) {
        if (!(connection.grants() instanceof List<?>)) {
            connection.grants(new CopyOnWriteArrayList<Credentials.Grant>());
        }
        return (List<Credentials.Grant>) connection.grants();
    }

    /** Loop thread, or a worker running a {@code $management} call. */
    @Override
    public ErrorCondition refusal(AmqpConnection connection, String path, AccessRight right) {
        long now = System.currentTimeMillis();
        List<Credentials.Grant> grants = grantsOf(connection);
        grants.removeIf(g -> g.expired(now));
        boolean reached = false;
        for (Credentials.Grant grant : grants) {
            if (grant.reaches(path)) {
                reached = true;
                if (right == null || grant.allows(path, right)) {
                    return null;
                }
            }
        }
        String resource = resource(connection, path);
        if (!reached) {
            return new ErrorCondition(
                    AmqpErrors.UNAUTHORIZED,
                    "Unauthorized access. No valid token covers the resource '" + resource
                            + "': put a token for it on $cbs before attaching.");
        }
        return new ErrorCondition(AmqpErrors.UNAUTHORIZED, Credentials.claimRequired(right, resource));
    }

    /** The resource as the service names it in its texts: {@code sb://<host>/<path>}. */
    static String resource(AmqpConnection connection, String path) {
        String host = connection.remoteHostname();
        return "sb://" + (host == null || host.isEmpty() ? "localhost" : host) + "/" + path;
    }
}
