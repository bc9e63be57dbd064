package dev.sbemu.sdk.internal.admin;

import com.azure.core.http.HttpClient;
import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.util.Context;
import com.azure.core.util.HttpClientOptions;
import dev.sbemu.core.Namespace;
import dev.sbemu.sdk.internal.SdkDispatch;
import dev.sbemu.wire.EndpointObserver;
import dev.sbemu.wire.InProcessAdministration;
import java.net.URL;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.Supplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import reactor.core.publisher.Mono;

/**
 * Makes an administration client that the application builds itself from a live endpoint's connection string
 * ({@code new ServiceBusAdministrationClientBuilder().connectionString(cs).buildClient()}) reach that endpoint's
 * namespace, although the Java SDK's administration client calls {@code https://127.0.0.1} on port 443 whatever the
 * connection string says (spec ADM-1).
 *
 * <p>How: azure-core's {@code HttpClient.createDefault()} and {@code createDefault(HttpClientOptions)}, which every
 * builder without an explicit {@code httpClient} reaches through {@code HttpPipelineBuilder.build()} (Spring Cloud
 * Azure's {@code DefaultHttpProvider} too), are woven ({@link SdkDispatch#interceptStatic}) so that the client they
 * create is wrapped in a {@link RoutingHttpClient}. Per request, the wrapper:
 * <ul>
 *   <li>passes through, untouched, a request to a host that is not loopback, or without a
 *       {@code SharedAccessSignature} authorization (Azurite, a user's own local server);</li>
 *   <li>answers in process, from the namespace of the live endpoint whose key name and key signed the request's
 *       token (each endpoint's key is random, so a real namespace's token never matches);</li>
 *   <li>answers {@code 401} at once, with a message saying why and what to change (the SDK throws
 *       {@code ClientAuthenticationException}, not retried), for a signed request to {@code https://<loopback>}
 *       on port 443 that no live endpoint signed, or that several endpoints sharing a key could have signed;</li>
 *   <li>passes through any other loopback request (an explicit port: Microsoft's emulator, WireMock).</li>
 * </ul>
 * A thread-local flag lets the hook create the original client by calling the woven method again.
 */
public final class LoopbackAdministration {
    private static final String SAS = "SharedAccessSignature ";
    private static final List<Route> ROUTES = new CopyOnWriteArrayList<>();
    private static final ThreadLocal<Boolean> ORIGINAL = new ThreadLocal<>();
    private static volatile Boolean woven;
    private static volatile boolean warned;

    private LoopbackAdministration() {}

    /**
     * Routes requests signed with {@code keyName} / {@code key} to the namespace {@code namespace} supplies at the
     * time (an endpoint may swap namespaces), and those signed with {@code <name>/<keyName>} and the key {@code
     * named} gives for {@code name} to the namespace {@code named} serves under that name (spec NS-2), each answered by
     * the transport {@code transport} makes for it, until the returned registration is closed. Returns whether routing is in force (false: no instrumentation in this JVM;
     * a warning is logged once).
     */
    public static Registration register(
            Supplier<Namespace> namespace,
            String keyName,
            String key,
            EndpointObserver.Named named,
            Function<Namespace, HttpClient> transport) {
        Route route = new Route(
                Objects.requireNonNull(namespace, "namespace"),
                Objects.requireNonNull(keyName),
                Objects.requireNonNull(key),
                Objects.requireNonNull(named),
                Objects.requireNonNull(transport));
        boolean active = weave();
        ROUTES.add(route);
        if (!active && !warned) {
            warned = true;
            // the logger is looked up only here: logging's classes stay unloaded on the usual path
            System.getLogger(LoopbackAdministration.class.getName())
                    .log(
                            System.Logger.Level.WARNING,
                            "sbemu: no Java agent (instrumentation) in this JVM, and none could be attached, so an "
                                    + "administration client the application builds from an endpoint's connection string will call "
                                    + "https://127.0.0.1:443 and fail (the Java SDK's administration client ignores the port). "
                                    + "Add the README's argLine (-javaagent:${net.bytebuddy:byte-buddy-agent:jar}) to the test JVM, "
                                    + "or build that client with server.administrationClientBuilder().");
        }
        return new Registration(route, active);
    }

