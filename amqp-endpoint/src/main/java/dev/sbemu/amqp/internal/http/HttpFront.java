package dev.sbemu.amqp.internal.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.sbemu.amqp.internal.security.Authorizer;
import dev.sbemu.amqp.internal.security.Credentials;
import dev.sbemu.core.AuthorizationRule.AccessRight;
import dev.sbemu.core.Namespace;
import dev.sbemu.wire.ManagementHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The endpoint's HTTP/1.1 side, on the JDK's own server ({@code com.sun.net.httpserver}): the service's management
 * REST API (ATOM/XML, through wire's {@link ManagementHandler}, authorized by {@link Credentials}, the same shared
 * access signature check as {@code $cbs}), {@code GET /health} ({@link Health}) in the shape of Microsoft's emulator,
 * and the control API under {@code /__admin/} ({@link AdminRoutes}).
 *
 * <p><b>The hidden loopback port.</b> The JDK server listens on an ephemeral port of the loopback address, chosen
 * when the endpoint starts and announced nowhere (no option, no log line, no API): clients never connect to it. The
 * endpoint's listeners (the AMQP port and the HTTP port) tell HTTP from AMQP by a connection's first bytes and hand an
 * HTTP connection to the {@link HttpSplice}, which opens a connection to this port and copies bytes both ways. Any
 * local process could reach the port directly; it serves the same requests with the same authorization.
 *
 * <p>A few request threads ({@code <name>-http-<n>}) with a bounded queue serve it; a request body over {@value
 * #MAX_BODY} bytes is refused.
 */
public final class HttpFront implements AutoCloseable {
    /** The largest request body taken (an entity description is a few KB). */
    static final int MAX_BODY = 1024 * 1024;

    private static final Logger LOG = Logger.getLogger(HttpFront.class.getName());

    static {
        // The JDK server leaves Nagle's algorithm on by default: its response headers and body go out in separate
        // writes, and the client's delayed ACK then holds each response 15-40 ms (measured: 16-22 ms per
        // getQueueRuntimeProperties against 2 ms). The property is read once per JVM, when the first server starts; one
        // set by the user wins.
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
    }

    private final ServedNamespaces namespaces;
    private final NamespacesResource namespacesResource;
    private final Health health;
    private final String host;
    private final HttpServer server;
    private final ThreadPoolExecutor executor;
    /** The management handler of each namespace served now, by name. */
    private final Map<String, Managed> managed = new ConcurrentHashMap<>();

    private record Managed(Namespace namespace, ManagementHandler handler) {}

    /**
     * @param host how the namespace is named in management answers
     */
    public HttpFront(ServedNamespaces namespaces, BooleanSupplier healthy, String host, String name) {
        this.namespaces = namespaces;
        this.namespacesResource = new NamespacesResource(namespaces);
        this.health = new Health(healthy);
        this.host = host;
        AtomicInteger count = new AtomicInteger();
        this.executor = new ThreadPoolExecutor(
                4,
                4,
                60,
                TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(256),
                r -> {
                    Thread t = new Thread(r, name + "-http-" + count.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                },
                new ThreadPoolExecutor.CallerRunsPolicy());
        this.executor.allowCoreThreadTimeOut(true);
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try {
            this.server = HttpServer.create(address, 64);
        } catch (IOException e) {
            executor.shutdownNow();
            throw new IllegalStateException("Cannot listen for HTTP on " + address + ": " + e.getMessage(), e);
        }
        server.createContext("/", this::serve);
        server.setExecutor(executor);
        server.start();
    }

    /** The port the HTTP server listens on. */
    int port() {
        return server.getAddress().getPort();
    }

    /** Where the AMQP listener hands HTTP connections over to. */
    public InetSocketAddress address() {
        InetSocketAddress a = server.getAddress();
        return a.getAddress().isAnyLocalAddress()
                ? new InetSocketAddress(InetAddress.getLoopbackAddress(), a.getPort())
                : a;
    }

    private void serve(HttpExchange exchange) {
        try {
            serveOne(exchange);
        } finally {
            exchange.close();
        }
    }

    private void serveOne(HttpExchange exchange) {
        try {
            String method = exchange.getRequestMethod().toUpperCase(Locale.ROOT);
            String rawPath = exchange.getRequestURI().getRawPath();
            String rawQuery = exchange.getRequestURI().getRawQuery();
            String body;
            try {
                body = readBody(exchange.getRequestBody());
            } catch (TooLarge e) {
                json(
                        exchange,
                        AdminRoutes.error(413, "RequestTooLarge", "The request body is over " + MAX_BODY + " bytes."));
                return;
            }
            String lower = rawPath == null ? "" : rawPath.toLowerCase(Locale.ROOT);
            if (Health.isHealthPath(lower)) {
                json(exchange, health.answer());
            } else if (lower.equals("/__admin") || lower.startsWith("/__admin/")) {
                // read as the management API reads a path; empty segments ("//") name nothing here
                List<String> path = ManagementHandler.pathSegments(rawPath.substring("/__admin".length())).stream()
                        .filter(segment -> !segment.isEmpty())
                        .toList();
                Map<String, String> query = ManagementHandler.queryParameters(rawQuery);
                boolean namespacesRoute = !path.isEmpty() && path.get(0).equalsIgnoreCase("namespaces");
                // the namespace the route acts on: /__admin/namespaces/{name}/... that one's, the others the default's
                String target = namespacesRoute && path.size() >= 2
                        ? path.get(1)
                        : namespaces.keys().defaultName();
                // the console's own files are open: the page asks for the key and sends it with each API call (CON-4)
                boolean consolePage =
                        method.equals("GET") && !path.isEmpty() && path.get(0).equalsIgnoreCase("console");
                // reading needs Listen, changing Manage; a namespace's description holds its key, so Manage (CON-12)
                boolean reads =
                        (method.equals("GET") || method.equals("HEAD")) && !(namespacesRoute && path.size() <= 2);
                Access access = consolePage ? Access.MANAGE : access(exchange, target);
                if (access.refusal() != null) {
                    json(exchange, access.refusal());
                } else if (!reads && !access.manage()) {
                    json(
                            exchange,
                            AdminRoutes.error(
                                    401,
                                    "Unauthorized",
                                    "This token may only read the control API: changing anything, and listing the "
                                            + "namespaces with their keys, needs a token of a policy with Manage "
                                            + "rights on the namespace."));
                } else if (isRights(path, namespacesRoute) && namespaces.admin(target) != null) {
                    json(exchange, AdminRoutes.Answer.ok(AdminRequest.obj("read", true, "manage", access.manage())));
                } else if (namespacesRoute) {
                    String hostHeader = exchange.getRequestHeaders().getFirst("Host");
                    json(
                            exchange,
                            namespacesResource.handle(method, path.subList(1, path.size()), query, body, hostHeader));
                } else {
                    // today's routes act on the default namespace (NS-5)
                    json(
                            exchange,
                            namespaces.admin(namespaces.keys().defaultName()).handle(method, path, query, body));
                }
            } else {
                management(exchange, method, rawPath, rawQuery, body);
            }
        } catch (IOException e) {
            LOG.log(Level.FINE, "HTTP exchange failed", e);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "HTTP request failed inside the endpoint", e);
            try {
                json(
                        exchange,
                        AdminRoutes.error(500, "InternalError", e.getClass().getSimpleName() + ": " + e.getMessage()));
            } catch (IOException | RuntimeException ignored) {
                // the response was already started
            }
        }
    }

    /**
     * What a caller may do with the control API: a refusal, or reading and, with {@code manage}, changing too.
     *
     * @param refusal the answer that refuses the request, or null
     * @param manage whether the caller may change things, not only read them
     */
    private record Access(AdminRoutes.Answer refusal, boolean manage) {
        static final Access MANAGE = new Access(null, true);

        static Access refused(AdminRoutes.Answer refusal) {
            return new Access(refusal, false);
        }
    }

    /** {@code /__admin/rights} or {@code /__admin/namespaces/{name}/rights}: what the caller's token allows. */
    private static boolean isRights(List<String> path, boolean namespacesRoute) {
        int at = namespacesRoute ? 2 : 0;
        return path.size() == at + 1 && path.get(at).equalsIgnoreCase("rights");
    }

    /**
     * What the control API allows on the namespace {@code target}: everything when any key is accepted (anyone who
     * reaches the port controls the namespaces), else what a token of the namespace's policies (SEC-7), of the default
     * namespace (the server's own) or of {@code target} itself (NS-5) grants: with {@code Manage} everything, with
     * {@code Listen} reading (CON-12), else nothing.
     */
    private Access access(HttpExchange exchange, String target) {
        Authorizer own = namespaces.keys().of(namespaces.keys().defaultName());
        if (own == null || own.credentials().anyKey()) {
            return Access.MANAGE;
        }
        Chosen chosen = chosen(exchange);
        Credentials.Verdict verdict = chosen.verdict();
        if (verdict.refusal() == null
                && !chosen.namespace().equals(namespaces.keys().defaultName())
                && !chosen.namespace().equals(target)) {
            return Access.refused(AdminRoutes.error(
                    401,
                    "Unauthorized",
                    "A token of namespace '" + chosen.namespace() + "' does not control namespace '" + target + "'."));
        }
        if (verdict.refusal() != null) {
            return Access.refused(AdminRoutes.error(401, "Unauthorized", verdict.refusal()));
        }
        if (verdict.grant().allows("", AccessRight.MANAGE)) {
            return Access.MANAGE;
        }
        if (verdict.grant().allows("", AccessRight.LISTEN)) {
            return new Access(null, false);
        }
        return Access.refused(AdminRoutes.error(
                401,
                "Unauthorized",
                "The control API needs a token of a policy with Manage rights on the namespace (Listen rights to "
                        + "read it only)."));
    }

    /** The namespace a request's token chooses (NS-2), that namespace, and the verdict of its authorizer. */
    private record Chosen(String namespace, Namespace served, Credentials.Verdict verdict) {}

    /**
     * The request's namespace, chosen by the key name in its token (the default's without one), and its authorizer's
     * verdict on the token; a malformed escape is a 401 logged once (RES-2).
     */
    private Chosen chosen(HttpExchange exchange) {
        String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        String name = namespaces.keys().namespaceOfToken(authorization);
        Namespace served = namespaces.namespace(name);
        return new Chosen(name, served, verdict(authorization, name, served));
    }

    private Credentials.Verdict verdict(String authorization, String name, Namespace served) {
        if (authorization == null) {
            return new Credentials.Verdict(
                    null, "MissingToken: the request has no Authorization header; send a SharedAccessSignature token.");
        }
        Authorizer authorizer = namespaces.keys().of(name);
        if (authorizer == null || served == null) {
            return new Credentials.Verdict(
                    null,
                    "InvalidSignature: the token's key name chooses namespace '" + name
                            + "', which this server does not serve.");
        }
        try {
            return authorizer
                    .credentials()
                    .token(served.sharedAccessPolicies(), authorization, System.currentTimeMillis());
        } catch (IllegalArgumentException e) {
            // a malformed escape in the token: the client's fault, a 401 (RES-2), not a 500 with a stack trace per
            // request that anyone could fill the log with
            if (!malformedTokenLogged) {
                malformedTokenLogged = true;
                LOG.info("An HTTP request's Authorization header is malformed (" + e.getMessage()
                        + "); answered 401. Further ones are answered alike without a log line.");
            }
            return new Credentials.Verdict(null, "InvalidSignature: the token is malformed (" + e.getMessage() + ").");
        }
    }

    private void management(HttpExchange exchange, String method, String rawPath, String rawQuery, String body)
            throws IOException {
        Chosen chosen = chosen(exchange);
        Credentials.Verdict verdict = chosen.verdict();
        if (verdict.refusal() != null) {
            unauthorized(exchange, verdict.refusal());
            return;
        }
        ManagementHandler handler = handler(chosen.namespace(), chosen.served());
        List<String> segments = ManagementHandler.pathSegments(rawPath == null ? "" : rawPath).stream()
                .filter(segment -> !segment.isEmpty())
                .toList();
        // the request's path is the resource: a token's sr must reach it, and an entity's policy reaches only
        // that entity (a listing or $namespaceinfo needs a namespace policy)
        String resource = String.join("/", segments);
        boolean allowed = verdict.grant().allows(resource, AccessRight.MANAGE);
        ManagementHandler.Response answer = null;
        boolean subscriptions = segments.size() >= 2 && segments.get(1).equalsIgnoreCase("Subscriptions");
        if (!allowed && method.equals("GET") && !subscriptions) {
            // the service answers a read of an entity that does not exist as such whatever the rights (SEC-6)
            answer = handler.handle(method, rawPath, rawQuery, null, body);
            if (answer.status() != 404) {
                answer = null;
            }
        }
        if (!allowed && answer == null) {
            String detail = manageRequired(method, segments, subscriptions, exchange);
            if (subscriptions) {
                // the service puts this text in the reason phrase too (SEC-6); HttpSplice moves it there
                exchange.getResponseHeaders().set(ResponseHeads.REASON, reasonPhrase(detail));
            }
            unauthorized(exchange, detail);
            return;
        }
        if (answer == null) {
            answer = handler.handle(
                    method,
                    rawPath,
                    rawQuery,
                    exchange.getRequestHeaders().getFirst("If-Match"),
                    body,
                    exchange.getRequestHeaders().getFirst("Host"));
        }
        send(exchange, answer.status(), answer.contentType(), answer.body());
    }

    /** Whether a malformed token was logged already: once per endpoint (RES-2). */
    private volatile boolean malformedTokenLogged;

    /** The service's texts for a management request without {@code Manage} (SEC-6). */
    private static String manageRequired(
            String method, List<String> segments, boolean subscriptions, HttpExchange exchange) {
        if (subscriptions) {
            String operation = switch (method) {
                case "PUT" -> "'CreateOrUpdateSubscription'";
                case "DELETE" -> "'DeleteSubscription'";
                default -> segments.size() == 2 ? "'EnumerateSubscriptions'" : "'GetSubscription'";
            };
            String host = exchange.getRequestHeaders().getFirst("Host");
            return "SubCode=40100: Unauthorized : Unauthorized access for " + operation
                    + " operation on endpoint 'sb://" + (host == null ? "localhost" : host) + "/"
                    + String.join("/", segments) + "'.";
        }
        return switch (method) {
            case "PUT" -> "Authorization failed for specified action: Manage,EntityWrite.";
            case "DELETE" -> "Authorization failed for specified action: Manage,EntityDelete.";
            default -> "Manage,EntityRead claims required for this operation.";
        };
    }

    /** {@code text} as a reason phrase can carry it: Latin-1 without control characters (the Host is in it). */
    private static String reasonPhrase(String text) {
        StringBuilder phrase = new StringBuilder(text.length());
        text.chars().forEach(c -> phrase.append(c < 0x20 || c == 0x7F || c > 0xFF ? '?' : (char) c));
        return phrase.toString();
    }

    private static void unauthorized(HttpExchange exchange, String detail) throws IOException {
        send(
                exchange,
                401,
                "application/xml; charset=utf-8",
                "<Error><Code>401</Code><Detail>" + escape(detail) + "</Detail></Error>");
    }

    private ManagementHandler handler(String name, Namespace served) {
        Managed current = managed.get(name);
        if (current == null || current.namespace() != served) {
            current = new Managed(served, ManagementHandler.of(served, host));
            managed.put(name, current);
        }
        return current.handler();
    }

    /** Drops the management handler of a deleted namespace. */
    public void forget(String name) {
        managed.remove(name);
    }

    private static void json(HttpExchange exchange, AdminRoutes.Answer answer) throws IOException {
        send(exchange, answer.status(), answer.contentType(), answer.json());
    }

    private static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        if (contentType != null) {
            exchange.getResponseHeaders().set("Content-Type", contentType);
        }
        boolean head = exchange.getRequestMethod().equalsIgnoreCase("HEAD");
        exchange.sendResponseHeaders(status, bytes.length == 0 || head ? -1 : bytes.length);
        if (!head && bytes.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    private static final class TooLarge extends IOException {
        TooLarge() {
            super("request body too large", null);
        }
    }

    private static String readBody(InputStream in) throws IOException {
        byte[] bytes = in.readNBytes(MAX_BODY + 1);
        if (bytes.length > MAX_BODY) {
            throw new TooLarge();
        }
        return bytes.length == 0 ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
