package dev.sbemu.amqp.internal.transport;

import org.apache.qpid.proton.engine.Delivery;

/** What one attached link does with the events of its link; called on the loop thread only. */
public interface LinkHandler {
    /** The peer granted credit (or asked to drain). */
    default void onFlow() {}

    /** A delivery arrived or the peer changed its state or settled it. */
    default void onDelivery(Delivery delivery) {}

    /** The peer detached the link with closed=true (called before {@link #onClosed()}). */
    default void onPeerClosed() {}

    /** The link is gone: detached by the peer, or its session or connection closed. */
    default void onClosed() {}
}
