package dev.sbemu.wire.internal.admin;

import com.azure.core.http.HttpClient;
import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.util.BinaryData;
import com.azure.core.util.Context;
import java.net.URL;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * An azure-core {@link HttpClient} that never touches the network: it hands each request to a
 * {@link ManagementRouter} and returns its answer. Requests are answered on the calling thread.
 * Thread-safe.
 */
public final class ManagementHttpClient implements HttpClient {
    private final Function<HttpRequest, ManagementResponse> answers;

    public ManagementHttpClient(ManagementRouter router) {
        Objects.requireNonNull(router, "router");
        this.answers = request -> router.handle(toManagementRequest(request));
    }

    private ManagementHttpClient(Function<HttpRequest, ManagementResponse> answers) {
        this.answers = answers;
    }

    /** A client that answers every request with {@code response}. */
    public static ManagementHttpClient answering(ManagementResponse response) {
        Objects.requireNonNull(response, "response");
        return new ManagementHttpClient(request -> response);
    }

    @Override
    public Mono<HttpResponse> send(HttpRequest request) {
        return Mono.fromSupplier(() -> sendSync(request, Context.NONE));
    }

    @Override
    public Mono<HttpResponse> send(HttpRequest request, Context context) {
        return send(request);
    }

    @Override
    public HttpResponse sendSync(HttpRequest request, Context context) {
        return new InMemoryHttpResponse(request, answers.apply(request));
    }

    static ManagementRequest toManagementRequest(HttpRequest request) {
        URL url = request.getUrl();
        BinaryData body = request.getBodyAsBinaryData();
        return toManagementRequest(
                request.getHttpMethod().name(),
                url.getPath(),
                url.getQuery(),
                request.getHeaders().getValue(HttpHeaderName.IF_MATCH),
                body == null ? null : body.toString(),
                url.getAuthority());
    }

    /**
     * A management request from the parts of an HTTP request, however it arrived.
     *
     * @param rawPath the path as sent (percent-encoded)
     * @param rawQuery the query as sent (percent-encoded), or null
     * @param host the {@code Host} header, or null
     */
    public static ManagementRequest toManagementRequest(
            String method, String rawPath, String rawQuery, String ifMatch, String body, String host) {
        return new ManagementRequest(method, segments(rawPath), query(rawQuery), ifMatch, body, host);
    }

    /** Splits the raw path at '/' and decodes each segment ({@code %2F} stays inside its segment). */
    public static List<String> segments(String rawPath) {
        List<String> out = new ArrayList<>();
        String path = rawPath == null ? "" : rawPath;
        if (path.startsWith("/")) {
            path = path.substring(1);
        }
        if (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        if (path.isEmpty()) {
            return out;
        }
        for (String segment : path.split("/", -1)) {
            out.add(decode(segment.replace("+", "%2B")));
        }
        return out;
    }

    /** The raw query's parameters, decoded, in their order (a name without '=' has the value ""). */
    public static Map<String, String> query(String rawQuery) {
        Map<String, String> out = new LinkedHashMap<>();
        if (rawQuery == null || rawQuery.isEmpty()) {
            return out;
        }
        for (String pair : rawQuery.split("&")) {
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            out.put(name, value);
        }
        return out;
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }
}
