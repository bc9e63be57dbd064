package dev.sbemu.core;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** Small helpers shared by the core tests: a fixed start instant and short ways to build and read messages. */
final class CoreFixtures {
    static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    static final EntityPath Q = EntityPath.queue("q");

    private CoreFixtures() {}

    static Namespace namespace() {
        return Namespace.builder().startingAt(T0).build();
    }

    static Namespace lazyNamespace() {
        return Namespace.builder().startingAt(T0).expiryMode(ExpiryMode.LAZY).build();
    }

    static Instant at(Duration sinceStart) {
        return T0.plus(sinceStart);
    }

    static Instant minutes(long m) {
        return T0.plus(Duration.ofMinutes(m));
    }

    static Message msg(String id) {
        return Message.builder().messageId(id).body("body-" + id).build();
    }

    static Message msg(String id, Duration ttl) {
        return Message.builder()
                .messageId(id)
                .body("body-" + id)
                .timeToLive(ttl)
                .build();
    }

    static BrokeredMessage receiveOne(Namespace ns, EntityPath path, ReceiveMode mode) {
        List<BrokeredMessage> got = ns.receive(path, mode, 1);
        if (got.size() != 1) {
            throw new AssertionError("expected exactly one message from " + path + ", got " + got.size()
                    + "\njournal:\n" + ns.journal().format());
        }
        return got.get(0);
    }

    static BrokeredMessage lockOne(Namespace ns, EntityPath path) {
        return receiveOne(ns, path, ReceiveMode.PEEK_LOCK);
    }

    static List<String> ids(List<BrokeredMessage> messages) {
        return messages.stream().map(m -> m.message().messageId()).toList();
    }

    static List<JournalEvent> events(Namespace ns, JournalEvent.Type type) {
        return ns.journal().events().stream().filter(e -> e.type() == type).toList();
    }
}
