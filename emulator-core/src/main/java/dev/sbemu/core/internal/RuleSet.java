package dev.sbemu.core.internal;

import dev.sbemu.core.Message;
import java.util.List;

/** The rules of one subscription and the copies they make of a topic message (RUL-1). */
final class RuleSet {

    List<Message> copiesFor(StoredMessage m) {
        return List.of(m.message);
    }
}
