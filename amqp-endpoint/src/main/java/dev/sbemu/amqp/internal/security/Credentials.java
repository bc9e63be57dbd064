package dev.sbemu.amqp.internal.security;

import dev.sbemu.core.AuthorizationRule;
import dev.sbemu.core.AuthorizationRule.AccessRight;
import dev.sbemu.core.SharedAccessPolicy;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The one check of shared access signature tokens and keys: the {@code $cbs} node's put-token, SASL PLAIN ({@link
 * SaslAuthenticator}) and the HTTP side's {@code Authorization} header (the management API and, with a key, the
 * control API) all ask here. The check is a function of the key mode (this object: any key, or the endpoint's one key
 * as the namespace's {@code Manage} policy), the namespace's policies ({@link
 * dev.sbemu.core.Namespace#sharedAccessPolicies()}, passed on each call), what is presented, and then, on the {@link
 * Grant} it returns, the resource and the right needed (spec SEC-1..SEC-9).
 *
 * <p>A token {@code SharedAccessSignature sr=..&sig=..&se=..&skn=..} is valid when {@code se} (seconds since the
 * epoch, on the wall clock: the SDKs compute expiry on it, not on the namespace's virtual clock) has not passed, and,
 * with a key, {@code skn} names a policy whose primary or secondary key signed {@code sr + "\n" + se} (HMAC-SHA256).
 * Accepting any key (Microsoft's emulator's way), the signature is not checked: a key name of a declared policy has
 * that policy's rights, any other every right. Its {@link Grant} reaches the resources under {@code sr} (scheme and
 * host aside) that its policy reaches. Immutable; any thread.
 */
public final class Credentials {
    private static final DateTimeFormatter EXPIRY =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

    private final String keyName;
    private final String key;
    private final boolean anyKey;

    /**
     * @param keyName the endpoint's key name (its namespace {@code Manage} policy)
     * @param key the endpoint's key
     * @param anyKey whether a token signed with any key under any key name is accepted (Microsoft's emulator's way)
     */
    public Credentials(String keyName, String key, boolean anyKey) {
        this.keyName = keyName;
        this.key = key;
        this.anyKey = anyKey;
    }

    public String keyName() {
        return keyName;
    }

    public String key() {
        return key;
    }

    /** Whether any key is accepted. */
    public boolean anyKey() {
        return anyKey;
    }

    /**
     * What a token or a key grants: the resources under {@code scope} (an entity path, lower case; empty: the
     * namespace) that {@code policy} reaches, with its rights, until {@code expiresAt}.
     *
     * @param scope the token's {@code sr} as a path, or empty for a key presented over SASL PLAIN
     * @param policy the policy, or null for every right on everything (any key, or the endpoint's key)
     * @param expiresAt when the grant ends (epoch milliseconds; {@link Long#MAX_VALUE} for a key)
     */
    public record Grant(String scope, SharedAccessPolicy policy, long expiresAt) {
        /** Whether this grant reaches the resource at {@code path} at all, whatever the right. */
        public boolean reaches(String path) {
            String p = path(path);
            return (scope.isEmpty() || p.equals(scope) || p.startsWith(scope + "/"))
                    && (policy == null || policy.reaches(p));
        }

        /** Whether this grant allows {@code right} on the resource at {@code path}. */
        public boolean allows(String path, AccessRight right) {
            return reaches(path) && (policy == null || policy.grants(right));
        }

        /** Whether the grant has expired at {@code nowMillis}. */
        public boolean expired(long nowMillis) {
            return expiresAt < nowMillis;
        }
    }

    /** A grant, or why none: exactly one of the two is null. */
    public record Verdict(Grant grant, String refusal) {
        static Verdict refused(String why) {
            return new Verdict(null, why);
        }
    }

    /**
     * Checks a token (a {@code $cbs} put-token, a SASL PLAIN password, an HTTP {@code Authorization} header) against
     * the key mode and {@code policies}, at {@code nowMillis} on the wall clock.
     */
    public Verdict token(List<SharedAccessPolicy> policies, Object token, long nowMillis) {
        if (!(token instanceof String text) || !text.startsWith("SharedAccessSignature ")) {
            return Verdict.refused("InvalidSignature: only shared access signature tokens are accepted.");
        }
        Map<String, String> fields = new HashMap<>();
        for (String pair : text.substring("SharedAccessSignature ".length()).split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                fields.put(pair.substring(0, eq).trim(), pair.substring(eq + 1));
            }
        }
        String sr = fields.get("sr");
        String sig = fields.get("sig");
        String se = fields.get("se");
        String skn = fields.get("skn");
        if (sr == null || sig == null || se == null || skn == null) {
            return Verdict.refused("InvalidSignature: the token lacks one of sr, sig, se, skn.");
        }
        long expiry;
        try {
            expiry = Long.parseLong(decode(se).trim());
        } catch (NumberFormatException e) {
            return Verdict.refused("InvalidSignature: the token's expiry '" + se + "' is not a number.");
        }
        if (expiry * 1000 < nowMillis) {
            return Verdict.refused("ExpiredToken: The token is expired. Expiration time: '"
                    + EXPIRY.format(Instant.ofEpochSecond(expiry)) + "'");
        }
        String name = NamespaceKeys.keyNameOf(text);
        if (name == null) {
            return Verdict.refused("InvalidSignature: the token's key name is malformed.");
        }
        String local = local(name);
        // a token for an entity's $management node (the JavaScript SDK's audience for its management link) is one
        // for the entity: the node is how the entity's own operations are reached (SEC-2)
        String scope = withoutManagementNode(path(resourcePath(decode(sr))));
        List<SharedAccessPolicy> named = candidates(policies, name, scope);
        if (anyKey) {
            if (named.isEmpty() && policies.stream().anyMatch(p -> p.keyName().equals(local))) {
                return Verdict.refused("InvalidSignature: the key name '" + name + "' is a policy of another entity.");
            }
            return new Verdict(new Grant(scope, named.isEmpty() ? null : named.get(0), expiry * 1000), null);
        }
        byte[] actual;
        try {
            actual = Base64.getDecoder().decode(decode(sig));
        } catch (IllegalArgumentException e) {
            return Verdict.refused("InvalidSignature: the signature is not base64.");
        }
        if (named.isEmpty()) {
            return Verdict.refused("InvalidSignature: the token's key name '" + name + "' is not known.");
        }
        for (SharedAccessPolicy policy : named) {
            for (String candidate : keysOf(policy)) {
                if (MessageDigest.isEqual(hmac(candidate, sr + "\n" + se), actual)) {
                    return new Verdict(new Grant(scope, rootOrPolicy(policy), expiry * 1000), null);
                }
            }
        }
        return Verdict.refused("InvalidSignature: the token's signature does not match the key.");
    }

    /**
     * Checks a key name and key presented as SASL PLAIN user and password (JMS-1): with a key, they must be a
     * policy's; accepting any key, any pair is taken, with the rights of the policy the user names, if any.
     */
    public Verdict key(List<SharedAccessPolicy> policies, String user, String password) {
        List<SharedAccessPolicy> named = candidates(policies, user, "");
        String local = local(user);
        for (SharedAccessPolicy policy : policies) {
            if (policy.entity() != null && policy.keyName().equals(local)) {
                named.add(policy);
            }
        }
        if (anyKey) {
            return new Verdict(new Grant("", named.isEmpty() ? null : named.get(0), Long.MAX_VALUE), null);
        }
        for (SharedAccessPolicy policy : named) {
            for (String candidate : keysOf(policy)) {
                if (MessageDigest.isEqual(
                        candidate.getBytes(StandardCharsets.UTF_8), password.getBytes(StandardCharsets.UTF_8))) {
                    return new Verdict(new Grant("", rootOrPolicy(policy), Long.MAX_VALUE), null);
                }
            }
        }
        return Verdict.refused("the key name or key is not one of the namespace's.");
    }

    /**
     * A token signed with the endpoint's key for {@code resource}, valid until {@code expiry}: what a client of the
     * control API sends as {@code Authorization} when the endpoint checks keys (SEC-7).
     */
    public String sign(String resource, Instant expiry) {
        String sr = URLEncoder.encode(resource, StandardCharsets.UTF_8);
        String se = Long.toString(expiry.getEpochSecond());
        String sig = Base64.getEncoder().encodeToString(hmac(key, sr + "\n" + se));
        return "SharedAccessSignature sr=" + sr + "&sig=" + URLEncoder.encode(sig, StandardCharsets.UTF_8) + "&se=" + se
                + "&skn=" + URLEncoder.encode(keyName, StandardCharsets.UTF_8);
    }

    /**
     * The service's text for an operation refused for lack of a right (spec SEC-3): {@code Unauthorized access.
     * 'Send' claim(s) are required to perform this operation. Resource: 'sb://host/queue'.}
     */
    public static String claimRequired(AccessRight right, String resource) {
        return "Unauthorized access. '" + right.wireName()
                + "' claim(s) are required to perform this operation. Resource: '" + resource + "'.";
    }

    /**
     * The policies {@code name} may be: the namespace's and those of the entity at {@code scope} (or under which
     * {@code scope} lies); with a key, the endpoint's own key as the namespace's {@code Manage} policy comes first.
     */
    private List<SharedAccessPolicy> candidates(List<SharedAccessPolicy> policies, String name, String scope) {
        List<SharedAccessPolicy> named = new ArrayList<>();
        if (!anyKey && keyName.equals(name)) {
            named.add(new SharedAccessPolicy(null, AuthorizationRule.of(local(keyName), key, AccessRight.MANAGE)));
        }
        String local = local(name);
        for (SharedAccessPolicy policy : policies) {
            if (policy.keyName().equals(local) && (scope.isEmpty() ? policy.entity() == null : policy.reaches(scope))) {
                named.add(policy);
            }
        }
        return named;
    }

    /**
     * A key name as the namespace's policies name it: a namespace's own key names are {@code <namespace>/<policy>} on
     * the wire (NS-2), its rules are declared as {@code <policy>}; the default namespace's have no prefix. Null for a
     * key name of another namespace.
     */
    private String local(String name) {
        if (name == null) {
            return null;
        }
        int slash = keyName.indexOf('/');
        if (slash < 0) {
            return name;
        }
        String prefix = keyName.substring(0, slash + 1);
        return name.startsWith(prefix) ? name.substring(prefix.length()) : null;
    }

    /** The keys a policy is signed with: its own, or the endpoint's when it declares none. */
    private List<String> keysOf(SharedAccessPolicy policy) {
        List<String> keys = new ArrayList<>(2);
        keys.add(policy.primaryKey() != null ? policy.primaryKey() : key);
        if (policy.secondaryKey() != null) {
            keys.add(policy.secondaryKey());
        }
        return keys;
    }

    /** Null (every right everywhere) for the endpoint's own key, else the policy. */
    private SharedAccessPolicy rootOrPolicy(SharedAccessPolicy policy) {
        return policy.entity() == null && policy.grantsAll() ? null : policy;
    }

    /**
     * The path of a resource URI ({@code sb://host/queue}, {@code amqp://host/queue}, {@code https://host/queue},
     * {@code host/queue}): what follows the host, without a leading or trailing slash or a query.
     */
    public static String resourcePath(String resource) {
        String r = resource.trim();
        int scheme = r.indexOf("://");
        if (scheme >= 0) {
            r = r.substring(scheme + 3);
        }
        int slash = r.indexOf('/');
        r = slash < 0 ? "" : r.substring(slash + 1);
        int query = r.indexOf('?');
        return query < 0 ? r : r.substring(0, query);
    }

    /** A path compared case-insensitively, without leading and trailing slashes. */
    static String path(String path) {
        String p = path.toLowerCase(Locale.ROOT);
        while (p.startsWith("/")) {
            p = p.substring(1);
        }
        while (p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        return p;
    }

    private static String decode(String value) {
        return URLDecoder.decode(value, StandardCharsets.UTF_8);
    }

    private static byte[] hmac(String key, String text) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return mac.doFinal(text.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    /** {@code scope} without a trailing {@code /$management}: the entity the node belongs to. */
    static String withoutManagementNode(String scope) {
        String suffix = "/$management";
        return scope.endsWith(suffix) ? scope.substring(0, scope.length() - suffix.length()) : scope;
    }
}
