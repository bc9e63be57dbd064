package dev.sbemu.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.VirtualClock;
import dev.sbemu.junit.Queue;
import dev.sbemu.spring.SpringServiceBusEmulator.Reset;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * With {@code reset = BEFORE_EACH_CLASS} the methods of a class share the namespace. The declaration equals
 * {@link SharedContextContract}'s but for {@code reset}, which is not part of the context's identity: this
 * class runs on the same cached context and still starts with an empty queue and the clock at {@code startAt}.
 */
@SpringBootTest(
        classes = TestApplication.class,
        properties = {
            "spring.cloud.azure.servicebus.producer.entity-name=orders",
            "spring.cloud.azure.servicebus.producer.entity-type=queue"
        })
@SpringServiceBusEmulator(
        queues = @Queue(name = "orders"),
        startAt = "2026-01-01T00:00:00Z",
        reset = Reset.BEFORE_EACH_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@DisplayName("SPRING-2 reset = BEFORE_EACH_CLASS: the methods of a class share the namespace")
class ResetBeforeEachClassTest {
    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    @Autowired
    ServiceBusSenderClient sender;

    @Autowired
    Namespace namespace;

    @Autowired
    VirtualClock clock;

    @Test
    @Order(1)
    void theFirstMethodStartsAfresh() {
        assertEquals(START, clock.instant());
        assertEquals(0, namespace.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
        sender.sendMessage(new ServiceBusMessage("order-1"));
        clock.advance(Duration.ofHours(1));
    }

    @Test
    @Order(2)
    void theSecondMethodSeesWhatTheFirstDid() {
        assertEquals(START.plus(Duration.ofHours(1)), clock.instant());
        assertEquals(1, namespace.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
    }
}
