package dev.sbemu.amqp.internal.transport;

import org.apache.qpid.proton.engine.Sasl;

/**
 * The SASL layer's server side, set up on each AMQP connection when its transport is built: which mechanisms are
 * offered and how a client's init is answered. It authorizes the connection ({@link AmqpConnection#authorize}) or
 * marks the refusal ({@link AmqpConnection#saslRefused}).
 */
public interface Authentication {
    /** Sets up {@code sasl} (already in server mode) for {@code connection}. Loop thread. */
    void configure(Sasl sasl, AmqpConnection connection);
}
