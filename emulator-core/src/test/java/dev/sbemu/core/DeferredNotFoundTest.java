package dev.sbemu.core;

import static dev.sbemu.core.CoreFixtures.Q;
import static dev.sbemu.core.CoreFixtures.lockOne;
import static dev.sbemu.core.CoreFixtures.msg;
import static dev.sbemu.core.CoreFixtures.namespace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** DLQ-7: receiving by sequence number a message that is no deferred message to take fails the request. */
class DeferredNotFoundTest {

    @Test
    @DisplayName("DLQ-7 a sequence number never used, completed or deleted: MESSAGE_NOT_FOUND")
    void goneMessagesAreNotFound() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.send("q", msg("m"));
        BrokeredMessage m = lockOne(ns, Q);
        ns.defer(Q, m.lockToken());
        BrokeredMessage deferred = ns.receiveDeferred(Q, ReceiveMode.PEEK_LOCK, List.of(m.sequenceNumber()))
                .get(0);
        ns.complete(Q, deferred.lockToken());

        BrokerException.MessageNotFound completed = assertThrows(
                BrokerException.MessageNotFound.class,
                () -> ns.receiveDeferred(Q, ReceiveMode.PEEK_LOCK, List.of(m.sequenceNumber())));
        assertEquals(ErrorReason.MESSAGE_NOT_FOUND, completed.reason());
        assertThrows(
                BrokerException.MessageNotFound.class,
                () -> ns.receiveDeferred(Q, ReceiveMode.RECEIVE_AND_DELETE, List.of(999L)));
    }

    @Test
    @DisplayName("DLQ-7 one missing number fails the whole request: the deferred messages asked with it stay")
    void oneMissingFailsAll() {
        Namespace ns = namespace();
        ns.createQueue("q");
        ns.send("q", msg("m"));
        BrokeredMessage m = lockOne(ns, Q);
        ns.defer(Q, m.lockToken());

        assertThrows(
                BrokerException.MessageNotFound.class,
                () -> ns.receiveDeferred(Q, ReceiveMode.RECEIVE_AND_DELETE, List.of(m.sequenceNumber(), 999L)));
        assertEquals(1, ns.runtimeInfo(Q).deferredMessageCount());
        assertEquals(
                1,
                ns.receiveDeferred(Q, ReceiveMode.RECEIVE_AND_DELETE, List.of(m.sequenceNumber()))
                        .size());
    }
}
