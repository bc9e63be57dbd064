package dev.sbemu.amqp.internal;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.qpid.proton.amqp.messaging.AmqpValue;
import org.apache.qpid.proton.amqp.transport.DeliveryState;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;
import org.apache.qpid.proton.message.Message;

/**
 * The {@code $cbs} node: claims-based security, as the service does it for shared access signatures. A
 * {@code put-token} request carries a token {@code SharedAccessSignature sr=..&sig=..&se=..&skn=..}; it is
 * accepted (status 200) when {@code skn} is the endpoint's key name, {@code sig} is the HMAC-SHA256 of
 * {@code sr + "\n" + se} under the endpoint's key, and {@code se} (seconds since the epoch) has not passed on
 * the wall clock (the SDK computes token expiry on the wall clock, not the namespace's virtual one). Anything
 * else is refused with 401, which the SDKs report as unauthorized. An endpoint that accepts any key (as Microsoft's
 * emulator does, {@code ServiceBusEmulatorServer.Builder#acceptAnyKey}) checks only the token's form and expiry. The
 * first accepted token authorizes the connection for every entity.
 */
final class CbsNode implements RequestLink.Node {
    private final EndpointContext context;
    private final AmqpConnection connection;

    CbsNode(EndpointContext context, AmqpConnection connection) {
        this.context = context;
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
        return refusal(context, token);
    }

    /**
     * Why {@code token} is refused by {@code context}'s key, or null when it is valid; the same check for a
     * {@code $cbs} put-token and an HTTP request's {@code Authorization} header.
     */
    static String refusal(EndpointContext context, Object token) {
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
        if (context.anyKey()) {
            return expired(se);
        }
        if (!context.keyName().equals(decode(skn))) {
            return "InvalidSignature: the token's key name '" + decode(skn) + "' is not known.";
        }
        String expired = expired(se);
        if (expired != null) {
            return expired;
        }
        byte[] expected = hmac(context.key(), sr + "\n" + se);
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
