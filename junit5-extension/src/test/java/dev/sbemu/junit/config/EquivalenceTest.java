package dev.sbemu.junit.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sbemu.core.config.EmulatorConfig;
import dev.sbemu.core.config.Topology;
import dev.sbemu.junit.CorrelationFilter;
import dev.sbemu.junit.Property;
import dev.sbemu.junit.Queue;
import dev.sbemu.junit.Rule;
import dev.sbemu.junit.ServiceBusEmulator;
import dev.sbemu.junit.Subscription;
import dev.sbemu.junit.Topic;
import dev.sbemu.junit.internal.AnnotationTopology;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class EquivalenceTest {

    @ServiceBusEmulator(
            queues = {
                @Queue(
                        name = "queue.1",
                        defaultMessageTimeToLive = "PT1H",
                        duplicateDetectionHistoryTimeWindow = "PT20S",
                        lockDuration = "PT1M",
                        maxDeliveryCount = 3),
                @Queue(
                        name = "queue.2",
                        deadLetteringOnMessageExpiration = true,
                        defaultMessageTimeToLive = "PT10M",
                        duplicateDetectionHistoryTimeWindow = "PT5M",
                        forwardDeadLetteredMessagesTo = "queue.1",
                        lockDuration = "PT30S",
                        maxDeliveryCount = 5,
                        requiresDuplicateDetection = true,
                        requiresSession = true)
            },
            topics =
                    @Topic(
                            name = "topic.1",
                            defaultMessageTimeToLive = "PT1H",
                            duplicateDetectionHistoryTimeWindow = "PT20S",
                            subscriptions = {
                                @Subscription(
                                        name = "subscription.1",
                                        defaultMessageTimeToLive = "PT1H",
                                        lockDuration = "PT1M",
                                        maxDeliveryCount = 3,
                                        rules =
                                                @Rule(
                                                        name = "app-prop-filter-1",
                                                        correlation =
                                                                @CorrelationFilter(
                                                                        contentType = "application/text",
                                                                        correlationId = "id1",
                                                                        subject = "subject1",
                                                                        messageId = "msgid1",
                                                                        replyTo = "someQueue",
                                                                        replyToSessionId = "sessionId",
                                                                        sessionId = "session1",
                                                                        to = "xyz"))),
                                @Subscription(
                                        name = "subscription.2",
                                        defaultMessageTimeToLive = "PT1H",
                                        lockDuration = "PT1M",
                                        maxDeliveryCount = 3,
                                        rules =
                                                @Rule(
                                                        name = "user-prop-filter-1",
                                                        correlation =
                                                                @CorrelationFilter(
                                                                        properties = {
                                                                            @Property(name = "prop3", value = "value3"),
                                                                            @Property(
                                                                                    name = "priority",
                                                                                    value = "5",
                                                                                    type = Property.Type.LONG),
                                                                            @Property(
                                                                                    name = "urgent",
                                                                                    value = "true",
                                                                                    type = Property.Type.BOOLEAN)
                                                                        }))),
                                @Subscription(
                                        name = "subscription.3",
                                        defaultMessageTimeToLive = "PT1H",
                                        lockDuration = "PT1M",
                                        maxDeliveryCount = 3,
                                        rules =
                                                @Rule(
                                                        name = "sql-filter-1",
                                                        sql = "sys.MessageId = '123456' AND userProp1 = 'value1'",
                                                        action = "SET sys.To = 'Entity'")),
                                @Subscription(name = "subscription.4", forwardTo = "queue.1")
                            }))
    static class SameAsTheSample {}

    @Test
    @DisplayName("CFG-1 Microsoft's documented Config.json loads into the same topology as the equivalent annotations")
    void sampleEqualsAnnotations() {
        Topology fromFile =
                EmulatorConfig.load("classpath:config/microsoft-sample.json").topology();
        Topology fromAnnotations = AnnotationTopology.of(
                SameAsTheSample.class.getAnnotation(ServiceBusEmulator.class),
                "@ServiceBusEmulator on SameAsTheSample");

        assertEquals(Topologies.withoutOrigins(fromAnnotations), Topologies.withoutOrigins(fromFile));
        assertEquals(
                Topologies.describe(Topologies.namespaceOf(fromAnnotations)),
                Topologies.describe(Topologies.namespaceOf(fromFile)));
    }
}
