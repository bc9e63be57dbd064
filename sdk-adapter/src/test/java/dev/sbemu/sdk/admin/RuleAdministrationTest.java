package dev.sbemu.sdk.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.exception.HttpResponseException;
import com.azure.core.exception.ResourceExistsException;
import com.azure.core.exception.ResourceNotFoundException;
import com.azure.messaging.servicebus.administration.models.CorrelationRuleFilter;
import com.azure.messaging.servicebus.administration.models.CreateRuleOptions;
import com.azure.messaging.servicebus.administration.models.CreateSubscriptionOptions;
import com.azure.messaging.servicebus.administration.models.EmptyRuleAction;
import com.azure.messaging.servicebus.administration.models.FalseRuleFilter;
import com.azure.messaging.servicebus.administration.models.RuleProperties;
import com.azure.messaging.servicebus.administration.models.SqlRuleAction;
import com.azure.messaging.servicebus.administration.models.SqlRuleFilter;
import com.azure.messaging.servicebus.administration.models.TrueRuleFilter;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Message;
import dev.sbemu.core.ReceiveMode;
import dev.sbemu.core.RuleDescription;
import dev.sbemu.core.filter.CorrelationFilter;
import dev.sbemu.core.filter.FalseFilter;
import dev.sbemu.core.filter.SqlFilter;
import dev.sbemu.core.filter.TrueFilter;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class RuleAdministrationTest extends AdminFixture {

    @BeforeEach
    void topology() {
        admin.createTopic("orders");
        admin.createSubscription("orders", "eu");
    }

    private long active(String subscription) {
        return namespace
                .runtimeInfo(EntityPath.subscription("orders", subscription))
                .activeMessageCount();
    }

    private void send(String region) {
        namespace.send(
                "orders",
                Message.builder()
                        .body("o")
                        .applicationProperty("region", region)
                        .build());
    }

    // Note: the synchronous four-argument createRule takes (topic, ruleName, subscriptionName, options).

    @Test
    @DisplayName("RUL-1 a new subscription lists its $Default rule with a true filter")
    void defaultRule() {
        List<RuleProperties> rules = admin.listRules("orders", "eu").stream().collect(Collectors.toList());
        assertEquals(1, rules.size());
        assertEquals("$Default", rules.get(0).getName());
        assertInstanceOf(TrueRuleFilter.class, rules.get(0).getFilter());
        assertInstanceOf(EmptyRuleAction.class, rules.get(0).getAction());
        assertInstanceOf(
                TrueRuleFilter.class, admin.getRule("orders", "eu", "$Default").getFilter());
    }

    @Test
    @DisplayName("RUL-2 RUL-4 a SQL filter and action reach the core, come back, and route messages")
    void sqlRule() {
        admin.deleteRule("orders", "eu", "$Default");
        RuleProperties created = admin.createRule(
                "orders",
                "european",
                "eu",
                new CreateRuleOptions(new SqlRuleFilter("region = 'eu'"))
                        .setAction(new SqlRuleAction("SET tagged = 1")));
        assertEquals("european", created.getName());
        assertEquals("region = 'eu'", ((SqlRuleFilter) created.getFilter()).getSqlExpression());
        assertEquals("SET tagged = 1", ((SqlRuleAction) created.getAction()).getSqlExpression());

        RuleDescription core = namespace.getRule("orders", "eu", "european");
        assertEquals(SqlFilter.parse("region = 'eu'"), core.filter());
        assertEquals("SET tagged = 1", core.action().expression());

        send("eu");
        send("us");
        assertEquals(1, active("eu"));
    }

    @Test
    @DisplayName("RUL-3 a correlation filter's fields reach the core; the SDK sends property values as strings")
    void correlationRule() {
        CorrelationRuleFilter filter = new CorrelationRuleFilter()
                .setCorrelationId("c")
                .setMessageId("m")
                .setTo("to")
                .setReplyTo("r")
                .setLabel("l")
                .setSessionId("s")
                .setReplyToSessionId("rs")
                .setContentType("application/json");
        filter.getProperties().put("region", "eu");
        filter.getProperties().put("priority", 5);
        admin.createRule("orders", "correlated", "eu", new CreateRuleOptions(filter));

        CorrelationRuleFilter back = (CorrelationRuleFilter)
                admin.getRule("orders", "eu", "correlated").getFilter();
        assertEquals("c", back.getCorrelationId());
        assertEquals("m", back.getMessageId());
        assertEquals("to", back.getTo());
        assertEquals("r", back.getReplyTo());
        assertEquals("l", back.getLabel());
        assertEquals("s", back.getSessionId());
        assertEquals("rs", back.getReplyToSessionId());
        assertEquals("application/json", back.getContentType());
        assertEquals(Map.of("region", "eu", "priority", "5"), back.getProperties());

        CorrelationFilter core = (CorrelationFilter)
                namespace.getRule("orders", "eu", "correlated").filter();
        assertEquals(
                new CorrelationFilter(
                        "c",
                        "m",
                        "to",
                        "r",
                        "l",
                        "s",
                        "rs",
                        "application/json",
                        Map.of("region", "eu", "priority", "5")),
                core);
    }

    @Test
    @DisplayName("RUL-3 true and false filters")
    void trueAndFalse() {
        admin.createRule("orders", "never", "eu", new CreateRuleOptions(new FalseRuleFilter()));
        admin.createRule("orders", "always", "eu", new CreateRuleOptions(new TrueRuleFilter()));
        assertInstanceOf(
                FalseRuleFilter.class, admin.getRule("orders", "eu", "never").getFilter());
        assertEquals(
                new FalseFilter(), namespace.getRule("orders", "eu", "never").filter());
        assertEquals(
                new TrueFilter(), namespace.getRule("orders", "eu", "always").filter());
        assertEquals(
                List.of("$Default", "never", "always"),
                admin.listRules("orders", "eu").stream()
                        .map(RuleProperties::getName)
                        .collect(Collectors.toList()));
    }

    @Test
    @DisplayName("updateRule replaces filter and action; deleteRule removes the rule")
    void updateAndDelete() {
        admin.createRule("orders", "r", "eu", new CreateRuleOptions(new SqlRuleFilter("region = 'eu'")));
        RuleProperties rule = admin.getRule("orders", "eu", "r");
        rule.setFilter(new SqlRuleFilter("region = 'us'"));
        rule.setAction(new SqlRuleAction("SET seen = TRUE"));
        RuleProperties updated = admin.updateRule("orders", "eu", rule);
        assertEquals("region = 'us'", ((SqlRuleFilter) updated.getFilter()).getSqlExpression());
        assertEquals(
                SqlFilter.parse("region = 'us'"),
                namespace.getRule("orders", "eu", "r").filter());
        assertEquals(
                "SET seen = TRUE",
                namespace.getRule("orders", "eu", "r").action().expression());

        admin.deleteRule("orders", "eu", "r");
        assertThrows(ResourceNotFoundException.class, () -> admin.getRule("orders", "eu", "r"));
        assertEquals(
                List.of("$Default"),
                namespace.listRules("orders", "eu").stream()
                        .map(RuleDescription::name)
                        .collect(Collectors.toList()));
    }

    @Test
    @DisplayName("LIM-3 rules: 409 for an existing name, 404 for unknown rule, subscription or topic")
    void errors() {
        ResourceExistsException exists =
                assertThrows(ResourceExistsException.class, () -> admin.createRule("orders", "eu", "$Default"));
        assertTrue(exists.getMessage().contains("$Default"), exists.getMessage());
        assertThrows(ResourceNotFoundException.class, () -> admin.getRule("orders", "eu", "nope"));
        assertThrows(ResourceNotFoundException.class, () -> admin.deleteRule("orders", "eu", "nope"));
        assertThrows(ResourceNotFoundException.class, () -> admin.createRule("orders", "nope", "r"));
        assertThrows(
                ResourceNotFoundException.class,
                () -> admin.listRules("nope", "eu").stream().count());
    }

    @Test
    @DisplayName("RUL-2 LIM-3 a malformed SQL filter is a 400 with the position; nothing is created")
    void malformedSql() {
        HttpResponseException e = assertBadRequest(
                () -> admin.createRule("orders", "bad", "eu", new CreateRuleOptions(new SqlRuleFilter("region = "))),
                "Invalid SQL expression",
                "position");
        assertEquals(1, namespace.listRules("orders", "eu").size(), e.getMessage());
        assertBadRequest(
                () -> admin.createRule(
                        "orders",
                        "bad-action",
                        "eu",
                        new CreateRuleOptions(new SqlRuleFilter("1=1")).setAction(new SqlRuleAction("SET"))),
                "position");
    }

    @Test
    @DisplayName("RUL-7 an empty filter or action text is rejected")
    void emptyText() {
        assertBadRequest(
                () -> admin.createRule("orders", "empty", "eu", new CreateRuleOptions(new SqlRuleFilter(" "))),
                "empty SqlExpression");
        assertBadRequest(
                () -> admin.createRule(
                        "orders",
                        "empty",
                        "eu",
                        new CreateRuleOptions(new SqlRuleFilter("1=1")).setAction(new SqlRuleAction(" "))),
                "empty SqlExpression");
    }

    @Test
    @DisplayName("LIM-2 rule names: at most 50 characters")
    void names() {
        admin.createRule("orders", "eu", "r".repeat(50));
        assertBadRequest(() -> admin.createRule("orders", "eu", "r".repeat(51)), "rule name", "50");
    }

    @Test
    @DisplayName("RUL-9 SQL filter and action parameters are stored, returned and used: the SDK sends them as strings")
    void parameters() {
        SqlRuleFilter filter = new SqlRuleFilter("region = @region AND size > @size");
        filter.getParameters().put("@region", "eu");
        filter.getParameters().put("@size", 5);
        SqlRuleAction action = new SqlRuleAction("SET tier = @tier");
        action.getParameters().put("@tier", "gold");
        admin.createRule("orders", "p", "eu", new CreateRuleOptions(filter).setAction(action));

        RuleProperties back = admin.getRule("orders", "eu", "p");
        assertEquals(Map.of("@region", "eu", "@size", "5"), ((SqlRuleFilter) back.getFilter()).getParameters());
        assertEquals(Map.of("@tier", "gold"), ((SqlRuleAction) back.getAction()).getParameters());
        assertEquals(
                Map.of("@region", "eu", "@size", "5"),
                ((SqlFilter) namespace.getRule("orders", "eu", "p").filter()).parameters());

        admin.deleteRule("orders", "eu", "$Default");
        namespace.send(
                "orders",
                Message.builder()
                        .body("o")
                        .applicationProperty("region", "eu")
                        .applicationProperty("size", "7")
                        .build());
        namespace.send(
                "orders",
                Message.builder()
                        .body("o")
                        .applicationProperty("region", "us")
                        .applicationProperty("size", "7")
                        .build());
        assertEquals(1, active("eu"), "the filter compared with the parameters' values");
        assertEquals(
                "gold",
                namespace
                        .receive(EntityPath.subscription("orders", "eu"), ReceiveMode.RECEIVE_AND_DELETE, 1)
                        .get(0)
                        .message()
                        .applicationProperties()
                        .get("tier"));
    }

    @Test
    @DisplayName("RUL-9 an expression using a parameter without a value is refused with 400 naming it")
    void missingParameter() {
        assertBadRequest(
                () -> admin.createRule(
                        "orders", "p", "eu", new CreateRuleOptions(new SqlRuleFilter("region = @region"))),
                "@region");
    }

    @Test
    @DisplayName("CFG-1 createSubscription with a rule: the subscription has exactly that rule")
    void subscriptionWithRule() {
        admin.createSubscription(
                "orders",
                "us",
                "american",
                new CreateSubscriptionOptions().setMaxDeliveryCount(3),
                new CreateRuleOptions(new SqlRuleFilter("region = 'us'")).setAction(new SqlRuleAction("SET x = 1")));
        List<RuleDescription> rules = namespace.listRules("orders", "us");
        assertEquals(1, rules.size());
        assertEquals("american", rules.get(0).name());
        assertEquals(SqlFilter.parse("region = 'us'"), rules.get(0).filter());
        assertEquals("SET x = 1", rules.get(0).action().expression());
        assertEquals(3, namespace.getSubscription("orders", "us").maxDeliveryCount());

        send("us");
        send("eu");
        assertEquals(1, active("us"));
        assertEquals(2, active("eu"));
    }

    @Test
    @DisplayName("RUL-2 createSubscription with a malformed rule fails and creates nothing")
    void subscriptionWithBadRule() {
        assertBadRequest(
                () -> admin.createSubscription(
                        "orders",
                        "us",
                        "bad",
                        new CreateSubscriptionOptions(),
                        new CreateRuleOptions(new SqlRuleFilter("region = = 'us'"))),
                "position");
        assertFalse(namespace.subscriptionExists("orders", "us"));
    }

    @Test
    @DisplayName("a rule without action reports EmptyRuleAction; the core holds null")
    void emptyAction() {
        admin.createRule("orders", "plain", "eu", new CreateRuleOptions(new SqlRuleFilter("a > 1")));
        assertInstanceOf(
                EmptyRuleAction.class, admin.getRule("orders", "eu", "plain").getAction());
        assertNull(namespace.getRule("orders", "eu", "plain").action());
    }
}
