package dev.sbemu.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import dev.sbemu.junit.Queue;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/** A failing Spring test method's exception carries the namespace's journal; a passing one's nothing. */
@DisplayName("SPRING-3 a failing Spring test method carries the journal")
class JournalOnFailureTest {

    private static volatile boolean runningFixture;

    @Test
    void aFailingTestMethodCarriesTheJournalOfItsNamespace() {
        List<Event> failures;
        runningFixture = true;
        try {
            failures = EngineTestKit.engine("junit-jupiter")
                    .selectors(selectClass(FailingFixture.class))
                    .execute()
                    .testEvents()
                    .failed()
                    .list();
        } finally {
            runningFixture = false;
        }
        assertEquals(1, failures.size());
        Throwable failure = failures.get(0)
                .getPayload(TestExecutionResult.class)
                .orElseThrow()
                .getThrowable()
                .orElseThrow();
        assertEquals("the order was not processed", failure.getMessage());
        assertEquals(1, failure.getSuppressed().length);
        String journal = failure.getSuppressed()[0].getMessage();
        assertTrue(
                journal.startsWith(
                        "Service Bus journal of orderIsProcessed() (virtual time now " + "2026-01-01T00:00:00Z):"),
                journal);
        assertTrue(journal.contains("SENT  orders  #1  id=order-42"), journal);
    }

    static boolean runningFixture() {
        return runningFixture;
    }

    /** Run by the test kit only (disabled when a build selects it directly). */
    @EnabledIf("dev.sbemu.spring.JournalOnFailureTest#runningFixture")
    @SpringBootTest(
            classes = TestApplication.class,
            properties = {
                "spring.cloud.azure.servicebus.producer.entity-name=orders",
                "spring.cloud.azure.servicebus.producer.entity-type=queue"
            })
    @SpringServiceBusEmulator(queues = @Queue(name = "orders"), startAt = "2026-01-01T00:00:00Z")
    static class FailingFixture {
        @Autowired
        ServiceBusSenderClient sender;

        @Test
        void orderIsProcessed() {
            ServiceBusMessage message = new ServiceBusMessage("order");
            message.setMessageId("order-42");
            sender.sendMessage(message);
            fail("the order was not processed");
        }
    }
}
