package dev.sbemu.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sbemu.core.Namespace;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class EndpointObserversTest {
    private final Namespace namespace = Namespace.create();

    @BeforeEach
    void clear() {
        RecordingObserver.EVENTS.clear();
    }

    @AfterEach
    void close() {
        namespace.close();
    }

    @Test
    @DisplayName("ADM-1 an endpoint's start and close reach every observer on the class path, the close once")
    void startAndCloseReachTheObservers() {
        EndpointObservers.Registration registration =
                EndpointObservers.endpointStarted(() -> namespace, "RootManageSharedAccessKey", "k1");
        assertEquals(
                List.of("second started RootManageSharedAccessKey", "started RootManageSharedAccessKey k1 true"),
                RecordingObserver.EVENTS);

        registration.close();
        registration.close();
        assertEquals(
                List.of(
                        "second started RootManageSharedAccessKey",
                        "started RootManageSharedAccessKey k1 true",
                        "second closed RootManageSharedAccessKey",
                        "closed RootManageSharedAccessKey"),
                RecordingObserver.EVENTS);
    }

    @Test
    @DisplayName(
            "an observer that fails to start fails the endpoint's start, and those already told are told it closed")
    void aFailingObserverUndoesTheOthers() {
        IllegalStateException e = assertThrows(
                IllegalStateException.class,
                () -> EndpointObservers.endpointStarted(() -> namespace, RecordingObserver.FAILING, "k"));
        assertEquals("refused failing", e.getMessage());
        assertEquals(List.of("second started failing", "second closed failing"), RecordingObserver.EVENTS);
    }
}
