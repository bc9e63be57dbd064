package dev.sbemu.wire.internal.admin;

import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpHeaders;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.util.BinaryData;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** A fully buffered azure-core response carrying a {@link ManagementResponse}. */
final class InMemoryHttpResponse extends HttpResponse {
    private final int status;
    private final HttpHeaders headers = new HttpHeaders();
    private final byte[] body;

    InMemoryHttpResponse(HttpRequest request, ManagementResponse response) {
        super(request);
        this.status = response.status();
        this.body = response.body().getBytes(StandardCharsets.UTF_8);
        if (response.contentType() != null) {
            headers.set(HttpHeaderName.CONTENT_TYPE, response.contentType());
        }
        headers.set(HttpHeaderName.CONTENT_LENGTH, String.valueOf(body.length));
    }

    @Override
    public int getStatusCode() {
        return status;
    }

    @Override
    @Deprecated
    public String getHeaderValue(String name) {
        return headers.getValue(HttpHeaderName.fromString(name));
    }

    @Override
    public String getHeaderValue(HttpHeaderName name) {
        return headers.getValue(name);
    }

    @Override
    public HttpHeaders getHeaders() {
        return headers;
    }

    @Override
    public Flux<ByteBuffer> getBody() {
        return Flux.defer(() -> Flux.just(ByteBuffer.wrap(body).asReadOnlyBuffer()));
    }

    @Override
    public BinaryData getBodyAsBinaryData() {
        return BinaryData.fromBytes(body);
    }

    @Override
    public Mono<byte[]> getBodyAsByteArray() {
        return Mono.fromSupplier(body::clone);
    }

    @Override
    public Mono<String> getBodyAsString() {
        return getBodyAsString(StandardCharsets.UTF_8);
    }

    @Override
    public Mono<String> getBodyAsString(Charset charset) {
        return Mono.fromSupplier(() -> new String(body, charset));
    }
}
