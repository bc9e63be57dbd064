package dev.sbemu.spring;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.Tier;
import dev.sbemu.junit.Topic;
import jakarta.jms.MessageProducer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jms.annotation.JmsListener;
import org.springframework.jms.core.JmsTemplate;
import org.springframework.stereotype.Component;

/**
 * A durable-subscription {@code @JmsListener}, attached once for the context, reads its subscription in every test's
 * fresh namespace, though the test does not declare it.
 */
@SpringBootTest(
        classes = {TestApplication.class, JmsSubscriptionAcrossTestsTest.Audit.class},
        properties = "spring.jms.servicebus.topic-client-id=app")
@SpringServiceBusEmulator(tier = Tier.PREMIUM, topics = @Topic(name = "events"))
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@DisplayName("SPRING-9 the subscriptions JMS consumers made come along into each test's fresh namespace")
class JmsSubscriptionAcrossTestsTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** The service's name for the durable subscription "audit" of the client id "app" (JMS-16). */
    private static final String SUBSCRIPTION = "audit$app$D";

    /** The application's durable-subscription listener. */
    @Component
    static class Audit {
        final List<String> seen = new CopyOnWriteArrayList<>();

        @JmsListener(
                destination = "events",
                containerFactory = "topicJmsListenerContainerFactory",
                subscription = "audit")
        void onEvent(String event) {
            seen.add(event);
        }
    }

    @Autowired
    JmsTemplate jms;

    @Autowired
    Audit audit;

    @Test
    @Order(1)
    void theListenersSubscriptionIsMadeByItsAttach(@Autowired Namespace namespace) {
        await().atMost(WAIT).until(() -> namespace.subscriptionNames("events").contains(SUBSCRIPTION));
        publish("first");
        await().atMost(WAIT).until(() -> audit.seen.contains("first"));
    }

    @Test
    @Order(2)
    void theNextTestsNamespaceHasItAtOnceEmpty(@Autowired Namespace namespace) {
        assertEquals(List.of(SUBSCRIPTION), namespace.subscriptionNames("events"));
        assertEquals(
                0,
                namespace
                        .runtimeInfo(EntityPath.subscription("events", SUBSCRIPTION))
                        .totalMessageCount());
        publish("second");
        await().atMost(WAIT).until(() -> audit.seen.contains("second"));
        assertTrue(audit.seen.containsAll(List.of("first", "second")), audit.seen.toString());
    }

    private void publish(String text) {
        jms.execute(
                session -> {
                    try (MessageProducer producer = session.createProducer(session.createTopic("events"))) {
                        producer.send(session.createTextMessage(text));
                    }
                    return null;
                },
                true);
    }
}
