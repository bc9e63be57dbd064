package dev.sbemu.amqp.internal.security;

import dev.sbemu.amqp.internal.transport.AmqpConnection;
import dev.sbemu.amqp.internal.transport.Authentication;
import java.nio.charset.StandardCharsets;
import java.util.logging.Logger;
import org.apache.qpid.proton.engine.Sasl;
import org.apache.qpid.proton.engine.SaslListener;
import org.apache.qpid.proton.engine.Transport;

/**
 * SASL as the service offers it: PLAIN beside ANONYMOUS. JMS clients (Qpid JMS) authenticate in SASL PLAIN and never
 * put a token on {@code $cbs} (JMS-1): the key name and key as user and password, or any user (the service's
 * {@code $jwt} convention among them) with a valid shared access signature token as password, both checked by
 * {@link Credentials}. ANONYMOUS is accepted at once; such a connection is authorized later by a {@code $cbs} token.
 * A PLAIN password keeps azure-servicebus-jms's connection string tail out ({@link #withoutJmsEmulatorTail}).
 */
public final class SaslAuthenticator implements Authentication {
    private static final Logger LOG = Logger.getLogger(SaslAuthenticator.class.getName());
    private static final String PLAIN = "PLAIN";
    private static final String ANONYMOUS = "ANONYMOUS";

    private final NamespaceKeys keys;

    /** @param keys the served namespaces' authorizers: the user name or the token chooses one (NS-2) */
    public SaslAuthenticator(NamespaceKeys keys) {
        this.keys = keys;
    }

    @Override
    public void configure(Sasl sasl, AmqpConnection connection) {
        sasl.setMechanisms(PLAIN, ANONYMOUS);
        sasl.setListener(new SaslListener() {
            @Override
            public void onSaslMechanisms(Sasl s, Transport t) {}

            @Override
            public void onSaslInit(Sasl s, Transport t) {
                String[] chosen = s.getRemoteMechanisms();
                if (chosen.length > 0 && PLAIN.equals(chosen[0])) {
                    byte[] response = new byte[Math.max(0, s.pending())];
                    s.recv(response, 0, response.length);
                    Chosen accepted = plainAccepted(response);
                    if (accepted != null && connection.select(accepted.namespace())) {
                        accepted.authorizer().admit(connection, accepted.grant());
                        s.done(Sasl.SaslOutcome.PN_SASL_OK);
                    } else {
                        LOG.fine(() -> "sbemu AMQP endpoint: SASL PLAIN refused for " + connection.peer());
                        connection.saslRefused();
                        s.done(Sasl.SaslOutcome.PN_SASL_AUTH);
                    }
                    return;
                }
                s.done(Sasl.SaslOutcome.PN_SASL_OK);
            }

            @Override
            public void onSaslChallenge(Sasl s, Transport t) {}

            @Override
            public void onSaslResponse(Sasl s, Transport t) {}

            @Override
            public void onSaslOutcome(Sasl s, Transport t) {}
        });
    }

    /**
     * What a SASL PLAIN response ({@code [authzid] NUL authcid NUL password}) grants, or null when it is refused: any
     * user with a valid shared access signature token as password, or a key name and its key as user and password
     * (JMS-1); accepting any key, any key name and key, as the {@code $cbs} tokens of the SDK clients (SEC-8). The
     * user name (or the token's key name) chooses the namespace first (NS-2); its authorizer checks the rest.
     */
    Chosen plainAccepted(byte[] response) {
        String text = new String(response, StandardCharsets.UTF_8);
        int first = text.indexOf('\0');
        int second = first < 0 ? -1 : text.indexOf('\0', first + 1);
        if (second < 0) {
            return null;
        }
        String user = text.substring(first + 1, second);
        String password = text.substring(second + 1);
        boolean token = password.startsWith("SharedAccessSignature ");
        String namespace = token ? keys.namespaceOfToken(password) : keys.namespaceOf(user);
        Authorizer authorizer = keys.of(namespace);
        if (authorizer == null) {
            return null;
        }
        Credentials credentials = authorizer.credentials();
        Credentials.Grant grant = token
                ? credentials
                        .token(authorizer.policies(), password, System.currentTimeMillis())
                        .grant()
                : credentials
                        .key(authorizer.policies(), user, withoutJmsEmulatorTail(password))
                        .grant();
        return grant == null ? null : new Chosen(namespace, authorizer, grant);
    }

    /** The namespace a SASL PLAIN user chose, its authorizer, and what it granted. */
    record Chosen(String namespace, Authorizer authorizer, Credentials.Grant grant) {}

    /**
     * The JMS workaround: the password without the {@code ;UseDevelopmentEmulator=true;} that azure-servicebus-jms's
     * connection string parser leaves on the key (it splits on the keys it knows only, so an unknown key's pair ends
     * up in the value before it): {@code new ServiceBusJmsConnectionFactory(server.getConnectionString(), settings)}
     * authenticates (JMS-33). Keys never hold a ';' (the server refuses one).
     */
    static String withoutJmsEmulatorTail(String password) {
        int semicolon = password.indexOf(';');
        if (semicolon < 0 || !password.substring(semicolon).matches("(?i);UseDevelopmentEmulator=true;?")) {
            return password;
        }
        return password.substring(0, semicolon);
    }
}
