package dev.sbemu.amqp;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.amqp.exception.AmqpException;
import com.azure.messaging.servicebus.ServiceBusException;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.ServiceBusSessionReceiverClient;
import com.azure.messaging.servicebus.ServiceBusTransactionContext;
import com.azure.messaging.servicebus.models.DeadLetterOptions;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.EntityRuntimeInfo;
import dev.sbemu.core.EntityStatus;
import dev.sbemu.core.Faults;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.sdk.EmulatorClients;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The parity table: each row is one scenario, run once through the in-process clients ({@link EmulatorClients#of})
 * and once through the SDK's own clients over the endpoint ({@code ServiceBusClientBuilder().connectionString(...)},
 * {@link EmulatorClients#connectingTo}), each on a fresh namespace. Every step of a row records what the call gave:
 * a value, or the exception's class, failure reason, {@code isTransient} and the classes (and AMQP conditions) of
 * its causes; both ways must record the same steps. Over the wire the SDK's own code runs, so that side is what
 * production gives; a row may check that too ({@link Steps#expect}).
 *
 * <p>One {@link EmulatorClients} is one {@code ServiceBusClientBuilder}, so one AMQP connection (PAR-4); a row that
 * needs a second builder asks for {@link Side#otherBuilder()}.
 */
class ParityTest {
    /** The namespaces start at the wall-clock now, as {@link EndpointFixture} explains. */
    private static final Instant START = Instant.now().truncatedTo(ChronoUnit.SECONDS);

    private static final Duration WAIT = Duration.ofSeconds(5);
    /** The maxWait of a receive that a change must end ({@link #waitingThenEnded}). */
    private static final Duration WAITING_MAX = Duration.ofSeconds(60);

    private static final Duration SHORT = Duration.ofSeconds(2);

    /** One row of the table. */
    interface Scenario {
        void run(Side side, Steps steps) throws Exception;
    }

    static Stream<Arguments> rows() {
        return Stream.of(
                // ---- refusals that already agreed ----
                row("AMQP-2 DLQ-3 renew and complete after the lock expired: MESSAGE_LOCK_LOST", (s, st) -> {
                    s.ns.createQueue("q");
                    ServiceBusSenderClient sender = s.clients.sender("q");
                    for (int i = 0; i < 4; i++) {
                        sender.sendMessage(new ServiceBusMessage("m" + i));
                    }
                    ServiceBusReceiverClient r = s.receiver("q");
                    List<ServiceBusReceivedMessage> m = new ArrayList<>();
                    r.receiveMessages(4, WAIT).forEach(m::add);
                    s.ns.clock().advance(Duration.ofMinutes(2));
                    st.step("renew", () -> r.renewMessageLock(m.get(0)) == null ? "null" : "renewed");
                    st.step("complete", () -> run(() -> r.complete(m.get(1))));
                    st.step("abandon", () -> run(() -> r.abandon(m.get(2))));
                    st.step("defer", () -> run(() -> r.defer(m.get(3))));
                    for (int i = 0; i < 4; i++) {
                        st.expect(i, "ServiceBusException[MESSAGE_LOCK_LOST");
                    }
                }),
                row("AMQP-10 sending to a send-disabled queue: MESSAGING_ENTITY_DISABLED", (s, st) -> {
                    s.ns.createQueue(
                            "q",
                            QueueOptions.builder()
                                    .status(EntityStatus.SEND_DISABLED)
                                    .build());
                    ServiceBusSenderClient sender = s.clients.sender("q");
                    st.step("send", () -> run(() -> sender.sendMessage(new ServiceBusMessage("m"))));
                    st.expect(0, "ServiceBusException[MESSAGING_ENTITY_DISABLED");
                }),
                row("LIM-1 a message over the size limit: MESSAGE_SIZE_EXCEEDED", (s, st) -> {
                    s.ns.createQueue("q");
                    ServiceBusSenderClient sender = s.clients.sender("q");
                    st.step("send", () -> run(() -> sender.sendMessage(new ServiceBusMessage(new byte[300 * 1024]))));
                    st.expect(0, "ServiceBusException[MESSAGE_SIZE_EXCEEDED");
                }),
                row(
                        "RES-5 a queue at its MaxSizeInMegabytes refuses a send: QUOTA_EXCEEDED, room again once one is completed",
                        (s, st) -> {
                            s.ns.createQueue(
                                    "q",
                                    QueueOptions.builder().maxSizeInMegabytes(1).build());
                            ServiceBusSenderClient sender = s.clients.sender("q");
                            for (int i = 0; i < 6; i++) {
                                st.step(
                                        "send " + i,
                                        () -> run(
                                                () -> sender.sendMessage(new ServiceBusMessage(new byte[200 * 1024]))));
                            }
                            st.expect(4, "ok");
                            st.expect(5, "ServiceBusException[QUOTA_EXCEEDED, transient=false");
                            ServiceBusReceiverClient r = s.receiver("q");
                            for (ServiceBusReceivedMessage m : r.receiveMessages(1, WAIT)) {
                                r.complete(m);
                            }
                            st.step(
                                    "send after a complete",
                                    () -> run(() -> sender.sendMessage(new ServiceBusMessage(new byte[200 * 1024]))));
                            st.expect(6, "ok");
                        }),
                row(
                        "RES-5 FWD-3 a message forwarded to a full queue goes to the source's transfer dead-letter "
                                + "queue with reason QuotaExceeded; the send itself succeeds",
                        (s, st) -> {
                            s.ns.createQueue(
                                    "dest",
                                    QueueOptions.builder().maxSizeInMegabytes(1).build());
                            s.ns.createQueue(
                                    "src",
                                    QueueOptions.builder().forwardTo("dest").build());
                            ServiceBusSenderClient dest = s.clients.sender("dest");
                            for (int i = 0; i < 5; i++) {
                                dest.sendMessage(new ServiceBusMessage(new byte[200 * 1024]));
                            }
                            st.step(
                                    "send to the forwarding source",
                                    () -> run(() -> s.clients
                                            .sender("src")
                                            .sendMessage(
                                                    new ServiceBusMessage(new byte[200 * 1024]).setMessageId("f"))));
                            ServiceBusReceiverClient transfer = s.clients.receiver(
                                    EntityPath.queue("src").withSubQueue(EntityPath.Part.TRANSFER_DEAD_LETTER_QUEUE),
                                    ServiceBusReceiveMode.RECEIVE_AND_DELETE);
                            st.step("transfer dead letter", () -> {
                                ServiceBusReceivedMessage m = one(transfer);
                                return m.getMessageId() + " " + m.getDeadLetterReason();
                            });
                            st.step("dest count", () -> s.counts("dest").activeMessageCount());
                            st.expect(0, "ok");
                            st.expect(1, "ok f QuotaExceeded");
                            st.expect(2, "ok 5");
                        }),
                row(
                        "RES-5 TXN-1 a transaction's sends count against the queue's size at its commit: a commit "
                                + "that would take the queue past it fails with QUOTA_EXCEEDED and takes nothing",
                        (s, st) -> {
                            s.ns.createQueue(
                                    "q",
                                    QueueOptions.builder().maxSizeInMegabytes(1).build());
                            ServiceBusSenderClient sender = s.clients.sender("q");
                            ServiceBusTransactionContext tx = sender.createTransaction();
                            for (int i = 0; i < 4; i++) {
                                sender.sendMessage(new ServiceBusMessage(new byte[200 * 1024]), tx);
                            }
                            // another sender half fills the queue before the commit
                            for (int i = 0; i < 2; i++) {
                                sender.sendMessage(new ServiceBusMessage(new byte[200 * 1024]));
                            }
                            st.step("commit", () -> run(() -> sender.commitTransaction(tx)));
                            st.step("count", () -> s.counts("q").activeMessageCount());
                            ServiceBusTransactionContext fits = sender.createTransaction();
                            sender.sendMessage(new ServiceBusMessage(new byte[200 * 1024]), fits);
                            st.step("commit one that fits", () -> run(() -> sender.commitTransaction(fits)));
                            st.expect(0, "ServiceBusException[QUOTA_EXCEEDED");
                            st.expect(1, "ok 2");
                            st.expect(2, "ok done");
                        }),
                row(
                        "SES-2 a session another builder's receiver holds: the SDK's unwrapped session-cannot-be-locked",
                        (s, st) -> {
                            s.ns.createQueue(
                                    "c",
                                    QueueOptions.builder().requiresSession(true).build());
                            s.clients.sender("c").sendMessage(new ServiceBusMessage("m").setSessionId("a"));
                            ServiceBusReceiverClient holder =
                                    s.sessionReceiver("c").acceptSession("a");
                            ServiceBusSessionReceiverClient other = s.otherBuilder()
                                    .sessionReceiver(EntityPath.queue("c"), ServiceBusReceiveMode.PEEK_LOCK);
                            st.step(
                                    "accept held",
                                    () -> other.acceptSession("a").getSessionId());
                            st.step("holder receives", () -> body(one(holder)));
                            st.expect(0, "AmqpException[com.microsoft:session-cannot-be-locked");
                        }),
                row(
                        "PAR-4 SES-2 a session a receiver of the same builder holds, accepted in the other receive mode",
                        (s, st) -> {
                            s.ns.createQueue(
                                    "c",
                                    QueueOptions.builder().requiresSession(true).build());
                            s.clients.sender("c").sendMessage(new ServiceBusMessage("m").setSessionId("a"));
                            ServiceBusReceiverClient holder =
                                    s.sessionReceiver("c").acceptSession("a");
                            ServiceBusSessionReceiverClient other = s.clients.sessionReceiver(
                                    EntityPath.queue("c"), ServiceBusReceiveMode.RECEIVE_AND_DELETE);
                            st.step(
                                    "accept held",
                                    () -> other.acceptSession("a").getSessionId());
                            st.step("holder receives", () -> body(one(holder)));
                            st.expect(0, "ok a");
                        }),
                row(
                        "PAR-4 SES-2 a session a receiver of the same builder holds, accepted in the other receive mode (peek-lock second)",
                        (s, st) -> {
                            s.ns.createQueue(
                                    "c",
                                    QueueOptions.builder().requiresSession(true).build());
                            s.clients.sender("c").sendMessage(new ServiceBusMessage("m").setSessionId("a"));
                            ServiceBusReceiverClient holder = s.clients
                                    .sessionReceiver(EntityPath.queue("c"), ServiceBusReceiveMode.RECEIVE_AND_DELETE)
                                    .acceptSession("a");
                            ServiceBusSessionReceiverClient other =
                                    s.clients.sessionReceiver(EntityPath.queue("c"), ServiceBusReceiveMode.PEEK_LOCK);
                            st.step(
                                    "accept held",
                                    () -> other.acceptSession("a").getSessionId());
                            st.step("holder receives", () -> body(one(holder)));
                            st.expect(0, "ok a");
                        }),
                row(
                        "DLQ-3 settling twice, a peeked message, or in receive-and-delete: the SDK's client-side errors",
                        (s, st) -> {
                            s.ns.createQueue("q");
                            ServiceBusSenderClient sender = s.clients.sender("q");
                            sender.sendMessage(new ServiceBusMessage("m1"));
                            sender.sendMessage(new ServiceBusMessage("m2"));
                            ServiceBusReceiverClient r = s.receiver("q");
                            ServiceBusReceivedMessage m = one(r);
                            st.step("complete", () -> run(() -> r.complete(m)));
                            st.step("complete again", () -> run(() -> r.complete(m)));
                            ServiceBusReceivedMessage peeked = r.peekMessage();
                            st.step("peeked", () -> received(peeked));
                            st.step("complete peeked", () -> run(() -> r.complete(peeked)));
                            ServiceBusReceiverClient rad = s.receiver("q", ServiceBusReceiveMode.RECEIVE_AND_DELETE);
                            ServiceBusReceivedMessage deleted = one(rad);
                            st.step("abandon deleted", () -> run(() -> rad.abandon(deleted)));
                            st.expect(1, "IllegalArgumentException(");
                        }),
                row("DLQ-4 SCH-2 deferred and scheduled messages by sequence number", (s, st) -> {
                    s.ns.createQueue("q");
                    ServiceBusSenderClient sender = s.clients.sender("q");
                    sender.sendMessage(new ServiceBusMessage("m"));
                    ServiceBusReceiverClient r = s.receiver("q");
                    ServiceBusReceivedMessage m = one(r);
                    st.step("defer", () -> run(() -> r.defer(m)));
                    st.step("receive deferred", () -> received(r.receiveDeferredMessage(m.getSequenceNumber())));
                    st.step("receive unknown deferred", () -> received(r.receiveDeferredMessage(99)));
                    OffsetDateTime at = START.plusSeconds(60).atOffset(ZoneOffset.UTC);
                    st.step("schedule", () -> sender.scheduleMessage(new ServiceBusMessage("s"), at));
                    st.step("cancel unknown", () -> run(() -> sender.cancelScheduledMessage(99)));
                    st.step(
                            "peek scheduled",
                            () -> received(r.peekMessage(2)) + " "
                                    + r.peekMessage(2).getState());
                    st.step("counts", () -> counts(s.counts("q")));
                }),
                // ---- item 6: what the SDK cannot serialise ----
                row("PAR-1 sendMessage with a 60-day TTL: GENERAL_ERROR around the serializer's error", (s, st) -> {
                    s.ns.createQueue("q");
                    ServiceBusSenderClient sender = s.clients.sender("q");
                    st.step(
                            "send",
                            () -> run(() ->
                                    sender.sendMessage(new ServiceBusMessage("m").setTimeToLive(Duration.ofDays(60)))));
                    st.step("counts", () -> counts(s.counts("q")));
                    st.expect(0, "ServiceBusException[GENERAL_ERROR, transient=false] <- NumberFormatException");
                }),
                row("PAR-1 sendMessage with an Instant or BigDecimal property: GENERAL_ERROR", (s, st) -> {
                    s.ns.createQueue("q");
                    ServiceBusSenderClient sender = s.clients.sender("q");
                    ServiceBusMessage instant = new ServiceBusMessage("m");
                    instant.getApplicationProperties().put("at", Instant.EPOCH);
                    ServiceBusMessage decimal = new ServiceBusMessage("m");
                    decimal.getApplicationProperties().put("price", new BigDecimal("1.5"));
                    st.step("send Instant", () -> run(() -> sender.sendMessage(instant)));
                    st.step("send BigDecimal", () -> run(() -> sender.sendMessage(decimal)));
                    st.step("counts", () -> counts(s.counts("q")));
                    st.expect(0, "ServiceBusException[GENERAL_ERROR, transient=false] <- IllegalArgumentException");
                    st.expect(1, "ServiceBusException[GENERAL_ERROR, transient=false] <- IllegalArgumentException");
                }),
                row("PAR-1 scheduleMessage of what the SDK cannot serialise: GENERAL_ERROR", (s, st) -> {
                    s.ns.createQueue("q");
                    ServiceBusSenderClient sender = s.clients.sender("q");
                    ServiceBusMessage instant = new ServiceBusMessage("m");
                    instant.getApplicationProperties().put("at", Instant.EPOCH);
                    OffsetDateTime at = OffsetDateTime.now().plusMinutes(5);
                    st.step("schedule Instant", () -> sender.scheduleMessage(instant, at));
                    st.step(
                            "schedule 60-day TTL",
                            () -> sender.scheduleMessage(
                                    new ServiceBusMessage("m").setTimeToLive(Duration.ofDays(60)), at));
                    st.step(
                            "schedule batch",
                            () -> sender.scheduleMessages(List.of(instant), at)
                                    .iterator()
                                    .next());
                    st.expect(0, "ServiceBusException[GENERAL_ERROR, transient=false] <- IllegalArgumentException");
                }),
                row("PAR-1 sendMessages(list) of what the SDK cannot serialise: the SDK's bare error", (s, st) -> {
                    s.ns.createQueue("q");
                    ServiceBusSenderClient sender = s.clients.sender("q");
                    ServiceBusMessage instant = new ServiceBusMessage("m");
                    instant.getApplicationProperties().put("at", Instant.EPOCH);
                    st.step(
                            "send list",
                            () -> run(() -> sender.sendMessages(List.of(new ServiceBusMessage("a"), instant))));
                    st.step("counts", () -> counts(s.counts("q")));
                }),
                // ---- item 7: the sync receiver's terminal errors ----
                row(
                        "PAR-2 AMQP-10 sync receive on a missing queue: the receiver is terminated (upstream-error)",
                        (s, st) -> {
                            ServiceBusReceiverClient r = s.receiver("nope");
                            st.step("receive", () -> receive(r, 1, SHORT));
                            s.ns.createQueue("nope");
                            s.clients.sender("nope").sendMessage(new ServiceBusMessage("m"));
                            st.step("receive again", () -> receive(r, 1, SHORT));
                            st.step("peek", () -> received(r.peekMessage()));
                            st.expect(
                                    0,
                                    "RuntimeException(\"The receiver client is terminated. Re-create the client to "
                                            + "continue receive attempt. (Reason: upstream-error)\") <- AmqpException[amqp:not-found");
                        }),
                row(
                        "PAR-2 sync receive on a receive-disabled queue: terminated, the AmqpException its cause",
                        (s, st) -> {
                            s.ns.createQueue(
                                    "q",
                                    QueueOptions.builder()
                                            .status(EntityStatus.RECEIVE_DISABLED)
                                            .build());
                            ServiceBusReceiverClient r = s.receiver("q");
                            st.step("receive", () -> receive(r, 1, SHORT));
                            st.step("receive again", () -> receive(r, 1, SHORT));
                            st.expect(0, "RuntimeException(");
                        }),
                row(
                        "PAR-2 LIM-3 a sync receive waiting when its queue is disabled ends at once: terminated",
                        (s, st) -> {
                            s.ns.createQueue("q");
                            ServiceBusReceiverClient r = s.receiver("q");
                            waitingThenEnded(
                                    s,
                                    st,
                                    EntityPath.queue("q"),
                                    () -> receive(r, 1, WAITING_MAX),
                                    () -> s.ns.updateQueue(
                                            "q",
                                            QueueOptions.builder()
                                                    .status(EntityStatus.RECEIVE_DISABLED)
                                                    .build()));
                            st.expect(
                                    0,
                                    "RuntimeException(\"The receiver client is terminated. Re-create the client to "
                                            + "continue receive attempt. (Reason: upstream-error)\") <- AmqpException["
                                            + "com.microsoft:entity-disabled");
                        }),
                row(
                        "PAR-2 AMQP-10 a sync receive waiting on a subscription whose topic is deleted ends at once: "
                                + "terminated, not found",
                        (s, st) -> {
                            s.ns.createTopic("t");
                            s.ns.createSubscription("t", "s");
                            ServiceBusReceiverClient r = s.clients.receiver(
                                    EntityPath.subscription("t", "s"), ServiceBusReceiveMode.PEEK_LOCK);
                            waitingThenEnded(
                                    s,
                                    st,
                                    EntityPath.subscription("t", "s"),
                                    () -> receive(r, 1, WAITING_MAX),
                                    () -> s.ns.deleteTopic("t"));
                            st.expect(
                                    0,
                                    "RuntimeException(\"The receiver client is terminated. Re-create the client to "
                                            + "continue receive attempt. (Reason: upstream-error)\") <- AmqpException[amqp:not-found");
                        }),
                row(
                        "PAR-2 LIM-3 a sync session receive waiting in its session when the queue is disabled ends at once",
                        (s, st) -> {
                            s.ns.createQueue(
                                    "c",
                                    QueueOptions.builder().requiresSession(true).build());
                            s.clients.sender("c").sendMessage(new ServiceBusMessage("m1").setSessionId("a"));
                            ServiceBusReceiverClient r = s.sessionReceiver("c").acceptSession("a");
                            one(r);
                            waitingThenEnded(
                                    s,
                                    st,
                                    EntityPath.queue("c"),
                                    () -> receive(r, 1, WAITING_MAX),
                                    () -> s.ns.updateQueue(
                                            "c",
                                            QueueOptions.builder()
                                                    .requiresSession(true)
                                                    .status(EntityStatus.DISABLED)
                                                    .build()));
                        }),
                row("PAR-2 FLT-2 an injected non-transient receive fault terminates the sync receiver", (s, st) -> {
                    s.ns.createQueue("q");
                    s.clients.sender("q").sendMessage(new ServiceBusMessage("m"));
                    s.ns.faults().on("q").failNext(1, Faults.Operation.RECEIVE, Faults.Failure.QUOTA_EXCEEDED);
                    ServiceBusReceiverClient r = s.receiver("q");
                    st.step("receive", () -> receive(r, 1, WAIT));
                    st.step("receive again", () -> receive(r, 1, SHORT));
                    st.step("counts", () -> counts(s.counts("q")));
                    st.expect(
                            0,
                            "RuntimeException(\"The receiver client is terminated. Re-create the client to "
                                    + "continue receive attempt. (Reason: upstream-error)\") <- AmqpException["
                                    + "amqp:resource-limit-exceeded, transient=false]");
                }),
                row(
                        "PAR-2 FWD-4 sync receive on an auto-forwarding queue: terminated, UnsupportedOperationException",
                        (s, st) -> {
                            s.ns.createQueue("t");
                            s.ns.createQueue(
                                    "q", QueueOptions.builder().forwardTo("t").build());
                            st.step("receive", () -> receive(s.receiver("q"), 1, SHORT));
                            st.expect(0, "RuntimeException(");
                        }),
                row("PAR-2 SES-5 a non-session sync receiver on a session queue: terminated", (s, st) -> {
                    s.ns.createQueue(
                            "c", QueueOptions.builder().requiresSession(true).build());
                    st.step("receive", () -> receive(s.receiver("c"), 1, SHORT));
                    st.expect(0, "RuntimeException(");
                }),
                row(
                        "PAR-2 SES-3 sync receive on a session whose lock expired: the session's stream ends "
                                + "(upstream-completion)",
                        (s, st) -> {
                            s.ns.createQueue(
                                    "c",
                                    QueueOptions.builder().requiresSession(true).build());
                            ServiceBusSenderClient sender = s.clients.sender("c");
                            sender.sendMessage(new ServiceBusMessage("m1").setSessionId("a"));
                            sender.sendMessage(new ServiceBusMessage("m2").setSessionId("a"));
                            ServiceBusReceiverClient r = s.sessionReceiver("c").acceptSession("a");
                            ServiceBusReceivedMessage first = one(r);
                            s.ns.clock().advance(Duration.ofMinutes(2));
                            st.step("receive", () -> receive(r, 1, SHORT));
                            st.step("receive again", () -> receive(r, 1, SHORT));
                            st.step("renew session lock", () -> r.renewSessionLock() == null ? "null" : "renewed");
                            st.step("complete", () -> run(() -> r.complete(first)));
                            st.expect(
                                    0,
                                    "RuntimeException(\"The receiver client is terminated. Re-create the client to "
                                            + "continue receive attempt. (Reason: upstream-completion)\")");
                        }),
                // ---- item 8: settlement after the lock expired ----
                row(
                        "PAR-3 DLQ-3 dead-letter after the lock expired: the SDK reports success, nothing is dead-lettered",
                        (s, st) -> {
                            s.ns.createQueue("q");
                            s.clients.sender("q").sendMessage(new ServiceBusMessage("m"));
                            ServiceBusReceiverClient r = s.receiver("q");
                            ServiceBusReceivedMessage m = one(r);
                            s.ns.clock().advance(Duration.ofMinutes(2));
                            st.step("dead-letter", () -> run(() -> r.deadLetter(m)));
                            st.step("counts", () -> counts(s.counts("q")));
                            st.step("abandon after", () -> run(() -> r.abandon(m)));
                            st.step("receive again", () -> receive(r, 1, WAIT));
                            st.expect(0, "ok done");
                        }),
                row("PAR-3 a dead-letter the service refuses (injected quota) is reported as success too", (s, st) -> {
                    s.ns.createQueue("q");
                    s.clients.sender("q").sendMessage(new ServiceBusMessage("m"));
                    ServiceBusReceiverClient r = s.receiver("q");
                    ServiceBusReceivedMessage m = one(r);
                    s.ns.faults().on("q").failNext(1, Faults.Operation.SETTLE, Faults.Failure.QUOTA_EXCEEDED);
                    st.step("dead-letter", () -> run(() -> r.deadLetter(m)));
                    st.step("counts", () -> counts(s.counts("q")));
                    st.step("complete", () -> run(() -> r.complete(m)));
                }),
                row("PAR-3 TXN-1 a transactional dead-letter after the lock expired", (s, st) -> {
                    s.ns.createQueue("q");
                    s.clients.sender("q").sendMessage(new ServiceBusMessage("m"));
                    ServiceBusReceiverClient r = s.receiver("q");
                    ServiceBusReceivedMessage m = one(r);
                    s.ns.clock().advance(Duration.ofMinutes(2));
                    ServiceBusTransactionContext tx = r.createTransaction();
                    st.step(
                            "dead-letter",
                            () -> run(() -> r.deadLetter(m, new DeadLetterOptions().setTransactionContext(tx))));
                    st.step("commit", () -> run(() -> r.commitTransaction(tx)));
                    st.step("counts", () -> counts(s.counts("q")));
                    st.expect(0, "ServiceBusException[MESSAGE_LOCK_LOST");
                }),
                row(
                        "PAR-3 dead-letter of a deferred message after its lock expired: MESSAGE_LOCK_LOST ($management)",
                        (s, st) -> {
                            s.ns.createQueue("q");
                            s.clients.sender("q").sendMessage(new ServiceBusMessage("m"));
                            ServiceBusReceiverClient r = s.receiver("q");
                            ServiceBusReceivedMessage m = one(r);
                            r.defer(m);
                            ServiceBusReceivedMessage deferred = r.receiveDeferredMessage(m.getSequenceNumber());
                            s.ns.clock().advance(Duration.ofMinutes(2));
                            st.step("dead-letter", () -> run(() -> r.deadLetter(deferred)));
                            st.step("counts", () -> counts(s.counts("q")));
                            st.expect(0, "ServiceBusException[MESSAGE_LOCK_LOST");
                        }),
                row("PAR-3 SES-3 dead-letter of a session's message after the session lock expired", (s, st) -> {
                    s.ns.createQueue(
                            "c", QueueOptions.builder().requiresSession(true).build());
                    s.clients.sender("c").sendMessage(new ServiceBusMessage("m").setSessionId("a"));
                    ServiceBusReceiverClient r = s.sessionReceiver("c").acceptSession("a");
                    ServiceBusReceivedMessage m = one(r);
                    s.ns.clock().advance(Duration.ofMinutes(2));
                    st.step("dead-letter", () -> run(() -> r.deadLetter(m)));
                    st.step("counts", () -> counts(s.counts("c")));
                }),
                // ---- item 9: session receivers from one builder ----
                row(
                        "PAR-4 SES-2 acceptSession of a session a receiver of the same builder holds: the same link",
                        (s, st) -> {
                            s.ns.createQueue(
                                    "c",
                                    QueueOptions.builder().requiresSession(true).build());
                            ServiceBusSenderClient sender = s.clients.sender("c");
                            sender.sendMessage(new ServiceBusMessage("m1").setSessionId("a"));
                            sender.sendMessage(new ServiceBusMessage("m2").setSessionId("a"));
                            ServiceBusReceiverClient first =
                                    s.sessionReceiver("c").acceptSession("a");
                            ServiceBusReceivedMessage m1 = one(first);
                            ServiceBusReceiverClient[] second = new ServiceBusReceiverClient[1];
                            st.step(
                                    "accept again",
                                    () -> (second[0] = s.sessionReceiver("c").acceptSession("a")).getSessionId());
                            st.step("second receives", () -> receive(second[0], 1, SHORT));
                            st.step("first completes", () -> run(() -> first.complete(m1)));
                            st.step("counts", () -> counts(s.counts("c")));
                            st.expect(0, "ok a");
                        }),
                row("PAR-4 SES-3 acceptSession again after the session lock expired (same builder)", (s, st) -> {
                    s.ns.createQueue(
                            "c", QueueOptions.builder().requiresSession(true).build());
                    s.clients.sender("c").sendMessage(new ServiceBusMessage("m1").setSessionId("a"));
                    ServiceBusReceiverClient first = s.sessionReceiver("c").acceptSession("a");
                    s.ns.clock().advance(Duration.ofMinutes(2));
                    ServiceBusReceiverClient[] again = new ServiceBusReceiverClient[1];
                    st.step(
                            "accept again",
                            () -> (again[0] = s.sessionReceiver("c").acceptSession("a")).getSessionId());
                    st.step("receive", () -> receive(again[0], 1, SHORT));
                    st.step("renew session lock", () -> again[0].renewSessionLock() == null ? "null" : "renewed");
                    st.step("counts", () -> counts(s.counts("c")));
                }),
                row(
                        "PAR-4 SES-3 acceptSession again after the expired session's stream ended (same builder)",
                        (s, st) -> {
                            s.ns.createQueue(
                                    "c",
                                    QueueOptions.builder().requiresSession(true).build());
                            ServiceBusSenderClient sender = s.clients.sender("c");
                            sender.sendMessage(new ServiceBusMessage("m1").setSessionId("a"));
                            sender.sendMessage(new ServiceBusMessage("m2").setSessionId("a"));
                            ServiceBusReceiverClient first =
                                    s.sessionReceiver("c").acceptSession("a");
                            one(first);
                            s.ns.clock().advance(Duration.ofMinutes(2));
                            st.step("receive", () -> receive(first, 1, SHORT));
                            ServiceBusReceiverClient[] again = new ServiceBusReceiverClient[1];
                            st.step(
                                    "accept again",
                                    () -> (again[0] = s.sessionReceiver("c").acceptSession("a")).getSessionId());
                            st.step("receive", () -> receive(again[0], 2, SHORT));
                        }),
                // ---- item 10: receive-and-delete ----
                row(
                        "PAR-5 LOCK-1 a receive-and-delete message of an unpartitioned queue has an empty delivery tag: the SDK's"
                                + " zero lock token, no lock",
                        (s, st) -> {
                            s.ns.createQueue("q");
                            receiveAndDeleteThenSettle(s, st, ParityTest::received);
                            st.expect(0, "ok [m#1/dc=0/lock=zero]");
                        }),
                row(
                        "PAR-5 LOCK-1 a receive-and-delete message of a partitioned queue has a GUID delivery tag as lock token,"
                                + " no lock",
                        (s, st) -> {
                            s.ns.createQueue(
                                    "q",
                                    QueueOptions.builder()
                                            .enablePartitioning(true)
                                            .build());
                            // the partition, and so the sequence number's top bits, is the broker's choice
                            receiveAndDeleteThenSettle(s, st, m -> received(m).replaceAll("#\\d+", ""));
                            st.expect(0, "ok [m/dc=0/lock=token]");
                        }),
                row(
                        "PAR-5 the sync receive-and-delete receiver keeps its credit: a later message is taken at once "
                                + "and returned by the next receive",
                        (s, st) -> {
                            s.ns.createQueue("q");
                            ServiceBusSenderClient sender = s.clients.sender("q");
                            sender.sendMessage(new ServiceBusMessage("m1"));
                            ServiceBusReceiverClient r = s.receiver("q", ServiceBusReceiveMode.RECEIVE_AND_DELETE);
                            st.step("receive 5", () -> receive(r, 5, SHORT));
                            sender.sendMessage(new ServiceBusMessage("m2"));
                            sender.sendMessage(new ServiceBusMessage("m3"));
                            st.step("counts", () -> countsOnce(s, "q", 0));
                            ServiceBusReceiverClient other = s.receiver("q", ServiceBusReceiveMode.RECEIVE_AND_DELETE);
                            st.step("another receiver", () -> receive(other, 5, SHORT));
                            st.step("receive 1", () -> receive(r, 1, SHORT));
                            st.step("receive 1 again", () -> receive(r, 1, SHORT));
                            st.expect(1, "ok active=0");
                        }),
                // ---- MSG: what the broker keeps and assigns ----
                row("MSG-2 a message sent without a message id gets a GUID of 32 hex digits", (s, st) -> {
                    s.ns.createQueue("q");
                    s.clients.sender("q").sendMessage(new ServiceBusMessage("m"));
                    s.clients.sender("q").sendMessage(new ServiceBusMessage("n").setMessageId("mine"));
                    ServiceBusReceiverClient r = s.receiver("q");
                    st.step("assigned id", () -> {
                        String id = one(r).getMessageId();
                        return id == null ? "null" : id.matches("[0-9a-f]{32}") ? "guid" : "other:" + id;
                    });
                    st.step("own id", () -> one(r).getMessageId());
                    st.expect(0, "ok guid");
                    st.expect(1, "ok mine");
                }),
                row("MSG-1 the AMQP header and properties a sender sets come back with their types", (s, st) -> {
                    s.ns.createQueue("q");
                    ServiceBusMessage m = new ServiceBusMessage("m");
                    var raw = m.getRawAmqpMessage();
                    raw.getHeader().setPriority((short) 7).setDurable(true).setFirstAcquirer(true);
                    raw.getProperties()
                            .setContentEncoding("gzip")
                            .setGroupSequence(3L)
                            .setUserId("u".getBytes(StandardCharsets.UTF_8))
                            .setCreationTime(START.atOffset(ZoneOffset.UTC));
                    s.clients.sender("q").sendMessage(m);
                    st.step("fields", () -> {
                        var got = one(s.receiver("q")).getRawAmqpMessage();
                        return "priority=" + got.getHeader().getPriority() + " durable="
                                + got.getHeader().isDurable()
                                + " firstAcquirer=" + got.getHeader().isFirstAcquirer()
                                + " encoding=" + got.getProperties().getContentEncoding()
                                + " groupSequence=" + got.getProperties().getGroupSequence()
                                + " userId="
                                + new String(got.getProperties().getUserId(), StandardCharsets.UTF_8)
                                + " created="
                                + got.getProperties().getCreationTime().toInstant();
                    });
                    st.expect(
                            0,
                            "ok priority=7 durable=true firstAcquirer=true encoding=gzip groupSequence=3 userId=u"
                                    + " created=" + START);
                }));
    }

    // ---- the machinery ----

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    @DisplayName("AMQP both ways in give production's result")
    void parity(String name, Scenario scenario) {
        List<String> inProcess = runOn(false, scenario);
        List<String> overAmqp = runOn(true, scenario);
        assertEquals(
                String.join("\n", overAmqp),
                String.join("\n", inProcess),
                name + ": the in-process clients differ from the SDK over the wire");
    }

    /**
     * PAR-5's steps on queue {@code q}: a message sent, received in receive-and-delete mode (shown by {@code shown}),
     * its lock renewed and completed (both refused: there is no lock), and peeked for (gone).
     */
    private static void receiveAndDeleteThenSettle(
            Side s, Steps st, Function<ServiceBusReceivedMessage, String> shown) {
        s.clients.sender("q").sendMessage(new ServiceBusMessage("m"));
        ServiceBusReceiverClient r = s.receiver("q", ServiceBusReceiveMode.RECEIVE_AND_DELETE);
        List<ServiceBusReceivedMessage> got = new ArrayList<>();
        st.step("receive", () -> {
            r.receiveMessages(1, WAIT).forEach(got::add);
            return got.stream().map(shown).toList();
        });
        st.step("renew", () -> r.renewMessageLock(got.get(0)) == null ? "null" : "renewed");
        st.step("complete", () -> run(() -> r.complete(got.get(0))));
        st.step(
                "peek",
                () -> s.clients
                                        .receiver(EntityPath.queue("q"), ServiceBusReceiveMode.PEEK_LOCK)
                                        .peekMessage(got.get(0).getSequenceNumber())
                                == null
                        ? "gone"
                        : "there");
    }

    private static Arguments row(String name, Scenario scenario) {
        return Arguments.of(name, scenario);
    }

    private static List<String> runOn(boolean amqp, Scenario scenario) {
        Steps steps = new Steps(amqp);
        try (Side side = new Side(amqp)) {
            scenario.run(side, steps);
        } catch (Exception e) {
            throw new AssertionError((amqp ? "over AMQP" : "in process") + ": the scenario itself failed", e);
        }
        return steps.recorded;
    }

    /** One way in: a fresh namespace, and its clients (over an endpoint for {@code amqp}). */
    static final class Side implements AutoCloseable {
        final Namespace ns = Namespace.builder().startingAt(START).build();
        final boolean amqp;
        final ServiceBusEmulatorServer server;
        final EmulatorClients clients;
        private final List<EmulatorClients> others = new ArrayList<>();

        Side(boolean amqp) {
            this.amqp = amqp;
            this.server = amqp ? ServiceBusEmulatorServer.start(ns) : null;
            this.clients = newClients();
        }

        private EmulatorClients newClients() {
            return amqp ? EmulatorClients.connectingTo(ns, server.getConnectionString()) : EmulatorClients.of(ns);
        }

        /** Clients of a second builder: a second AMQP connection. */
        EmulatorClients otherBuilder() {
            EmulatorClients other = newClients();
            others.add(other);
            return other;
        }

        ServiceBusReceiverClient receiver(String queue) {
            return clients.receiver(EntityPath.queue(queue), ServiceBusReceiveMode.PEEK_LOCK);
        }

        ServiceBusReceiverClient receiver(String queue, ServiceBusReceiveMode mode) {
            return clients.receiver(EntityPath.queue(queue), mode);
        }

        ServiceBusSessionReceiverClient sessionReceiver(String queue) {
            return clients.sessionReceiver(EntityPath.queue(queue), ServiceBusReceiveMode.PEEK_LOCK);
        }

        EntityRuntimeInfo counts(String queue) {
            return ns.runtimeInfo(EntityPath.queue(queue));
        }

        @Override
        public void close() {
            others.forEach(EmulatorClients::close);
            clients.close();
            if (server != null) {
                server.close();
            }
            ns.close();
        }
    }

    /** What a row's calls gave, step by step. */
    static final class Steps {
        final boolean amqp;
        final List<String> recorded = new ArrayList<>();

        Steps(boolean amqp) {
            this.amqp = amqp;
        }

        /** Runs {@code call} and records its value, or the exception it threw. */
        void step(String name, Callable<Object> call) {
            String outcome;
            try {
                outcome = "ok " + call.call();
            } catch (Throwable t) {
                outcome = describe(t);
            }
            recorded.add(name + ": " + outcome);
        }

        /** Checks that step {@code index} (on both ways) recorded an outcome starting with {@code prefix}. */
        void expect(int index, String prefix) {
            String outcome = recorded.get(index);
            String value = outcome.substring(outcome.indexOf(": ") + 2);
            assertTrue(
                    value.startsWith(prefix),
                    (amqp ? "over AMQP" : "in process") + ", step " + index + " gave " + outcome + ", expected "
                            + prefix);
        }
    }

    /** An exception as compared: class, reason, transience and condition, message where the SDK fixes it, causes. */
    static String describe(Throwable t) {
        StringBuilder b = new StringBuilder();
        for (Throwable e = t; e != null; e = e.getCause()) {
            if (e != t) {
                b.append(" <- ");
            }
            b.append(e.getClass().getSimpleName());
            if (e instanceof ServiceBusException sb) {
                b.append('[')
                        .append(sb.getReason())
                        .append(", transient=")
                        .append(sb.isTransient())
                        .append(']');
            } else if (e instanceof AmqpException amqp) {
                b.append('[')
                        .append(
                                amqp.getErrorCondition() == null
                                        ? null
                                        : amqp.getErrorCondition().getErrorCondition())
                        .append(", transient=")
                        .append(amqp.isTransient())
                        .append(']');
            } else if (e.getClass() == RuntimeException.class
                    || e instanceof IllegalArgumentException
                    || e instanceof IllegalStateException) {
                b.append("(\"").append(e.getMessage()).append("\")");
            }
        }
        return b.toString();
    }

    // ---- helpers for rows ----

    interface Call {
        void run() throws Exception;
    }

    static String run(Call call) throws Exception {
        call.run();
        return "done";
    }

    static ServiceBusReceivedMessage one(ServiceBusReceiverClient receiver) {
        return receiver.receiveMessages(1, Duration.ofSeconds(10)).iterator().next();
    }

    static List<String> receive(ServiceBusReceiverClient receiver, int n, Duration wait) {
        List<String> got = new ArrayList<>();
        receiver.receiveMessages(n, wait).forEach(m -> got.add(received(m)));
        return got;
    }

    /**
     * Starts {@code receive} on another thread, waits until it waits in the broker ({@code entity}'s waiting
     * receivers), runs {@code change}, and records how the receive ended and whether it ended before its maxWait
     * ({@link #WAITING_MAX}) ran out.
     */
    static void waitingThenEnded(Side s, Steps st, EntityPath entity, Callable<Object> receive, Runnable change) {
        long[] started = new long[1];
        CompletableFuture<Object> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                started[0] = System.nanoTime();
                return receive.call();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(Duration.ofSeconds(20)).until(() -> s.ns.waitingReceivers(entity) >= 1);
        change.run();
        st.step("waiting receive", () -> {
            try {
                return waiting.get(90, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                throw e.getCause() instanceof Exception cause ? cause : e;
            }
        });
        // measured from the receive's start: one that ran out its maxWait took at least that long, however fast
        // the machine; one the change ended took a fraction of it, however slow
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started[0]);
        st.step(
                "ended before its maxWait",
                () -> tookMillis < WAITING_MAX.toMillis() ? "yes" : "no, after " + tookMillis + " ms");
    }

    static String body(ServiceBusReceivedMessage m) {
        return m.getBody().toString();
    }

    /** A received message as compared: body, sequence number, delivery count, and what kind of lock token. */
    static String received(ServiceBusReceivedMessage m) {
        String token = m.getLockToken();
        String kind = token == null ? "none" : new UUID(0, 0).toString().equals(token) ? "zero" : "token";
        return body(m) + "#" + m.getSequenceNumber() + "/dc=" + m.getDeliveryCount() + "/lock=" + kind;
    }

    /** The counts once the active count is {@code active} (within a few seconds: a link takes messages at its pace). */
    static String countsOnce(Side s, String queue, long active) {
        try {
            await().atMost(WAIT).until(() -> s.counts(queue).activeMessageCount() == active);
        } catch (ConditionTimeoutException notReached) {
            // recorded as they are
        }
        return counts(s.counts(queue));
    }

    static String counts(EntityRuntimeInfo info) {
        return "active=" + info.activeMessageCount() + " dead=" + info.deadLetterMessageCount() + " deferred="
                + info.deferredMessageCount();
    }
}
