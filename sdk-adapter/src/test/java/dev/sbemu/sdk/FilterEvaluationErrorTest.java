package dev.sbemu.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import com.azure.messaging.servicebus.models.SubQueue;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.RuleDescription;
import dev.sbemu.core.SubscriptionOptions;
import dev.sbemu.core.filter.SqlFilter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** RUL-8: a filter that fails for a message (integer division by zero), with and without dead-lettering. */
class FilterEvaluationErrorTest {
    private static final Duration SHORT = Duration.ofMillis(50);

    private Namespace ns;
    private EmulatorClients clients;
    private ServiceBusSenderClient sender;

    @BeforeEach
    void setUp() {
        ns = Namespace.builder()
                .startingAt(Instant.parse("2030-01-01T00:00:00Z"))
                .build();
        ns.createTopic("t");
        List<RuleDescription> ratio = List.of(new RuleDescription("ratio", SqlFilter.parse("a / b = 2"), null));
        ns.createSubscription("t", "dead-letters", SubscriptionOptions.defaults(), ratio);
        ns.createSubscription(
                "t",
                "drops",
                SubscriptionOptions.builder()
                        .deadLetteringOnFilterEvaluationExceptions(false)
                        .build(),
                ratio);
        clients = EmulatorClients.of(ns);
        sender = clients.sender("t");
    }

    @AfterEach
    void tearDown() {
        clients.close();
        ns.close();
    }

    private List<ServiceBusReceivedMessage> drain(String subscription, SubQueue subQueue) {
        return clients
                .receiver(
                        subQueue == SubQueue.DEAD_LETTER_QUEUE
                                ? EntityPath.subscription("t", subscription).deadLetter()
                                : EntityPath.subscription("t", subscription),
                        ServiceBusReceiveMode.RECEIVE_AND_DELETE)
                .receiveMessages(10, SHORT)
                .stream()
                .collect(Collectors.toList());
    }

    @Test
    @DisplayName("RUL-8 a division by zero in a filter dead-letters the message (DivideByZeroException) where the "
            + "subscription asks for it, and leaves it out where it does not")
    void divisionByZero() {
        ServiceBusMessage failing = new ServiceBusMessage("zero");
        failing.getApplicationProperties().put("a", 4L);
        failing.getApplicationProperties().put("b", 0L);
        ServiceBusMessage matching = new ServiceBusMessage("two");
        matching.getApplicationProperties().put("a", 4L);
        matching.getApplicationProperties().put("b", 2L);
        sender.sendMessages(List.of(failing, matching));

        List<ServiceBusReceivedMessage> dead = drain("dead-letters", SubQueue.DEAD_LETTER_QUEUE);
        assertEquals(1, dead.size());
        assertEquals("zero", dead.get(0).getBody().toString());
        assertEquals("DivideByZeroException", dead.get(0).getDeadLetterReason());
        assertEquals("Attempted to divide by zero.", dead.get(0).getDeadLetterErrorDescription());
        assertEquals(
                List.of("two"),
                drain("dead-letters", SubQueue.NONE).stream()
                        .map(m -> m.getBody().toString())
                        .collect(Collectors.toList()));

        assertTrue(drain("drops", SubQueue.DEAD_LETTER_QUEUE).isEmpty());
        assertEquals(
                List.of("two"),
                drain("drops", SubQueue.NONE).stream()
                        .map(m -> m.getBody().toString())
                        .collect(Collectors.toList()));
    }
}
