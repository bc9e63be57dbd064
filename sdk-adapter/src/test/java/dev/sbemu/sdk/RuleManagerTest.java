package dev.sbemu.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.azure.core.amqp.exception.AmqpErrorCondition;
import com.azure.core.amqp.exception.AmqpException;
import com.azure.messaging.servicebus.ServiceBusException;
import com.azure.messaging.servicebus.ServiceBusFailureReason;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusRuleManagerAsyncClient;
import com.azure.messaging.servicebus.ServiceBusRuleManagerClient;
import com.azure.messaging.servicebus.administration.models.CorrelationRuleFilter;
import com.azure.messaging.servicebus.administration.models.CreateRuleOptions;
import com.azure.messaging.servicebus.administration.models.EmptyRuleAction;
import com.azure.messaging.servicebus.administration.models.FalseRuleFilter;
import com.azure.messaging.servicebus.administration.models.RuleProperties;
import com.azure.messaging.servicebus.administration.models.SqlRuleAction;
import com.azure.messaging.servicebus.administration.models.SqlRuleFilter;
import com.azure.messaging.servicebus.administration.models.TrueRuleFilter;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.RuleDescription;
import dev.sbemu.core.filter.CorrelationFilter;
import dev.sbemu.core.filter.SqlFilter;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The rule manager clients over the core's rules (RUL-1..7). */
class RuleManagerTest {
    private static final Duration BLOCK = Duration.ofSeconds(10);

    private Namespace ns;
    private EmulatorClients clients;
    private ServiceBusRuleManagerClient rules;

    @BeforeEach
    void setUp() {
        ns = Namespace.create();
        ns.createTopic("t");
        ns.createSubscription("t", "s");
        clients = EmulatorClients.of(ns);
        rules = clients.ruleManager("t", "s");
    }

    @AfterEach
    void tearDown() {
        clients.close();
        ns.close();
    }

    private List<RuleProperties> list() {
        return rules.listRules().stream().collect(Collectors.toList());
    }

    @Test
    @DisplayName("RUL-1 a new subscription lists $Default with a true filter and (on the AMQP path) no action")
    void defaultRule() {
        assertEquals("t/subscriptions/s", rules.getEntityPath());
        assertEquals(EmulatorClients.FULLY_QUALIFIED_NAMESPACE, rules.getFullyQualifiedNamespace());
        List<RuleProperties> listed = list();
        assertEquals(1, listed.size());
        assertEquals("$Default", listed.get(0).getName());
        assertInstanceOf(TrueRuleFilter.class, listed.get(0).getFilter());
        assertNull(listed.get(0).getAction());
    }

    @Test
    @DisplayName("RUL-2 RUL-4 a SQL rule with an action is created in the core, listed back, and filters messages")
    void sqlRule() {
        rules.deleteRule("$Default");
        rules.createRule(
                "red",
                new CreateRuleOptions(new SqlRuleFilter("color = 'red'"))
                        .setAction(new SqlRuleAction("SET tagged = 'yes'")));
        RuleDescription core = ns.getRule("t", "s", "red");
        assertEquals(SqlFilter.parse("color = 'red'"), core.filter());
        assertEquals("SET tagged = 'yes'", core.action().expression());
        RuleProperties listed = list().get(0);
        assertEquals("red", listed.getName());
        assertEquals("color = 'red'", ((SqlRuleFilter) listed.getFilter()).getSqlExpression());
        assertEquals("SET tagged = 'yes'", ((SqlRuleAction) listed.getAction()).getSqlExpression());

        var sender = clients.sender("t");
        ServiceBusMessage red = new ServiceBusMessage("r");
        red.getApplicationProperties().put("color", "red");
        ServiceBusMessage blue = new ServiceBusMessage("b");
        blue.getApplicationProperties().put("color", "blue");
        sender.sendMessage(red);
        sender.sendMessage(blue);
        List<ServiceBusReceivedMessage> got = clients
                .receiver(EntityPath.subscription("t", "s"), ServiceBusReceiveMode.RECEIVE_AND_DELETE)
                .receiveMessages(10, Duration.ofMillis(50))
                .stream()
                .collect(Collectors.toList());
        assertEquals(1, got.size());
        assertEquals("yes", got.get(0).getApplicationProperties().get("tagged"));
        assertEquals("red", got.get(0).getApplicationProperties().get("RuleName"));
    }

    @Test
    @DisplayName("RUL-3 correlation, true and false filters map both ways")
    void otherFilters() {
        CorrelationRuleFilter correlation = new CorrelationRuleFilter()
                .setCorrelationId("c1")
                .setLabel("subject")
                .setContentType("text/plain")
                .setSessionId("s1");
        correlation.getProperties().put("region", "eu");
        correlation.getProperties().put("priority", 5);
        rules.createRule("corr", new CreateRuleOptions(correlation));
        rules.createRule("none", new CreateRuleOptions(new FalseRuleFilter()));
        rules.createRule("all", new CreateRuleOptions());
        CorrelationFilter core =
                (CorrelationFilter) ns.getRule("t", "s", "corr").filter();
        assertEquals("c1", core.correlationId());
        assertEquals("subject", core.subject());
        assertEquals(Map.of("region", "eu", "priority", 5), core.properties());
        Map<String, RuleProperties> listed = list().stream().collect(Collectors.toMap(RuleProperties::getName, r -> r));
        CorrelationRuleFilter back = (CorrelationRuleFilter) listed.get("corr").getFilter();
        assertEquals("c1", back.getCorrelationId());
        assertEquals("subject", back.getLabel());
        assertEquals("text/plain", back.getContentType());
        assertEquals("s1", back.getSessionId());
        // the SDK's decoder passes the filter through its admin model, which keeps property values as strings
        assertEquals(Map.of("region", "eu", "priority", "5"), back.getProperties());
        assertInstanceOf(FalseRuleFilter.class, listed.get("none").getFilter());
        assertInstanceOf(TrueRuleFilter.class, listed.get("all").getFilter());
    }

