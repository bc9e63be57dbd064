package dev.sbemu.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusRuleManagerClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.administration.models.CreateRuleOptions;
import com.azure.messaging.servicebus.administration.models.RuleProperties;
import com.azure.messaging.servicebus.administration.models.SqlRuleFilter;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.junit.Entity;
import dev.sbemu.junit.ServiceBusEmulator;
import dev.sbemu.junit.Subscription;
import dev.sbemu.junit.Topic;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A subscriber narrows what it gets at run time with the rule manager: it replaces the subscription's
 * {@code $Default} rule (everything) by its own filter. The receiver here removes what it receives
 * (receive-and-delete), as a subscriber that can afford to lose a message on a crash would.
 */
@ServiceBusEmulator(topics = @Topic(name = "prices", subscriptions = @Subscription(name = "dashboard")))
class RuleManagerTest {

    @Test
    @DisplayName("RUL-1 RUL-2 a rule created at run time replaces $Default: only matching messages are copied")
    void ruleManagerNarrowsTheSubscription(
            @Entity("prices") ServiceBusSenderClient sender,
            @Entity(value = "prices", subscription = "dashboard") ServiceBusRuleManagerClient rules,
            @Entity(
                            value = "prices",
                            subscription = "dashboard",
                            receiveMode = ServiceBusReceiveMode.RECEIVE_AND_DELETE)
                    ServiceBusReceiverClient dashboard) {
        rules.createRule("eur-only", new CreateRuleOptions(new SqlRuleFilter("currency = 'EUR'")));
        rules.deleteRule("$Default");
        assertEquals(
                List.of("eur-only"),
                rules.listRules().stream().map(RuleProperties::getName).toList());

        sender.sendMessage(price("ACME", "USD"));
        sender.sendMessage(price("ACME", "EUR"));

        assertEquals(
                List.of("ACME in EUR"),
                dashboard.receiveMessages(10, Duration.ofSeconds(5)).stream()
                        .map(m -> m.getBody().toString())
                        .toList());
        assertEquals(0, dashboard.peekMessages(10).stream().count(), "received and deleted");
    }

    private static ServiceBusMessage price(String symbol, String currency) {
        ServiceBusMessage message = new ServiceBusMessage(symbol + " in " + currency);
        message.getApplicationProperties().put("currency", currency);
        return message;
    }
}
