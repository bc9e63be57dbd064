package com.example.orders;

/**
 * An order.
 *
 * @param id the order id (also the message id)
 * @param customer who ordered
 * @param quantity items ordered; an order of none cannot be fulfilled
 * @param express whether a courier delivers it
 */
public record Order(String id, String customer, int quantity, boolean express) {}