    /** Weaves azure-core's {@code HttpClient.createDefault} once: whether it is woven. */
    private static synchronized boolean weave() {
        if (woven == null) {
            try {
                // both are woven below; a version of azure-core without them would leave nothing woven
                HttpClient.class.getMethod("createDefault");
                HttpClient.class.getMethod("createDefault", HttpClientOptions.class);
            } catch (NoSuchMethodException | LinkageError e) {
                woven = false;
                return false;
            }
            boolean options = SdkDispatch.interceptStatic(
                    HttpClient.class,
                    "createDefault",
                    "(Lcom/azure/core/util/HttpClientOptions;)Lcom/azure/core/http/HttpClient;",
                    LoopbackAdministration::createDefault);
            boolean plain = options
                    && SdkDispatch.interceptStatic(
                            HttpClient.class,
                            "createDefault",
                            "()Lcom/azure/core/http/HttpClient;",
                            LoopbackAdministration::createDefault);
            woven = options && plain;
        }
        return woven;
    }

    /** The hook of the woven {@code createDefault}: the original's client, wrapped; null inside the original. */
    private static Object createDefault(Object[] arguments) {
        if (ORIGINAL.get() != null) {
            return null;
        }
        ORIGINAL.set(Boolean.TRUE);
        HttpClient original;
        try {
            original = arguments.length == 0
                    ? HttpClient.createDefault()
                    : HttpClient.createDefault((HttpClientOptions) arguments[0]);
        } finally {
            ORIGINAL.remove();
        }
        return new RoutingHttpClient(original);
    }

    /** An endpoint's registration: closing it ends the routing of its requests. */
    public static final class Registration implements AutoCloseable {
        private final Route route;
        private final boolean active;

        private Registration(Route route, boolean active) {
            this.route = route;
            this.active = active;
        }

        /** Whether administration clients the application builds reach the endpoint (false: no agent). */
        public boolean active() {
            return active;
        }

        @Override
        public void close() {
            ROUTES.remove(route);
        }
    }

    /** What to do with a request: null to pass it through, else the client that answers it. */
    static HttpClient target(HttpRequest request) {
        URL url = request.getUrl();
        if (url == null || !isLoopback(url.getHost())) {
            return null;
        }
        String authorization = request.getHeaders().getValue(HttpHeaderName.AUTHORIZATION);
        if (authorization == null || !authorization.startsWith(SAS)) {
            return null;
        }
        Map<String, String> token = token(authorization.substring(SAS.length()));
        List<Supplier<HttpClient>> matching = new ArrayList<>();
        for (Route route : ROUTES) {
            Supplier<HttpClient> client = route.signed(token);
            if (client != null) {
                matching.add(client);
            }
        }
        if (matching.size() == 1) {
            return matching.get(0).get();
        }
        boolean defaultHttpsPort =
                "https".equalsIgnoreCase(url.getProtocol()) && (url.getPort() == -1 || url.getPort() == 443);
        if (matching.isEmpty() && !defaultHttpsPort) {
            return null;
        }
        // 401: the SDK throws ClientAuthenticationException with the message (not retried)
        return InProcessAdministration.refusing(
                401, matching.isEmpty() ? noMatch(url, token) : ambiguous(matching.size()));
    }

    private static String noMatch(URL url, Map<String, String> token) {
        return "sbemu: this administration client's request to " + url.getProtocol() + "://" + url.getHost()
                + url.getPath() + " is signed with key name '" + decode(token.getOrDefault("skn", ""))
                + "' and a key that no ServiceBusEmulatorServer running in this JVM has (" + ROUTES.size()
                + " running). The Java administration client calls HTTPS on port 443 whatever the connection "
                + "string's port, so sbemu answers it in process for the running endpoint whose key signed it: build "
                + "the client from the connection string of an endpoint that is still running in this JVM "
                + "(server.getConnectionString(), @ConnectionString), not one of an endpoint already closed, of "
                + "another JVM or typed by hand.";
    }

    private static String ambiguous(int count) {
        return "sbemu: " + count + " ServiceBusEmulatorServers running in this JVM share the key that signed this "
                + "administration client's request, and the Java administration client does not send the "
                + "connection string's port, so sbemu cannot tell which namespace is meant: give each endpoint its "
                + "own key (leave ServiceBusEmulatorServer.Builder.sharedAccessKey unset: it is random per endpoint).";
    }

    static boolean isLoopback(String host) {
        if (host == null) {
            return false;
        }
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        return h.equalsIgnoreCase("localhost")
                || h.startsWith("127.")
                || h.equals("::1")
                || h.equals("0:0:0:0:0:0:0:1");
    }

