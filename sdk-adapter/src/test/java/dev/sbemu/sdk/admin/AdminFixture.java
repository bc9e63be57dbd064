package dev.sbemu.sdk.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.exception.HttpResponseException;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import dev.sbemu.core.Namespace;
import dev.sbemu.sdk.AdministrationClients;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.function.Executable;

/** A fresh namespace and a real administration client on it, per test. */
abstract class AdminFixture {
    /** The SDK's "never" ({@code TimeSpan.MaxValue}), as the service reports unset TTLs and auto-delete. */
    static final Duration MAX = Duration.parse("P10675199DT2H48M5.4775807S");

    final Namespace namespace = Namespace.create();
    final ServiceBusAdministrationClient admin = AdministrationClients.sync(namespace);

    @AfterEach
    void closeNamespace() {
        namespace.close();
    }

    /** Asserts an HTTP 400 whose message contains every one of {@code fragments}. */
    static HttpResponseException assertBadRequest(Executable call, String... fragments) {
        HttpResponseException e = assertThrows(HttpResponseException.class, call);
        assertEquals(400, e.getResponse().getStatusCode(), e.getMessage());
        for (String fragment : fragments) {
            assertTrue(e.getMessage().contains(fragment), () -> "'" + e.getMessage() + "' lacks '" + fragment + "'");
        }
        return e;
    }
}
