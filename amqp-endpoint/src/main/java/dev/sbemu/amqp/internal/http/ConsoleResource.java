package dev.sbemu.amqp.internal.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code GET /__admin/console/}: the console, a page of the jar's own files ({@code dev/sbemu/console/}: {@code
 * index.html}, {@code console.js}, {@code console.css}) that reads and drives the namespace through the control API
 * only. Nothing is fetched from elsewhere.
 */
final class ConsoleResource implements AdminResource {
    private static final String ROOT = "/dev/sbemu/console/";
    private static final Map<String, String> TYPES = Map.of(
            "index.html", "text/html; charset=utf-8",
            "console.js", "text/javascript; charset=utf-8",
            "console.css", "text/css; charset=utf-8");
    private static final Map<String, String> FILES = new ConcurrentHashMap<>();

    @Override
    public AdminRoutes.Answer handle(AdminRequest request) {
        if (!request.method().equals("HEAD")) {
            request.require("GET");
        }
        String name = request.rest().isEmpty() ? "index.html" : request.rest();
        String type = TYPES.get(name);
        if (type == null) {
            throw request.notFound();
        }
        return new AdminRoutes.Answer(200, FILES.computeIfAbsent(name, ConsoleResource::read), type);
    }

    private static String read(String name) {
        try (InputStream in = ConsoleResource.class.getResourceAsStream(ROOT + name)) {
            if (in == null) {
                throw new IllegalStateException("The console's " + name + " is missing from the jar.");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
