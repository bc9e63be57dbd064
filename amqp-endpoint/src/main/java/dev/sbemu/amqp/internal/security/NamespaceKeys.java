package dev.sbemu.amqp.internal.security;

import dev.sbemu.core.Namespace;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * Which namespace a client's credentials choose, and that namespace's key policy (spec NS-2, NS-3). The choice is
 * carried by the shared access key name, which every SDK puts on the wire: {@code skn} of a {@code $cbs} or HTTP
 * token, the SASL PLAIN user name of JMS clients. A key name {@code <namespace>/<policy>} chooses the namespace before
 * the slash; one without a slash chooses the default namespace. The namespace is chosen first; the token or key is
 * then checked against the chosen namespace's {@link Credentials} alone. Any thread.
 */
public interface NamespaceKeys {
    /** The name of the namespace a key name without a namespace chooses. */
    String defaultName();

    /**
     * The authorizer of the namespace {@code name} (its key policy and its shared access policies), or null when the
     * endpoint serves none of that name.
     */
    Authorizer of(String name);

    /**
     * The namespace served under {@code name} now (for the {@code $cbs} node's check that a token's entity exists), or
     * null when not known here.
     */
    default Namespace namespace(String name) {
        return null;
    }

    /** The namespace a key name chooses: the part before its first '/', else the default's name. */
    default String namespaceOf(String keyName) {
        int slash = keyName == null ? -1 : keyName.indexOf('/');
        return slash > 0 ? keyName.substring(0, slash) : defaultName();
    }

    /** The namespace a token's {@code skn} chooses (the default's when it has none). */
    default String namespaceOfToken(Object token) {
        return namespaceOf(keyNameOf(token));
    }

    /**
     * The decoded {@code skn} of a {@code SharedAccessSignature} token, or null. The Python SDK (azure-servicebus 7.x,
     * {@code _pyamqp/utils.py generate_sas_token}) encodes the key name twice ({@code quote_plus}, then {@code
     * urlencode}), so a key name that still holds an escape after one decoding is decoded again: a key name never
     * holds a '%' of its own.
     */
    static String keyNameOf(Object token) {
        if (!(token instanceof String text) || !text.startsWith("SharedAccessSignature ")) {
            return null;
        }
        for (String pair : text.substring("SharedAccessSignature ".length()).split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0 && pair.substring(0, eq).trim().equals("skn")) {
                try {
                    String once = URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                    return once.matches(".*%[0-9A-Fa-f]{2}.*") ? URLDecoder.decode(once, StandardCharsets.UTF_8) : once;
                } catch (IllegalArgumentException e) {
                    return null;
                }
            }
        }
        return null;
    }

    /** One namespace's key policy under the name {@code name}. */
    static NamespaceKeys single(String name, Authorizer authorizer) {
        return new NamespaceKeys() {
            @Override
            public String defaultName() {
                return name;
            }

            @Override
            public Authorizer of(String n) {
                return name.equals(n) ? authorizer : null;
            }
        };
    }
}
