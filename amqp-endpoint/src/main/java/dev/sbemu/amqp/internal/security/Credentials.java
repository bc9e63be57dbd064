package dev.sbemu.amqp.internal.security;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The one place that says whether a shared access signature token or a key is valid for this endpoint: the
 * {@code $cbs} node's put-token, SASL PLAIN ({@link SaslAuthenticator}) and the HTTP side's {@code Authorization}
 * header all ask here. A token {@code SharedAccessSignature sr=..&sig=..&se=..&skn=..} is accepted when {@code skn}
 * is the endpoint's key name, {@code sig} is the HMAC-SHA256 of {@code sr + "\n" + se} under the endpoint's key, and
 * {@code se} (seconds since the epoch) has not passed on the wall clock (the SDK computes token expiry on the wall
 * clock, not the namespace's virtual one). An endpoint that accepts any key (as Microsoft's emulator does, {@code
 * ServiceBusEmulatorServer.Builder#acceptAnyKey}) checks only the token's form and expiry. Immutable; any thread.
 */
public final class Credentials {
    private final String keyName;
    private final String key;
    private final boolean anyKey;

    /** @param anyKey whether a token signed with any key under any key name is accepted (Microsoft's emulator's way) */
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

    /** Whether any key under any key name is accepted. */
    public boolean acceptsAnyKey() {
        return anyKey;
    }

    /** Whether {@code user} and {@code password} are the endpoint's key name and key (SASL PLAIN, JMS-1). */
    public boolean isKey(String user, String password) {
        return keyName.equals(user)
                && MessageDigest.isEqual(
                        key.getBytes(StandardCharsets.UTF_8), password.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Why {@code token} is refused, or null when it is valid; the same check for a {@code $cbs} put-token, a SASL
     * PLAIN password and an HTTP request's {@code Authorization} header.
     */
    public String refusal(Object token) {
        if (!(token instanceof String text) || !text.startsWith("SharedAccessSignature ")) {
            return "InvalidSignature: only shared access signature tokens are accepted.";
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
            return "InvalidSignature: the token lacks one of sr, sig, se, skn.";
        }
        if (anyKey) {
            return expired(se);
        }
        String presented = NamespaceKeys.keyNameOf(text);
        if (!keyName.equals(presented)) {
            return "InvalidSignature: the token's key name '" + presented + "' is not known.";
        }
        String expired = expired(se);
        if (expired != null) {
            return expired;
        }
        byte[] expected = hmac(key, sr + "\n" + se);
        byte[] actual;
        try {
            actual = Base64.getDecoder().decode(decode(sig));
        } catch (IllegalArgumentException e) {
            return "InvalidSignature: the signature is not base64.";
        }
        if (!MessageDigest.isEqual(expected, actual)) {
            return "InvalidSignature: the token's signature does not match the key.";
        }
        return null;
    }

    /** Why a token expiring at {@code se} is refused (not a number, or passed), or null. */
    private static String expired(String se) {
        long expiry;
        try {
            expiry = Long.parseLong(decode(se));
        } catch (NumberFormatException e) {
            return "InvalidSignature: the token's expiry '" + se + "' is not a number.";
        }
        if (expiry * 1000 < System.currentTimeMillis()) {
            return "ExpiredToken: the token expired at " + java.time.Instant.ofEpochSecond(expiry) + ".";
        }
        return null;
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
}
