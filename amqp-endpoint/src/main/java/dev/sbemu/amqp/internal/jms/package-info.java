/**
 * The JMS dialect (Qpid JMS, azure-servicebus-jms): its rows of the routing table ({@link
 * dev.sbemu.amqp.internal.jms.JmsRoutes}: temporary destinations, topic consumers and their subscription names,
 * browsers, unsubscribes), the consumer counts of its subscriptions, its selectors and its symbols.
 *
 * <p><b>Internal API</b> of {@code amqp-endpoint}: public only so that the module's own packages can reach it. Nothing
 * outside {@code amqp-endpoint} may use it (the architecture test fails on such a use), and it changes without notice.
 */
package dev.sbemu.amqp.internal.jms;
