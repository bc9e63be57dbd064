package dev.sbemu.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.sbemu.junit.fixtures.MisuseFixtures;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ParameterResolutionException;

/** Misuse fails the test with an exact message that says what is wrong and what to do. */
class MisuseTest {
    private static final String FIXTURES = "dev.sbemu.junit.fixtures.MisuseFixtures.";
    private static final String INJECTABLE = "@ServiceBusEmulator injects, with @Entity: ServiceBusSenderClient, "
            + "ServiceBusSenderAsyncClient, ServiceBusReceiverClient, ServiceBusReceiverAsyncClient, "
            + "ServiceBusSessionReceiverClient, ServiceBusSessionReceiverAsyncClient, ServiceBusRuleManagerClient, "
            + "ServiceBusRuleManagerAsyncClient; without @Entity: VirtualClock, Clock, Namespace, Journal, "
            + "EmulatorClients, ServiceBusAdministrationClient, ServiceBusAdministrationAsyncClient, "
            + "ServiceBusEmulatorServer; a String with @ConnectionString.";

    private static Throwable failureOf(Class<?> fixture) {
        return Kit.failure(Kit.run(fixture));
    }

    private static void assertParameterError(Class<?> fixture, String message) {
        Throwable failure = failureOf(fixture);
        assertInstanceOf(ParameterResolutionException.class, failure);
        assertEquals(message, failure.getMessage());
    }

    private static void assertConfigurationError(Class<?> fixture, String message) {
        Throwable failure = failureOf(fixture);
        assertInstanceOf(ExtensionConfigurationException.class, failure);
        assertEquals(message, failure.getMessage());
    }

    @Test
    @DisplayName("@Entity on a parameter of a class without @ServiceBusEmulator says to add it")
    void entityWithoutEmulator() {
        assertConfigurationError(
                MisuseFixtures.EntityWithoutEmulator.class,
                "@Entity and @Emulated need "
                        + "@ServiceBusEmulator on the test class: annotate EntityWithoutEmulator with @ServiceBusEmulator "
                        + "(declaring its entities, e.g. @ServiceBusEmulator(queues = @Queue(name = \"orders\")))");
    }

    @Test
    @DisplayName("@Emulated on a field of a class without @ServiceBusEmulator says to add it")
    void emulatedFieldWithoutEmulator() {
        assertConfigurationError(
                MisuseFixtures.EmulatedFieldWithoutEmulator.class,
                "@Entity and @Emulated need "
                        + "@ServiceBusEmulator on the test class: annotate EmulatedFieldWithoutEmulator with "
                        + "@ServiceBusEmulator (declaring its entities, e.g. @ServiceBusEmulator(queues = "
                        + "@Queue(name = \"orders\")))");
    }

    @Test
    @DisplayName("an unannotated VirtualClock or client field, still null when the test starts, says how to mark it")
    void unmarkedFields() {
        assertConfigurationError(
                MisuseFixtures.UnmarkedFields.class,
                "field [VirtualClock clock] of UnmarkedFields "
                        + "is null: @ServiceBusEmulator fills only fields marked for it; annotate it with @Emulated (or set it "
                        + "in a @BeforeEach method)");
        assertConfigurationError(
                MisuseFixtures.UnmarkedClientField.class,
                "field [ServiceBusSenderClient sender] of "
                        + "UnmarkedClientField is null: @ServiceBusEmulator fills only fields marked for it; annotate it with "
                        + "@Entity naming its queue or topic, e.g. @Entity(\"orders\") (or set it in a @BeforeEach method)");
        Kit.run(MisuseFixtures.FieldsSetByTheTest.class)
                .testEvents()
                .assertStatistics(s -> s.succeeded(1).failed(0));
    }

    @Test
    @DisplayName("an unknown queue or topic names the known ones")
    void unknownQueue() {
        assertParameterError(
                MisuseFixtures.UnknownQueue.class,
                "Cannot inject parameter [ServiceBusSenderClient "
                        + "sender] of UnknownQueue.test(...): the emulated namespace has no queue or topic 'ordrs'; its "
                        + "queues: [orders]; its topics: [events]");
    }

