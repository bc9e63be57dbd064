package com.example.invoices;

/**
 * An invoice, sent as a JMS {@code TextMessage} of the form {@code id;customer;amountInCents}.
 *
 * @param id the invoice number
 * @param customer who pays it
 * @param amountInCents what is due
 */
public record Invoice(String id, String customer, long amountInCents) {
    /** The message body. */
    public String toText() {
        return id + ";" + customer + ";" + amountInCents;
    }

    /** The invoice a message body describes. */
    public static Invoice fromText(String text) {
        String[] parts = text.split(";", -1);
        if (parts.length != 3) {
            throw new IllegalArgumentException("not an invoice: " + text);
        }
        return new Invoice(parts[0], parts[1], Long.parseLong(parts[2]));
    }
}