    /** The token's fields, raw (still URL-encoded). */
    private static Map<String, String> token(String fields) {
        Map<String, String> out = new HashMap<>();
        for (String field : fields.split("&")) {
            int eq = field.indexOf('=');
            if (eq > 0) {
                out.put(field.substring(0, eq), field.substring(eq + 1));
            }
        }
        return out;
    }

    private static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return s;
        }
    }

    /**
     * A live endpoint's key and namespaces, with the transport for each one's current namespace: the default one's
     * under its key name, each other one's under {@code <name>/<key name>} (spec NS-2).
     */
    private static final class Route {
        private final Supplier<Namespace> namespace;
        private final String keyName;
        private final String key;
        private final EndpointObserver.Named named;
        private final Function<Namespace, HttpClient> transport;
        private final Map<String, Served> served = new HashMap<>();

        Route(
                Supplier<Namespace> namespace,
                String keyName,
                String key,
                EndpointObserver.Named named,
                Function<Namespace, HttpClient> transport) {
            this.namespace = namespace;
            this.keyName = keyName;
            this.key = key;
            this.named = named;
            this.transport = transport;
        }

        /**
         * The client for the namespace whose key name and key made the token (as ServiceBusSharedKeyCredential signs),
         * or null when this endpoint's made none.
         */
        Supplier<HttpClient> signed(Map<String, String> token) {
            String resource = token.get("sr");
            String signature = token.get("sig");
            String expiry = token.get("se");
            String skn = decode(token.getOrDefault("skn", ""));
            if (resource == null || signature == null || expiry == null) {
                return null;
            }
            String name;
            String signingKey;
            Supplier<Namespace> chosen;
            if (keyName.equals(skn)) {
                name = null;
                signingKey = key;
                chosen = namespace;
            } else if (skn.endsWith("/" + keyName) && skn.indexOf('/') == skn.length() - keyName.length() - 1) {
                String one = skn.substring(0, skn.indexOf('/'));
                name = one;
                signingKey = named.key(one);
                chosen = () -> named.namespace(one);
            } else {
                return null;
            }
            if (signingKey == null || name != null && name.isEmpty()) {
                return null;
            }
            try {
                Mac mac = Mac.getInstance("HmacSHA256");
                mac.init(new SecretKeySpec(signingKey.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
                byte[] expected = mac.doFinal((resource + "\n" + decode(expiry)).getBytes(StandardCharsets.UTF_8));
                byte[] actual = Base64.getDecoder().decode(decode(signature));
                if (!MessageDigest.isEqual(expected, actual)) {
                    return null;
                }
            } catch (GeneralSecurityException | IllegalArgumentException e) {
                return null;
            }
            return () -> client(name, chosen.get());
        }

        /** The transport for {@code current}, the namespace served under {@code name} (null: the default) now. */
        private synchronized HttpClient client(String name, Namespace current) {
            if (current == null) {
                // deleted since the token was checked
                served.remove(name);
                return InProcessAdministration.refusing(
                        401,
                        "sbemu: the namespace '" + name + "' this request's key name chooses is not served any more.");
            }
            Served one = served.get(name);
            if (one == null || one.namespace() != current) {
                one = new Served(current, transport.apply(current));
                served.put(name, one);
            }
            return one.client();
        }
    }

    /** A namespace and the transport made for it. */
    private record Served(Namespace namespace, HttpClient client) {}

    /**
     * The client {@code HttpClient.createDefault} made, with each request routed as {@link #target} says: untouched
     * unless it is one of a live endpoint's administration clients.
     */
    static final class RoutingHttpClient implements HttpClient {
        private final HttpClient original;

        RoutingHttpClient(HttpClient original) {
            this.original = original;
        }

        /** The client the SDK would have used. */
        HttpClient original() {
            return original;
        }

        @Override
        public Mono<HttpResponse> send(HttpRequest request) {
            HttpClient target = target(request);
            return target == null ? original.send(request) : target.send(request);
        }

        @Override
        public Mono<HttpResponse> send(HttpRequest request, Context context) {
            HttpClient target = target(request);
            return target == null ? original.send(request, context) : target.send(request, context);
        }

        @Override
        public HttpResponse sendSync(HttpRequest request, Context context) {
            HttpClient target = target(request);
            return target == null ? original.sendSync(request, context) : target.sendSync(request, context);
        }

        @Override
        public String toString() {
            return "sbemu routing (" + original + ")";
        }
    }
}
