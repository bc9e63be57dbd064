package dev.sbemu.amqp.internal.http;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * {@code GET /health}, in the shape of Microsoft's emulator: 200 {@code {"status":"healthy",...}} while the endpoint
 * serves an open namespace and is neither resetting nor closed (HTTP-3), else 503 {@code {"status":"unhealthy",...}}.
 */
final class Health {
    private final BooleanSupplier healthy;

    Health(BooleanSupplier healthy) {
        this.healthy = healthy;
    }

    /** Whether {@code lowerCasePath} asks for the health ({@code /health}, with or without a trailing slash). */
    static boolean isHealthPath(String lowerCasePath) {
        return lowerCasePath.equals("/health") || lowerCasePath.equals("/health/");
    }

    AdminRoutes.Answer answer() {
        Map<String, Object> out = new LinkedHashMap<>();
        boolean up = healthy.getAsBoolean();
        out.put("status", up ? "healthy" : "unhealthy");
        out.put("message", up ? "Service is healthy." : "Service is not ready.");
        return new AdminRoutes.Answer(up ? 200 : 503, JsonBodies.write(out));
    }
}