    @Test
    @DisplayName("an unknown subscription names the topic's subscriptions")
    void unknownSubscription() {
        assertParameterError(
                MisuseFixtures.UnknownSubscription.class,
                "Cannot inject parameter "
                        + "[ServiceBusReceiverClient receiver] of UnknownSubscription.test(...): topic 'events' has no "
                        + "subscription 'audti'; its subscriptions: [audit, billing]");
    }

    @Test
    @DisplayName("a receiver on a topic is told to name a subscription")
    void receiverOnTopic() {
        assertParameterError(
                MisuseFixtures.ReceiverOnTopic.class,
                "Cannot inject parameter [ServiceBusReceiverClient "
                        + "receiver] of ReceiverOnTopic.test(...): 'events' is a topic: receive from one of its subscriptions, "
                        + "e.g. @Entity(value = \"events\", subscription = \"audit\"); its subscriptions: [audit]");
    }

    @Test
    @DisplayName("a session receiver on an entity without sessions")
    void sessionReceiverWithoutSessions() {
        assertParameterError(
                MisuseFixtures.ReceiverOnSessionQueue.class,
                "Cannot inject parameter "
                        + "[ServiceBusSessionReceiverClient receiver] of ReceiverOnSessionQueue.test(...): 'orders' is not "
                        + "session-enabled; inject a ServiceBusReceiverClient, or declare the entity with requiresSession = true");
    }

    @Test
    @DisplayName("a malformed duration names the attribute and the value")
    void malformedDuration() {
        assertConfigurationError(
                MisuseFixtures.MalformedDuration.class,
                "@Queue(name = \"orders\").lockDuration = "
                        + "\"10 minutes\" in @ServiceBusEmulator on " + FIXTURES
                        + "MalformedDuration is not an ISO-8601 "
                        + "duration such as \"PT30S\", \"PT10M\", \"PT1H\" or \"P1D\" (\"\" for the service default)");
    }

    @Test
    @DisplayName("an attribute given two values names it and asks for one")
    void twoValues() {
        assertConfigurationError(
                MisuseFixtures.TwoValues.class,
                "@Subscription(name = \"audit\") of @Topic(name = "
                        + "\"events\").requiresSession = {true, false} in @ServiceBusEmulator on " + FIXTURES
                        + "TwoValues has 2 "
                        + "values: give one, or none for the service default");
    }

    @Test
    @DisplayName("a value the service rejects names the property, the value and the allowed range")
    void rejectedByTheCore() {
        assertConfigurationError(
                MisuseFixtures.RejectedLockDuration.class,
                "@Queue(name = \"orders\").lockDuration "
                        + "in @ServiceBusEmulator on " + FIXTURES
                        + "RejectedLockDuration: Invalid lockDuration 'PT10M': must "
                        + "be between PT5S and PT5M.");
        assertConfigurationError(
                MisuseFixtures.MissingForwardTarget.class,
                "@Queue(name = \"orders\").forwardTo in "
                        + "@ServiceBusEmulator on " + FIXTURES
                        + "MissingForwardTarget: Invalid forwardTo 'nowhere': the "
                        + "destination must be an existing queue or topic.");
    }

    @Test
    @DisplayName("a malformed startAt")
    void malformedStartAt() {
        assertConfigurationError(
                MisuseFixtures.MalformedStartAt.class,
                "startAt = \"2024-01-01\" in "
                        + "@ServiceBusEmulator on " + FIXTURES + "MalformedStartAt is not an ISO-8601 instant such as "
                        + "\"2024-01-01T00:00:00Z\" (\"\" for the wall-clock now)");
    }

    @Test
    @DisplayName("a type that cannot be injected lists the types that can")
    void unsupportedTypes() {
        assertParameterError(
                MisuseFixtures.UnsupportedTypeWithEntity.class,
                "Cannot inject parameter [String name] "
                        + "of UnsupportedTypeWithEntity.test(...): java.lang.String is not injectable. " + INJECTABLE);
        assertParameterError(
                MisuseFixtures.ProcessorParameter.class,
                "Cannot inject parameter "
                        + "[ServiceBusProcessorClient processor] of ProcessorParameter.test(...): "
                        + "com.azure.messaging.servicebus.ServiceBusProcessorClient is not injectable. Build processors with "
                        + "the injected EmulatorClients: clients.processor(EntityPath.queue(\"orders\"), "
                        + "ProcessorOptions.of(onMessage, onError)); they are closed after the test. " + INJECTABLE);
    }