    @Test
    @DisplayName("RUL-3 correlation properties of every AMQP type reach the core typed; the SDK lists them as strings")
    void typedCorrelationProperties() {
        UUID id = UUID.fromString("00000000-0000-0000-0000-000000000001");
        Map<String, Object> typed = new LinkedHashMap<>();
        typed.put("int", 5);
        typed.put("long", 5L);
        typed.put("short", (short) 5);
        typed.put("byte", (byte) 5);
        typed.put("double", 5.5);
        typed.put("float", 5.5f);
        typed.put("boolean", true);
        typed.put("char", 'c');
        typed.put("uuid", id);
        typed.put("date", new Date(0L));
        CorrelationRuleFilter correlation = new CorrelationRuleFilter();
        correlation.getProperties().putAll(typed);
        rules.createRule("typed", new CreateRuleOptions(correlation));

        assertEquals(typed, ((CorrelationFilter) ns.getRule("t", "s", "typed").filter()).properties());
        Map<String, Object> listed = ((CorrelationRuleFilter) list().stream()
                        .filter(r -> r.getName().equals("typed"))
                        .findFirst()
                        .orElseThrow()
                        .getFilter())
                .getProperties();
        typed.forEach((name, value) -> assertEquals(String.valueOf(value), listed.get(name), name));

        CorrelationRuleFilter dated = new CorrelationRuleFilter();
        dated.getProperties().put("when", OffsetDateTime.parse("2030-01-01T00:00:00Z"));
        assertThrows(
                RuntimeException.class,
                () -> rules.createRule("dated", new CreateRuleOptions(dated)),
                "AMQP has no encoding for java.time types (proton-j's encoder refuses them)");
    }

    @Test
    @DisplayName("RUL-2 a malformed SQL filter is refused as the service refuses it (argument-error)")
    void badFilter() {
        ServiceBusException e = assertThrows(
                ServiceBusException.class,
                () -> rules.createRule("bad", new CreateRuleOptions(new SqlRuleFilter("color = = 'red'"))));
        assertEquals(ServiceBusFailureReason.GENERAL_ERROR, e.getReason());
        AmqpException cause = assertInstanceOf(AmqpException.class, e.getCause());
        assertEquals(AmqpErrorCondition.ARGUMENT_ERROR, cause.getErrorCondition());
        assertThrows(
                ServiceBusException.class,
                () -> rules.createRule("bad", new CreateRuleOptions().setAction(new SqlRuleAction("SET"))));
        assertEquals(1, list().size());
    }

    @Test
    @DisplayName("RUL-1 duplicate and missing rules, and the SDK's own argument checks")
    void errors() {
        ServiceBusException duplicate =
                assertThrows(ServiceBusException.class, () -> rules.createRule("$Default", new CreateRuleOptions()));
        assertEquals(ServiceBusFailureReason.MESSAGING_ENTITY_ALREADY_EXISTS, duplicate.getReason());
        ServiceBusException missing = assertThrows(ServiceBusException.class, () -> rules.deleteRule("nope"));
        assertEquals(ServiceBusFailureReason.MESSAGING_ENTITY_NOT_FOUND, missing.getReason());
        IllegalArgumentException empty = assertThrows(
                IllegalArgumentException.class,
                () -> rules.createRule("x", new CreateRuleOptions().setAction(new EmptyRuleAction())));
        assertEquals("This API supports the addition of only filters with SqlRuleActions.", empty.getMessage());
        assertThrows(NullPointerException.class, () -> rules.createRule("x", null));
        assertThrows(NullPointerException.class, () -> rules.createRule(null, new CreateRuleOptions()));
        assertThrows(IllegalArgumentException.class, () -> rules.deleteRule(""));
        ServiceBusException noSubscription = assertThrows(
                ServiceBusException.class,
                () -> clients.ruleManager("t", "gone").listRules().stream().count());
        assertEquals(ServiceBusFailureReason.MESSAGING_ENTITY_NOT_FOUND, noSubscription.getReason());
        rules.close();
        IllegalStateException closed = assertThrows(IllegalStateException.class, () -> rules.deleteRule("x"));
        // the SDK's message: its properties file lacks this key, so the key itself is the message
        assertEquals("INVALID_OPERATION_DISPOSED_RULE_MANAGER", closed.getMessage());
    }

    @Test
    @DisplayName("RUL-1 the async rule manager creates, lists and deletes")
    void async() {
        ServiceBusRuleManagerAsyncClient async = clients.ruleManagerAsync("t", "s");
        async.createRule("sql", new CreateRuleOptions(new SqlRuleFilter("n > 1")))
                .block(BLOCK);
        assertEquals(
                List.of("$Default", "sql"),
                async.listRules().map(RuleProperties::getName).collectList().block(BLOCK));
        async.deleteRule("sql").block(BLOCK);
        assertEquals(1, async.listRules().count().block(BLOCK));
        async.close();
        assertThrows(IllegalStateException.class, () -> async.listRules().blockFirst(BLOCK));
    }
}
