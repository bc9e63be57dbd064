package dev.sbemu.amqp.internal.link;

import java.time.Duration;

/**
 * The endpoint's options the links apply, taken from them by {@code Endpoint}.
 *
 * @param linkCredit the credit a receiving link keeps (AMQP-19)
 * @param unauthenticatedCredit the credit of a {@code $cbs} link before the connection has a token (AMQP-13)
 * @param maxRequestSize the largest {@code $cbs} request; a {@code $management} request may be a message larger
 * @param maxOperationTimeout the cap on a client's {@code com.microsoft:timeout} (how long a session accept waits)
 */
public record LinkSettings(
        int linkCredit, int unauthenticatedCredit, int maxRequestSize, Duration maxOperationTimeout) {}