    @Test
    @DisplayName("a type nothing of sbemu's serves, marked @Entity, lists the types that can be injected")
    void unsupportedTypeMarkedEntity() {
        assertParameterError(
                MisuseFixtures.ExecutorServiceWithEntity.class,
                "Cannot inject parameter "
                        + "[ExecutorService executor] of ExecutorServiceWithEntity.test(...): "
                        + "java.util.concurrent.ExecutorService is not injectable. " + INJECTABLE);
        Throwable field = failureOf(MisuseFixtures.ExecutorServiceFieldWithEntity.class);
        assertEquals(
                "Cannot inject field [ExecutorService executor] of ExecutorServiceFieldWithEntity: "
                        + "java.util.concurrent.ExecutorService is not injectable. " + INJECTABLE,
                field.getMessage(),
                field::toString);
    }

    @Test
    @DisplayName("@Entity is required on clients and refused elsewhere")
    void entityAnnotation() {
        assertParameterError(
                MisuseFixtures.SenderWithoutEntity.class,
                "Cannot inject parameter "
                        + "[ServiceBusSenderClient sender] of SenderWithoutEntity.test(...): a ServiceBusSenderClient needs "
                        + "@Entity naming its queue or topic, e.g. @Entity(\"orders\") or @Entity(value = \"events\", "
                        + "subscription = \"audit\")");
        assertParameterError(
                MisuseFixtures.ClockWithEntity.class,
                "Cannot inject parameter [VirtualClock clock] of "
                        + "ClockWithEntity.test(...): VirtualClock takes no @Entity; remove it");
    }

    @Test
    @DisplayName("fields: static ones need PER_CLASS, final ones cannot be set")
    void fields() {
        assertConfigurationError(
                MisuseFixtures.StaticFieldPerMethod.class,
                "Cannot inject field [VirtualClock clock] "
                        + "of StaticFieldPerMethod: it is static, and @ServiceBusEmulator creates a namespace per test method "
                        + "(lifecycle = PER_METHOD); make the field an instance field, or declare "
                        + "@ServiceBusEmulator(lifecycle = Lifecycle.PER_CLASS)");
        assertConfigurationError(
                MisuseFixtures.FinalField.class,
                "Cannot inject field [VirtualClock clock] of " + "FinalField: it is final");
    }

    @Test
    @DisplayName("outside a test method, PER_METHOD has no namespace to inject")
    void outsideTestMethod() {
        String perMethod = "@ServiceBusEmulator creates a namespace per test method (lifecycle = PER_METHOD), and "
                + "this runs outside a test method; declare @ServiceBusEmulator(lifecycle = Lifecycle.PER_CLASS) to "
                + "share one namespace across the class";
        assertParameterError(
                MisuseFixtures.BeforeAllPerMethod.class,
                "Cannot inject parameter [Namespace namespace] " + "of BeforeAllPerMethod.beforeAll(...): "
                        + perMethod);
        assertParameterError(
                MisuseFixtures.ConstructorOfPerClassInstance.class,
                "Cannot inject parameter "
                        + "[VirtualClock clock] of the constructor of ConstructorOfPerClassInstance: " + perMethod);
    }

    @Test
    @DisplayName("a malformed rule names the rule, the attribute, the text and the syntax error")
    void malformedRule() {
        assertConfigurationError(
                MisuseFixtures.MalformedSqlRule.class,
                "@Rule(name = \"red\") of @Subscription(name = "
                        + "\"audit\") of @Topic(name = \"events\").sql in @ServiceBusEmulator on " + FIXTURES
                        + "MalformedSqlRule: 'color = ': Syntax error at position 8 at the end of the text: expected an expression");
        assertConfigurationError(
                MisuseFixtures.TwoFilters.class,
                "@Rule(name = \"red\") of @Subscription(name = "
                        + "\"audit\") of @Topic(name = \"events\") in @ServiceBusEmulator on " + FIXTURES
                        + "TwoFilters sets "
                        + "both sql and correlation: a rule has one filter, set one of them");
    }
}
