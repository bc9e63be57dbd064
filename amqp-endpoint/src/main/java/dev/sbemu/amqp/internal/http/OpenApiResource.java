package dev.sbemu.amqp.internal.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** {@code GET /__admin/openapi.json}: the control API's description (docs/admin-openapi.json, packaged in the jar). */
final class OpenApiResource implements AdminResource {
    private static volatile String openApi;

    @Override
    public AdminRoutes.Answer handle(AdminRequest request) {
        request.require("GET");
        return new AdminRoutes.Answer(200, openApi());
    }

    static String openApi() {
        String text = openApi;
        if (text == null) {
            try (InputStream in = OpenApiResource.class.getResourceAsStream("/dev/sbemu/amqp/admin-openapi.json")) {
                if (in == null) {
                    throw new IllegalStateException("admin-openapi.json is missing from the jar");
                }
                text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            openApi = text;
        }
        return text;
    }
}
