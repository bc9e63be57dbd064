package dev.sbemu.amqp.internal.jms;

import org.apache.qpid.proton.amqp.Symbol;

/** The JMS dialect's symbols: what Qpid JMS and azure-servicebus-jms send, and what the endpoint offers them. */
public final class JmsSymbols {
    /** Qpid JMS sends a delivery delay (x-opt-delivery-time) only to a peer that offers this (JMS-12). */
    static final Symbol DELAYED_DELIVERY = Symbol.valueOf("DELAYED_DELIVERY");
    /** Qpid JMS creates shared subscriptions only on a peer that offers this (JMS-16). */
    static final Symbol SHARED_SUBS = Symbol.valueOf("SHARED-SUBS");
    /** Qpid JMS's anonymous producer then sends through one link with no target address (JMS-23). */
    static final Symbol ANONYMOUS_RELAY = Symbol.valueOf("ANONYMOUS-RELAY");

    /** A dynamic target asking for a temporary topic (else a temporary queue, JMS-24). */
    static final Symbol TEMPORARY_TOPIC = Symbol.valueOf("temporary-topic");
    /** A source capability: the subscription is shared (JMS-16). */
    static final Symbol SHARED = Symbol.valueOf("shared");
    /** Qpid JMS's mark of a shared subscription without a client id. */
    static final Symbol GLOBAL = Symbol.valueOf("global");
    /** Qpid JMS's selector filter key (its value is described by {@code apache.org:selector-filter:string}). */
    static final Symbol JMS_SELECTOR = Symbol.valueOf("jms-selector");

    /** {@code ServiceBusJmsConnectionFactorySettings}' open properties (JMS-27). */
    static final Symbol QUEUE_AUTO_DELETE =
            Symbol.valueOf("com.microsoft:queue-auto-delete-on-idle-duration-in-seconds");

    static final Symbol TOPIC_AUTO_DELETE =
            Symbol.valueOf("com.microsoft:topic-auto-delete-on-idle-duration-in-seconds");
    static final Symbol SUBSCRIBER_AUTO_DELETE =
            Symbol.valueOf("com.microsoft:subscriber-auto-delete-on-idle-duration-in-seconds");

    private JmsSymbols() {}

    /** The capabilities a connection's open offers, as the service does (a fresh array each time). */
    public static Symbol[] offeredCapabilities() {
        return new Symbol[] {DELAYED_DELIVERY, SHARED_SUBS, ANONYMOUS_RELAY};
    }
}
