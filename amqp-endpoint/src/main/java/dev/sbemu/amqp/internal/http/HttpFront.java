package dev.sbemu.amqp.internal.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.sbemu.amqp.internal.security.Credentials;
import dev.sbemu.core.Namespace;
import dev.sbemu.wire.ManagementHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
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
    private static final String JSON = "application/json; charset=utf-8";

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
            String method = exchange.getRequestMethod().toUpperCase(java.util.Locale.ROOT);
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
            String lower = rawPath == null ? "" : rawPath.toLowerCase(java.util.Locale.ROOT);
            if (Health.isHealthPath(lower)) {
                json(exchange, health.answer());
            } else if (lower.equals("/__admin") || lower.startsWith("/__admin/")) {
                // read as the management API reads a path; empty segments ("//") name nothing here
                List<String> path = ManagementHandler.pathSegments(rawPath.substring("/__admin".length())).stream()
                        .filter(segment -> !segment.isEmpty())
                        .toList();
                Map<String, String> query = ManagementHandler.queryParameters(rawQuery);
                if (!path.isEmpty() && path.get(0).equalsIgnoreCase("namespaces")) {
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

    private void management(HttpExchange exchange, String method, String rawPath, String rawQuery, String body)
            throws IOException {
        String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        // the token's key name chooses the namespace (NS-2); its key policy then checks the token
        String chosen = namespaces.keys().namespaceOfToken(authorization);
        Credentials credentials = namespaces.keys().of(chosen);
        Namespace served = namespaces.namespace(chosen);
        String refusal = authorization == null
                ? "MissingToken: the request has no Authorization header; send a SharedAccessSignature token."
                : credentials == null || served == null
                        ? "InvalidSignature: the token's key name chooses namespace '" + chosen
                                + "', which this server does not serve."
                        : credentials.refusal(authorization);
        if (refusal != null) {
            send(
                    exchange,
                    401,
                    "application/xml; charset=utf-8",
                    "<Error><Code>401</Code><Detail>" + escape(refusal) + "</Detail></Error>");
            return;
        }
        ManagementHandler.Response answer = handler(chosen, served)
                .handle(method, rawPath, rawQuery, exchange.getRequestHeaders().getFirst("If-Match"), body);
        send(exchange, answer.status(), answer.contentType(), answer.body());
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
        send(exchange, answer.status(), JSON, answer.json());
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
