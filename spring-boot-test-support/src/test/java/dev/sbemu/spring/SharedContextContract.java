package dev.sbemu.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.VirtualClock;
import dev.sbemu.junit.Queue;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;

/**
 * Test classes extending this one have the same declaration, so Spring gives them one cached context, one
 * endpoint and one auto-configured sender; each test method still starts with an empty queue and the clock
 * at {@code startAt}, whatever the test before it (of this class or the other) sent or advanced.
 */
@SpringBootTest(
        classes = TestApplication.class,
        properties = {
            "spring.cloud.azure.servicebus.producer.entity-name=orders",
            "spring.cloud.azure.servicebus.producer.entity-type=queue"
        })
@SpringServiceBusEmulator(queues = @Queue(name = "orders"), startAt = "2026-01-01T00:00:00Z")
abstract class SharedContextContract {
    private static final AtomicReference<ApplicationContext> FIRST_CONTEXT = new AtomicReference<>();
    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    @Autowired
    ApplicationContext context;

    @Autowired
    ServiceBusSenderClient sender;

    @Autowired
    Namespace namespace;

    @Autowired
    VirtualClock clock;

    @Test
    void theClassesShareOneContext() {
        FIRST_CONTEXT.compareAndSet(null, context);
        assertSame(FIRST_CONTEXT.get(), context);
    }

    @RepeatedTest(2)
    void eachTestMethodStartsWithNoMessagesAndTheClockAtStartAt() {
        assertEquals(START, clock.instant());
        assertEquals(0, namespace.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());

        sender.sendMessage(new ServiceBusMessage("order-1"));
        clock.advance(Duration.ofHours(1));

        assertEquals(1, namespace.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
    }
}
