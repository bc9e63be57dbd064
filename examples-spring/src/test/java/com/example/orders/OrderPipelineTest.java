package com.example.orders;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.VirtualClock;
import dev.sbemu.spring.SpringServiceBusEmulator;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The application as it runs in production (auto-configured {@code ServiceBusTemplate} and
 * {@code @ServiceBusListener}s), against an emulated namespace with the topology of the team's Config.json.
 */
@SpringBootTest
@SpringServiceBusEmulator(config = "classpath:servicebus/Config.json")
@DisplayName(
        "SPRING-1 SPRING-5 the order pipeline: TTL expiry to the dead-letter queue, SQL filter, max delivery count")
class OrderPipelineTest {
    private static final EntityPath EXPRESS = EntityPath.subscription("orders", "express");
    private static final EntityPath FULFILMENT = EntityPath.subscription("orders", "fulfilment");
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Autowired
    OrderService orders;

    @Autowired
    Fulfilment fulfilment;

    @Autowired
    Namespace namespace;

    @Autowired
    VirtualClock clock;

    @Autowired
    OrderBacklog backlog;

    @Test
    void anExpressOrderTheCourierDoesNotCollectExpiresToTheDeadLetterQueue() {
        Order express = new Order(id(), "alice", 2, true);
        Order standard = new Order(id(), "bob", 1, false);
        orders.place(express);
        orders.place(standard);
        await().atMost(WAIT).until(() -> fulfilment.shipped().containsAll(List.of(express.id(), standard.id())));

        // the SQL filter let only the express order through to the courier's subscription
        assertEquals(List.of(express.id()), messageIds(namespace.peek(EXPRESS, 1, 10)));

        clock.advance(OrderService.ORDER_TIME_TO_LIVE.plusMinutes(1));

        assertEquals(0, namespace.runtimeInfo(EXPRESS).activeMessageCount());
        List<BrokeredMessage> dead = namespace.peek(EXPRESS.deadLetter(), 1, 10);
        assertEquals(List.of(express.id()), messageIds(dead));
        assertEquals("TTLExpiredException", dead.get(0).deadLetterReason());
    }

    @Test
    void anOrderThatCannotBeShippedIsDeadLetteredAfterTheMaxDeliveryCount() {
        Order empty = new Order(id(), "carol", 0, false);
        orders.place(empty);

        await().atMost(WAIT).until(() -> namespace.runtimeInfo(FULFILMENT).deadLetterMessageCount() == 1);
        BrokeredMessage dead = namespace.peek(FULFILMENT.deadLetter(), 1, 1).get(0);
        assertEquals(empty.id(), dead.message().messageId());
        assertEquals("MaxDeliveryCountExceeded", dead.deadLetterReason());
        assertEquals(3, dead.deliveryCount());
        assertEquals(
                List.of(),
                fulfilment.shipped().stream().filter(empty.id()::equals).toList());
    }

    @Test
    @DisplayName("ADM-1 the application's own administration client counts what waits for the courier")
    void theApplicationsOwnAdministrationClientReachesTheNamespace() {
        assertEquals(0, backlog.awaitingCourier());

        orders.place(new Order(id(), "dave", 1, true));

        assertEquals(1, backlog.awaitingCourier());
        assertEquals(1, namespace.runtimeInfo(EXPRESS).activeMessageCount());
    }

    static String id() {
        return "order-" + UUID.randomUUID();
    }

    static List<String> messageIds(List<BrokeredMessage> messages) {
        return messages.stream().map(m -> m.message().messageId()).toList();
    }
}
