package dev.sbemu.amqp.internal.link;

import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * One row of the routing table ({@link LinkRouter}): which attaches it takes ({@code matches}, by address pattern or
 * capability) and how it answers them ({@code answer}: open a link kind with {@link Attach#open}, or {@link
 * Attach#refuse}). The rows of a {@link Stage} are tried in the order they were registered; the first that matches
 * answers. The nodes ({@code $cbs}, {@code $management}, the coordinator) and the JMS dialect register theirs; the
 * link kinds of the core (senders, receivers, session receivers) come after them.
 *
 * @param name what the row routes to, for readers and diagnostics
 * @param role which side of the link the client is
 * @param stage when in the attach the row is tried
 */
public record AttachPolicy(String name, Role role, Stage stage, Predicate<Attach> matches, Consumer<Attach> answer) {
    /** Which side the client is: it sends (the endpoint's link is a receiver) or it receives. */
    public enum Role {
        CLIENT_SENDS,
        CLIENT_RECEIVES
    }

    /** When a row is tried. */
    public enum Stage {
        /** Before the connection's authorization is checked ({@code $cbs}, the coordinator, reply links). */
        BEFORE_AUTHORIZATION,
        /** On an authorized connection, before the address is looked up as an entity. */
        AUTHORIZED,
        /** On an authorized connection, once the address names an existing entity ({@link Attach#entity}). */
        ON_ENTITY
    }
}
