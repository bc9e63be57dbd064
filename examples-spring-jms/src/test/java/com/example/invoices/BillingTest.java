package com.example.invoices;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.MessageBody;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.Tier;
import dev.sbemu.core.VirtualClock;
import dev.sbemu.junit.Queue;
import dev.sbemu.junit.Subscription;
import dev.sbemu.junit.Topic;
import dev.sbemu.spring.SpringServiceBusEmulator;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The billing service as it runs in production (auto-configured JMS connection factory, {@code JmsTemplate} and
 * {@code @JmsListener} containers, passwordless in its own configuration), against an emulated Premium namespace.
 */
@SpringBootTest
@SpringServiceBusEmulator(
        tier = Tier.PREMIUM,
        queues = {
            @Queue(name = InvoiceService.INVOICES, maxDeliveryCount = 3),
            @Queue(name = Billing.PAYMENTS_DUE, deadLetteringOnMessageExpiration = true)
        },
        // the durable subscription the service made for accounting's listener (JMS-16: <name>$<client id>$D) is
        // declared, as it stands in the production namespace: each test gets a fresh namespace (SPRING-2), and
        // the listener, attached once, resumes it there
        topics = @Topic(name = Billing.EVENTS, subscriptions = @Subscription(name = BillingTest.ACCOUNTING)))
@DisplayName("SPRING-7 SPRING-8 the JMS starter's JmsTemplate and @JmsListener on the emulated namespace")
class BillingTest {
    static final String ACCOUNTING = Accounting.SUBSCRIPTION + "$billing$D";
    private static final EntityPath INVOICES = EntityPath.queue(InvoiceService.INVOICES);
    private static final EntityPath PAYMENTS_DUE = EntityPath.queue(Billing.PAYMENTS_DUE);
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Autowired
    InvoiceService invoices;

    @Autowired
    Billing billing;

    @Autowired
    Namespace namespace;

    @Autowired
    VirtualClock clock;

    @Test
    @DisplayName("JMS-8 an issued invoice is billed: taken from its queue and put on payments-due in one transaction")
    void anIssuedInvoiceIsBilledAndFallsDue() {
        Invoice invoice = new Invoice(id(), "alice", 12_50);
        invoices.issue(invoice);

        await().atMost(WAIT).until(() -> billing.billed().contains(invoice.id()));
        await().atMost(WAIT).until(() -> namespace.runtimeInfo(INVOICES).totalMessageCount() == 0);
        List<BrokeredMessage> due = namespace.peek(PAYMENTS_DUE, 0, 10);
        assertEquals(1, due.size());
        assertEquals(
                new MessageBody.Value(invoice.toText()), due.get(0).message().body());
        assertEquals(Billing.PAYMENT_TERM, due.get(0).timeToLive());
    }

    @Test
    @DisplayName("JMS-8 an invoice the listener rejects is rolled back, redelivered and dead-lettered at "
            + "MaxDeliveryCount")
    void anInvoiceThatCannotBeBilledIsDeadLetteredAfterTheMaxDeliveryCount() {
        Invoice empty = new Invoice(id(), "bob", 0);
        invoices.issue(empty);

        await().atMost(WAIT).until(() -> namespace.runtimeInfo(INVOICES).deadLetterMessageCount() == 1);
        BrokeredMessage dead = namespace.peek(INVOICES.deadLetter(), 0, 1).get(0);
        assertEquals(new MessageBody.Value(empty.toText()), dead.message().body());
        assertEquals("bob", dead.message().applicationProperties().get("customer"));
        assertEquals("MaxDeliveryCountExceeded", dead.deadLetterReason());
        assertEquals(3, dead.deliveryCount());
        assertTrue(billing.billed().stream().noneMatch(empty.id()::equals));
        assertEquals(0, namespace.runtimeInfo(PAYMENTS_DUE).totalMessageCount(), "no invoice fell due");
    }

    @Test
    @DisplayName("JMS-7 an invoice left unpaid past its payment term expires to the dead-letter queue of payments-due")
    void anUnpaidInvoiceExpiresToTheDeadLetterQueue() {
        Invoice invoice = new Invoice(id(), "carol", 99_00);
        invoices.issue(invoice);
        await().atMost(WAIT).until(() -> namespace.runtimeInfo(PAYMENTS_DUE).activeMessageCount() == 1);

        clock.advance(Billing.PAYMENT_TERM.minusMinutes(1));
        assertEquals(1, namespace.runtimeInfo(PAYMENTS_DUE).activeMessageCount());

        clock.advance(Duration.ofMinutes(2));
        assertEquals(0, namespace.runtimeInfo(PAYMENTS_DUE).activeMessageCount());
        BrokeredMessage dead = namespace.peek(PAYMENTS_DUE.deadLetter(), 0, 1).get(0);
        assertEquals(new MessageBody.Value(invoice.toText()), dead.message().body());
        assertEquals("TTLExpiredException", dead.deadLetterReason());
    }

    @Test
    @DisplayName("JMS-16 JMS-17 accounting books each announcement from its durable subscription of billing-events")
    void accountingBooksEveryBilledInvoiceFromItsDurableSubscription(@Autowired Accounting accounting) {
        Invoice invoice = new Invoice(id(), "dave", 5_00);
        invoices.issue(invoice);

        await().atMost(WAIT).until(() -> accounting.ledger().contains("issued;" + invoice.id() + ";500"));
        // taken from the subscription entity Service Bus names for a durable JMS subscription with a client id
        await().atMost(WAIT)
                .until(() -> namespace
                                .runtimeInfo(EntityPath.subscription(Billing.EVENTS, ACCOUNTING))
                                .totalMessageCount()
                        == 0);
    }

    private static String id() {
        return "INV-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
