package com.example.invoices;

import jakarta.jms.MessageProducer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.jms.annotation.JmsListener;
import org.springframework.jms.core.JmsTemplate;
import org.springframework.stereotype.Component;

/**
 * Bills issued invoices. Spring's listener container receives each in a transacted session, and the sends below
 * join it: an invoice is taken from {@code invoices}, put on {@code payments-due} and announced on
 * {@code billing-events} together, or not at all. An invoice it cannot bill (no positive amount) fails the
 * listener, so the transaction rolls back and the message comes again, until Service Bus dead-letters it.
 */
@Component
public class Billing {
    /** Where billed invoices wait for their payment. */
    public static final String PAYMENTS_DUE = "payments-due";
    /** The topic billing announces invoices on. */
    public static final String EVENTS = "billing-events";
    /** How long an invoice may stay unpaid: its time-to-live on {@link #PAYMENTS_DUE}. */
    public static final Duration PAYMENT_TERM = Duration.ofDays(30);

    private final JmsTemplate jms;
    private final List<String> billed = new CopyOnWriteArrayList<>();

    public Billing(JmsTemplate jms) {
        this.jms = jms;
    }

    @JmsListener(destination = InvoiceService.INVOICES)
    public void onInvoice(String text) {
        Invoice invoice = Invoice.fromText(text);
        if (invoice.amountInCents() <= 0) {
            throw new IllegalArgumentException("invoice " + invoice.id() + " has no positive amount");
        }
        jms.execute(PAYMENTS_DUE, (session, producer) -> {
            producer.setTimeToLive(PAYMENT_TERM.toMillis());
            producer.send(session.createTextMessage(text));
            return null;
        });
        jms.execute(
                session -> {
                    try (MessageProducer producer = session.createProducer(session.createTopic(EVENTS))) {
                        producer.send(
                                session.createTextMessage("issued;" + invoice.id() + ";" + invoice.amountInCents()));
                    }
                    return null;
                },
                true);
        billed.add(invoice.id());
    }

    /** The invoices billed so far. */
    public List<String> billed() {
        return List.copyOf(billed);
    }
}
