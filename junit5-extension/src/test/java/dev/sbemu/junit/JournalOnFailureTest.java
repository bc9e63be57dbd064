package dev.sbemu.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.junit.fixtures.JournalFixtures;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;

class JournalOnFailureTest {

    @Test
    @DisplayName("a failing test carries the namespace's journal as a suppressed exception")
    void failingTest() {
        Throwable failure = Kit.failure(Kit.run(JournalFixtures.FailingTest.class));

        assertEquals("the order was not processed", failure.getMessage());
        assertEquals(1, failure.getSuppressed().length);
        assertEquals("""
                Service Bus journal of orderIsProcessed(Namespace) (virtual time now 2024-01-01T00:11:00Z):
                2024-01-01T00:00:00Z  ENTITY_CREATED  orders  (queue)
                2024-01-01T00:00:00Z  SENT  orders  #1  id=order-42  (expires 2024-01-01T00:10:00Z)
                2024-01-01T00:10:00Z  EXPIRED  orders  #1  id=order-42  (to the dead-letter queue)
                2024-01-01T00:10:00Z  DEAD_LETTERED  orders/$deadletterqueue  #1  id=order-42  (TTLExpiredException)
                2024-01-01T00:11:00Z  CLOCK_ADVANCED  clock  (now 2024-01-01T00:11:00Z)
                """, failure.getSuppressed()[0].getMessage());
        assertEquals(0, failure.getSuppressed()[0].getStackTrace().length, "no stack trace to wade through");
    }

    @Test
    @DisplayName(
            "CON-6 a failing test whose endpoint runs names its console's URL under the journal; one without names none")
    void consoleUrl() {
        Throwable failure = Kit.failure(Kit.run(JournalFixtures.FailingOverTheEndpoint.class));
        Throwable withoutEndpoint = Kit.failure(Kit.run(JournalFixtures.FailingTest.class));

        String journal = failure.getSuppressed()[0].getMessage();
        assertTrue(
                journal.endsWith(
                        "Console (while the endpoint runs): " + JournalFixtures.FailingOverTheEndpoint.console + "\n"),
                journal);
        assertTrue(
                JournalFixtures.FailingOverTheEndpoint.console.matches("http://127\\.0\\.0\\.1:\\d+/__admin/console/"));
        assertFalse(withoutEndpoint.getSuppressed()[0].getMessage().contains("Console"));
    }

    @Test
    @DisplayName("a failing @BeforeEach method carries the journal too")
    void failingBeforeEach() {
        Throwable failure = Kit.failure(Kit.run(JournalFixtures.FailingBeforeEach.class));

        assertEquals("setup failed", failure.getMessage());
        assertTrue(
                failure.getSuppressed()[0].getMessage().contains("SENT  orders  #1  id=order-42"),
                failure.getSuppressed()[0].getMessage());
    }

    @Test
    @DisplayName("passing and aborted tests print and report nothing")
    void passingTest() {
        EngineExecutionResults passing = Kit.run(JournalFixtures.PassingTest.class);
        EngineExecutionResults aborted = Kit.run(JournalFixtures.AbortedTest.class);

        passing.testEvents().assertStatistics(s -> s.succeeded(1).failed(0));
        assertEquals(0, passing.allEvents().reportingEntryPublished().count());
        aborted.testEvents().assertStatistics(s -> s.aborted(1).failed(0));
        Throwable abort = aborted.testEvents().aborted().stream()
                .findFirst()
                .orElseThrow()
                .getPayload(TestExecutionResult.class)
                .orElseThrow()
                .getThrowable()
                .orElseThrow();
        assertEquals(0, abort.getSuppressed().length);
    }
}
