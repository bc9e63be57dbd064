package com.example.invoices;

import org.springframework.jms.core.JmsTemplate;
import org.springframework.stereotype.Service;

/** Issues invoices: each goes to the {@code invoices} queue, where {@link Billing} picks it up. */
@Service
public class InvoiceService {
    /** The queue invoices are issued to. */
    public static final String INVOICES = "invoices";

    private final JmsTemplate jms;

    public InvoiceService(JmsTemplate jms) {
        this.jms = jms;
    }

    /** Issues an invoice. */
    public void issue(Invoice invoice) {
        jms.convertAndSend(INVOICES, invoice.toText(), message -> {
            message.setStringProperty("customer", invoice.customer());
            return message;
        });
    }
}
