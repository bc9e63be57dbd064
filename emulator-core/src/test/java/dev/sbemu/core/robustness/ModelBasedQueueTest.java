package dev.sbemu.core.robustness;

import static org.junit.jupiter.api.Assertions.fail;

import dev.sbemu.core.BrokerException;
import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.EntityRuntimeInfo;
import dev.sbemu.core.ErrorReason;
import dev.sbemu.core.Faults;
import dev.sbemu.core.Message;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.ReceiveMode;
import dev.sbemu.core.robustness.QueueModel.Expected;
import dev.sbemu.core.robustness.QueueModel.Msg;
import dev.sbemu.core.robustness.QueueModel.Settlement;
import dev.sbemu.core.robustness.QueueModel.Where;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Random operations on one queue, run against the core and against {@link QueueModel}; after every
 * step the outcome of the operation, the runtime counts and the full contents of the queue and its
 * dead-letter queue (by peeking) must agree. A failure names the seed and the shortest failing
 * sequence of operations found by replaying shorter sequences.
 *
 * <p>Knobs (system properties): {@code sbemu.model.seeds} (default 200), {@code sbemu.model.steps}
 * (default 500), {@code sbemu.model.seed} (the first seed, default 1; set it with seeds=1 to replay
 * one failure).
 */
class ModelBasedQueueTest {
    private static final int SEEDS = Integer.getInteger("sbemu.model.seeds", 200);
    private static final int STEPS = Integer.getInteger("sbemu.model.steps", 500);
    private static final long FIRST_SEED = Long.getLong("sbemu.model.seed", 1L);
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final String QUEUE = "q";
    private static final EntityPath MAIN = EntityPath.queue(QUEUE);
    private static final EntityPath DLQ = MAIN.deadLetter();

    @Test
    @DisplayName("TTL-2 TTL-3 TTL-4 TTL-5 TTL-6 TTL-9 TTL-10 TTL-14 TTL-15 SEQ-2 SEQ-3 SCH-2 SCH-3 SCH-4 SCH-6 "
            + "LOCK-1 LOCK-2 DLQ-1 DLQ-2 DLQ-3 DLQ-4 DLQ-5 PEEK-1 CLK-2 model-based: seeded random queue operations "
            + "agree with a reference model after every step")
    void coreAgreesWithModel() {
        check(false);
    }

    private static void check(boolean faults) {
        for (long seed = FIRST_SEED; seed < FIRST_SEED + SEEDS; seed++) {
            Run run = Run.generate(seed, STEPS, faults);
            Failure failure = run.execute(run.ops);
            if (failure != null) {
                List<Op> shortest = shrink(run, run.ops.subList(0, failure.step + 1));
                Failure shrunk = run.execute(shortest);
                StringBuilder text = new StringBuilder()
                        .append("seed ")
                        .append(seed)
                        .append(" (replay: -Dsbemu.model.seed=")
                        .append(seed)
                        .append(" -Dsbemu.model.seeds=1)\n")
                        .append("queue: ")
                        .append(run.config)
                        .append('\n')
                        .append("failed at step ")
                        .append(failure.step)
                        .append(" of the generated sequence: ")
                        .append(failure.message)
                        .append('\n')
                        .append("shortest failing sequence (")
                        .append(shortest.size())
                        .append(" steps):\n");
                for (int i = 0; i < shortest.size(); i++) {
                    text.append(String.format("  %3d  %s%n", i, shortest.get(i)));
                }
                text.append("which fails at step ")
                        .append(shrunk.step)
                        .append(": ")
                        .append(shrunk.message);
                fail(text.toString());
            }
        }
    }

    @Test
    @DisplayName("FLT-2 FLT-3 model-based: injected failures and lost locks lose no message and deliver none twice; "
            + "a failed operation has no effect, a lost lock ends the delivery as its expiry does")
    void coreAgreesWithModelUnderInjectedFaults() {
        check(true);
    }

    /** Drops operations one at a time, from the end, keeping each removal after which the run still fails. */
    private static List<Op> shrink(Run run, List<Op> failing) {
        List<Op> current = new ArrayList<>(failing);
        boolean changed = true;
        for (int pass = 0; pass < 3 && changed; pass++) {
            changed = false;
            for (int i = current.size() - 2; i >= 0; i--) {
                List<Op> candidate = new ArrayList<>(current);
                candidate.remove(i);
                Failure f = run.execute(candidate);
                if (f != null) {
                    current = new ArrayList<>(candidate.subList(0, f.step + 1));
                    changed = true;
                    i = Math.min(i, current.size() - 1);
                }
            }
        }
        return current;
    }

    record Failure(int step, String message) {}

    // ---- operations -------------------------------------------------------------------------------

    /** One step. Messages are named by id and locks by (id, generation), so a sequence can be replayed with steps removed. */
    sealed interface Op {}

    record Send(String id, Duration ttl, Duration scheduleIn) implements Op {
        @Override
        public String toString() {
            return "send " + id + (ttl == null ? "" : " ttl=" + ttl)
                    + (scheduleIn == null ? "" : " scheduledEnqueueTime=now+" + scheduleIn);
        }
    }

    record Schedule(String id, Duration ttl, Duration in) implements Op {
        @Override
        public String toString() {
            return "schedule " + id + (ttl == null ? "" : " ttl=" + ttl) + " at now+" + in;
        }
    }

    record Cancel(String id) implements Op {
        @Override
        public String toString() {
            return "cancelScheduled(sequence number " + id + " was scheduled with)";
        }
    }

    record Receive(Where where, ReceiveMode mode, int max) implements Op {
        @Override
        public String toString() {
            return "receive " + (where == Where.DLQ ? "DLQ " : "") + mode + " max=" + max;
        }
    }

    record Settle(
            Settlement kind,
            Where where,
            String id,
            int generation,
            Map<String, Object> properties,
            String reason,
            String description)
            implements Op {
        @Override
        public String toString() {
            return kind + " " + (where == Where.DLQ ? "DLQ " : "") + id + " lock#" + generation
                    + (properties.isEmpty() ? "" : " props=" + properties)
                    + (kind == Settlement.DEAD_LETTER ? " reason=" + reason + " description=" + description : "");
        }
    }

    record ReceiveDeferred(ReceiveMode mode, List<String> ids) implements Op {
        @Override
        public String toString() {
            return "receiveDeferred " + mode + " " + ids;
        }
    }

    record Peek(Where where, long from, int max) implements Op {
        @Override
        public String toString() {
            return "peek " + (where == Where.DLQ ? "DLQ " : "") + "from #" + from + " max=" + max;
        }
    }

    /** FLT-2: the next operation of a kind on the queue fails. */
    record Inject(Faults.Operation operation, Faults.Failure failure) implements Op {
        @Override
        public String toString() {
            return "inject: next " + operation + " fails with " + failure;
        }
    }

    /** FLT-3: the lock named by (id, generation) is lost now. */
    record LoseLock(Where where, String id, int generation) implements Op {
        @Override
        public String toString() {
            return "lose lock " + (where == Where.DLQ ? "DLQ " : "") + id + " lock#" + generation;
        }
    }

    record Advance(Duration by) implements Op {
        @Override
        public String toString() {
            return "advance " + by;
        }
    }

    // ---- one seed ---------------------------------------------------------------------------------

    static final class Run {
        final QueueModel.Config config;
        final List<Op> ops;

        private Run(QueueModel.Config config, List<Op> ops) {
            this.config = config;
            this.ops = ops;
        }

        private static final Duration[] LOCKS = {Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofSeconds(60)};
        private static final int[] MAX_DELIVERIES = {1, 2, 3, 10};
        private static final Duration[] DEFAULT_TTLS = {
            null, null, Duration.ofSeconds(20), Duration.ofMinutes(3), Duration.ofMinutes(10)
        };
        private static final Duration[] TTLS = {
            Duration.ofSeconds(1),
            Duration.ofSeconds(5),
            Duration.ofSeconds(30),
            Duration.ofSeconds(60),
            Duration.ofSeconds(61),
            Duration.ofMinutes(5),
            Duration.ofMinutes(20)
        };

        /** Generates {@code steps} operations, choosing each from the model's state after the previous ones. */
        static Run generate(long seed, int steps, boolean faults) {
            SplittableRandom random = new SplittableRandom(seed);
            QueueModel.Config config = new QueueModel.Config(
                    pick(random, LOCKS),
                    MAX_DELIVERIES[random.nextInt(4)],
                    pick(random, DEFAULT_TTLS),
                    random.nextBoolean());
            QueueModel model = new QueueModel(config, T0);
            List<Op> ops = new ArrayList<>(steps);
            List<Settle> issuedLocks = new ArrayList<>();
            int nextId = 0;
            for (int step = 0; step < steps; step++) {
                Op op = choose(random, model, config, step, nextId, issuedLocks, faults);
                if (op instanceof Send || op instanceof Schedule) {
                    nextId++;
                }
                ops.add(op);
                Run.apply(model, op, null);
                if (op instanceof Receive || op instanceof ReceiveDeferred) {
                    for (Msg m : model.messages) {
                        if (m.locked
                                && issuedLocks.stream()
                                        .noneMatch(s -> s.id.equals(m.id) && s.generation == m.generation)) {
                            issuedLocks.add(
                                    new Settle(Settlement.COMPLETE, m.where, m.id, m.generation, Map.of(), null, null));
                        }
                    }
                }
            }
            return new Run(config, ops);
        }

        private static <T> T pick(SplittableRandom random, T[] values) {
            return values[random.nextInt(values.length)];
        }

        private static Duration ttl(SplittableRandom random) {
            int r = random.nextInt(10);
            if (r < 4) {
                return null;
            }
            if (r < 8) {
                return pick(random, TTLS);
            }
            return Duration.ofMillis(1000 + random.nextInt(600_000));
        }

        private static final Faults.Operation[] FAULTED = {
            Faults.Operation.SEND, Faults.Operation.RECEIVE, Faults.Operation.SETTLE, Faults.Operation.RENEW_LOCK
        };
        private static final Faults.Failure[] FAILURES = {
            Faults.Failure.SERVICE_BUSY,
            Faults.Failure.SERVICE_TIMEOUT,
            Faults.Failure.QUOTA_EXCEEDED,
            Faults.Failure.ENTITY_DISABLED,
            Faults.Failure.MESSAGE_LOCK_LOST,
            Faults.Failure.MESSAGE_LOCK_LOST
        };

        private static Op choose(
                SplittableRandom random,
                QueueModel model,
                QueueModel.Config config,
                int step,
                int nextId,
                List<Settle> issuedLocks,
                boolean faults) {
            String id = "m" + nextId;
            int r = random.nextInt(100);
            if (r < 14) {
                Duration in = random.nextInt(8) == 0 ? Duration.ofMillis(random.nextInt(120_000) - 20_000) : null;
                return new Send(id, ttl(random), in);
            }
            if (r < 20) {
                Duration in = switch (random.nextInt(5)) {
                    case 0 -> Duration.ZERO;
                    case 1 -> Duration.ofSeconds(-5);
                    case 2 -> Duration.ofMillis(1);
                    default -> Duration.ofMillis(random.nextInt(600_000));
                };
                return new Schedule(id, ttl(random), in);
            }
            if (r < 23) {
                return new Cancel(anyId(random, model));
            }
            if (r < 37) {
                return new Receive(Where.MAIN, ReceiveMode.PEEK_LOCK, 1 + random.nextInt(4));
            }
            if (r < 41) {
                return new Receive(Where.MAIN, ReceiveMode.RECEIVE_AND_DELETE, 1 + random.nextInt(3));
            }
            if (r < 44) {
                return new Receive(
                        Where.DLQ,
                        random.nextBoolean() ? ReceiveMode.PEEK_LOCK : ReceiveMode.RECEIVE_AND_DELETE,
                        1 + random.nextInt(3));
            }
            if (r < 70) {
                return settle(random, model, step, issuedLocks);
            }
            if (r < 75) {
                List<String> ids = new ArrayList<>();
                int n = 1 + random.nextInt(3);
                List<Msg> deferred = new ArrayList<>();
                for (Msg m : model.messages) {
                    if (m.where == Where.MAIN && m.state == QueueModel.State.DEFERRED) {
                        deferred.add(m);
                    }
                }
                for (int i = 0; i < n; i++) {
                    ids.add(
                            !deferred.isEmpty() && random.nextInt(4) > 0
                                    ? deferred.get(random.nextInt(deferred.size())).id
                                    : anyId(random, model));
                }
                return new ReceiveDeferred(
                        random.nextBoolean() ? ReceiveMode.PEEK_LOCK : ReceiveMode.RECEIVE_AND_DELETE, ids);
            }
            if (r < 81 && faults) {
                return new Inject(pick(random, FAULTED), pick(random, FAILURES));
            }
            if (r < 83 && faults) {
                Settle lock = (Settle) settle(random, model, step, issuedLocks);
                return new LoseLock(lock.where, lock.id, lock.generation);
            }
            if (r < 79 || r < 83 && !faults) {
                return new Peek(
                        random.nextInt(4) == 0 ? Where.DLQ : Where.MAIN,
                        random.nextInt(Math.max(1, nextId + 3)),
                        1 + random.nextInt(10));
            }
            return new Advance(span(random, model, config));
        }

        private static String anyId(SplittableRandom random, QueueModel model) {
            if (model.messages.isEmpty() || random.nextInt(10) == 0) {
                return "unknown";
            }
            return model.messages.get(random.nextInt(model.messages.size())).id;
        }

        private static Op settle(SplittableRandom random, QueueModel model, int step, List<Settle> issuedLocks) {
            Settlement kind = switch (random.nextInt(20)) {
                case 0, 1, 2, 3, 4, 5 -> Settlement.COMPLETE;
                case 6, 7, 8, 9 -> Settlement.ABANDON;
                case 10, 11, 12 -> Settlement.DEFER;
                case 13, 14, 15 -> Settlement.DEAD_LETTER;
                default -> Settlement.RENEW;
            };
            List<Msg> locked = new ArrayList<>();
            for (Msg m : model.messages) {
                if (m.locked) {
                    locked.add(m);
                }
            }
            String id;
            int generation;
            Where where;
            if (!locked.isEmpty() && random.nextInt(4) > 0) {
                Msg m = locked.get(random.nextInt(locked.size()));
                id = m.id;
                generation = m.generation;
                where = m.where;
            } else if (!issuedLocks.isEmpty()) {
                Settle old = issuedLocks.get(random.nextInt(issuedLocks.size()));
                id = old.id;
                generation = old.generation;
                where = old.where;
            } else {
                id = "unknown";
                generation = 1;
                where = Where.MAIN;
            }
            Map<String, Object> properties =
                    random.nextInt(3) == 0 && kind != Settlement.COMPLETE && kind != Settlement.RENEW
                            ? Map.of("step", step, "note", "s" + step)
                            : Map.of();
            String reason = null;
            String description = null;
            if (kind == Settlement.DEAD_LETTER) {
                int r = random.nextInt(4);
                reason = r == 0 ? null : "reason-" + step;
                description = r == 1 ? null : "description-" + step;
            }
            return new Settle(kind, where, id, generation, properties, reason, description);
        }

        private static Duration span(SplittableRandom random, QueueModel model, QueueModel.Config config) {
            int r = random.nextInt(12);
            List<Instant> due = model.dueInstants();
            if (r < 4 && !due.isEmpty()) {
                Instant at = due.get(random.nextInt(due.size()));
                Duration exact = Duration.between(model.now, at);
                Duration by = switch (random.nextInt(3)) {
                    case 0 -> exact;
                    case 1 -> exact.minusMillis(1);
                    default -> exact.plusMillis(1);
                };
                return by.isNegative() ? Duration.ZERO : by;
            }
            return switch (r) {
                case 4 -> Duration.ZERO;
                case 5 -> Duration.ofMillis(1 + random.nextInt(1000));
                case 6 -> config.lockDuration();
                case 7 -> config.lockDuration().plusMillis(random.nextInt(3) - 1);
                case 8 ->
                    Duration.ofMillis(random.nextLong(2 * config.lockDuration().toMillis()));
                case 9 -> Duration.ofMillis(random.nextLong(900_000));
                default -> Duration.ofSeconds(1 + random.nextInt(30));
            };
        }

        // ---- execution ------------------------------------------------------------------------

        /** Runs {@code sequence} against a fresh namespace and a fresh model; the first disagreement, or null. */
        Failure execute(List<Op> sequence) {
            QueueModel model = new QueueModel(config, T0);
            Map<String, UUID> tokens = new HashMap<>();
            try (Namespace ns =
                    Namespace.builder().startingAt(T0).journalCapacity(64).build()) {
                QueueOptions.Builder options = QueueOptions.builder()
                        .lockDuration(config.lockDuration())
                        .maxDeliveryCount(config.maxDeliveryCount())
                        .deadLetteringOnMessageExpiration(config.deadLetterOnExpiry());
                if (config.defaultTtl() != null) {
                    options.defaultMessageTimeToLive(config.defaultTtl());
                }
                ns.createQueue(QUEUE, options.build());
                for (int step = 0; step < sequence.size(); step++) {
                    Op op = sequence.get(step);
                    String problem;
                    try {
                        problem = step(ns, model, op, tokens);
                        if (problem == null) {
                            problem = compareState(ns, model);
                        }
                    } catch (RuntimeException | AssertionError e) {
                        problem = "unexpected " + e;
                    }
                    if (problem != null) {
                        return new Failure(
                                step,
                                problem + "\n  journal tail:\n"
                                        + indent(ns.journal().format()));
                    }
                }
            }
            return null;
        }

        private static String indent(String text) {
            return "    " + text.strip().replace("\n", "\n    ");
        }

        /** Applies {@code op} to the model; the core's outcome is compared by {@link #step}. */
        static Object apply(QueueModel model, Op op, List<Long> resolvedSeqs) {
            Faults.Operation kind = kindOf(op);
            QueueModel.PendingFault fault = kind == null ? null : model.takeFault(kind);
            if (fault != null) {
                if (fault.failure() == Faults.Failure.MESSAGE_LOCK_LOST && op instanceof Settle s) {
                    model.loseLock(s.where, s.id, s.generation);
                }
                return "FAULT " + reasonOf(fault.failure());
            }
            if (op instanceof Inject i) {
                model.pendingFaults.add(new QueueModel.PendingFault(i.operation, i.failure));
                return null;
            }
            if (op instanceof LoseLock l) {
                return model.loseLock(l.where, l.id, l.generation) ? null : "NO_LOCK";
            }
            try {
                if (op instanceof Send s) {
                    if (s.scheduleIn != null) {
                        return model.schedule(s.id, s.ttl, model.now.plus(s.scheduleIn));
                    }
                    model.send(s.id, s.ttl);
                    return null;
                }
                if (op instanceof Schedule s) {
                    return model.schedule(s.id, s.ttl, model.now.plus(s.in));
                }
                if (op instanceof Cancel c) {
                    model.cancel(scheduledSeq(model, c.id));
                    return null;
                }
                if (op instanceof Receive r) {
                    return describe(model.receive(r.where, r.mode == ReceiveMode.PEEK_LOCK, r.max), model, true);
                }
                if (op instanceof Settle s) {
                    return model.settle(s.kind, s.where, s.id, s.generation, s.properties, s.reason, s.description);
                }
                if (op instanceof ReceiveDeferred r) {
                    List<Long> seqs = resolvedSeqs != null ? resolvedSeqs : deferredSeqs(model, r.ids);
                    return describe(model.receiveDeferred(r.mode == ReceiveMode.PEEK_LOCK, seqs), model, true);
                }
                if (op instanceof Peek p) {
                    return describe(model.peek(p.where, p.from, p.max), model, false);
                }
                model.advance(((Advance) op).by);
                return null;
            } catch (Expected e) {
                return e.failure;
            }
        }

        /** The kind of operation a fault scripted for it targets; null for those the model never faults. */
        private static Faults.Operation kindOf(Op op) {
            if (op instanceof Send || op instanceof Schedule) {
                return Faults.Operation.SEND;
            }
            if (op instanceof Receive || op instanceof ReceiveDeferred) {
                return Faults.Operation.RECEIVE;
            }
            if (op instanceof Settle s) {
                return s.kind == Settlement.RENEW ? Faults.Operation.RENEW_LOCK : Faults.Operation.SETTLE;
            }
            return null;
        }

        private static ErrorReason reasonOf(Faults.Failure failure) {
            return switch (failure) {
                case SERVICE_BUSY -> ErrorReason.SERVICE_BUSY;
                case SERVICE_TIMEOUT -> ErrorReason.SERVICE_TIMEOUT;
                case QUOTA_EXCEEDED -> ErrorReason.QUOTA_EXCEEDED;
                case ENTITY_DISABLED -> ErrorReason.ENTITY_DISABLED;
                case MESSAGE_LOCK_LOST -> ErrorReason.MESSAGE_LOCK_LOST;
                default -> throw new IllegalArgumentException("not generated: " + failure);
            };
        }

        /** The number a message was scheduled with (still valid only while it is scheduled, SCH-4). */
        private static long scheduledSeq(QueueModel model, String id) {
            Msg m = model.byId(id);
            return m == null ? 999_999 : m.seq;
        }

        private static List<Long> deferredSeqs(QueueModel model, List<String> ids) {
            List<Long> seqs = new ArrayList<>();
            for (String id : ids) {
                Msg m = model.byId(id);
                seqs.add(m == null ? 999_999L : m.seq);
            }
            return seqs;
        }

        private String step(Namespace ns, QueueModel model, Op op, Map<String, UUID> tokens) {
            Object actual;
            Object expected;
            lastReceived = List.of();
            if (op instanceof Cancel c) {
                long seq = scheduledSeq(model, c.id);
                expected = apply(model, op, null);
                actual = outcome(() -> {
                    ns.cancelScheduled(QUEUE, seq);
                    return null;
                });
            } else if (op instanceof ReceiveDeferred r) {
                List<Long> seqs = deferredSeqs(model, r.ids);
                expected = apply(model, op, seqs);
                actual = outcome(() -> describe(ns.receiveDeferred(MAIN, r.mode, seqs), model));
                record(ns, model, actual, expected, tokens, lastReceived);
            } else if (op instanceof Receive r) {
                expected = apply(model, op, null);
                actual = outcome(() -> describe(ns.receive(r.where == Where.DLQ ? DLQ : MAIN, r.mode, r.max), model));
                record(ns, model, actual, expected, tokens, lastReceived);
            } else if (op instanceof Settle s) {
                UUID token = tokens.getOrDefault(s.id + "#" + s.generation, new UUID(0, s.generation));
                EntityPath path = s.where == Where.DLQ ? DLQ : MAIN;
                expected = apply(model, op, null);
                actual = outcome(() -> switch (s.kind) {
                    case COMPLETE -> {
                        ns.complete(path, token);
                        yield null;
                    }
                    case ABANDON -> {
                        ns.abandon(path, token, s.properties);
                        yield null;
                    }
                    case DEFER -> {
                        ns.defer(path, token, s.properties);
                        yield null;
                    }
                    case DEAD_LETTER -> {
                        ns.deadLetter(path, token, s.reason, s.description, s.properties);
                        yield null;
                    }
                    case RENEW -> ns.renewLock(path, token);
                });
            } else if (op instanceof Send s) {
                Message.Builder b = Message.builder().messageId(s.id).body(s.id).timeToLive(s.ttl);
                if (s.scheduleIn != null) {
                    b.scheduledEnqueueTime(model.now.plus(s.scheduleIn));
                }
                expected = apply(model, op, null);
                actual = outcome(() -> {
                    ns.send(QUEUE, b.build());
                    return null;
                });
                if (expected instanceof Long) {
                    expected = null; // send does not return the number; peek checks it
                }
            } else if (op instanceof Schedule s) {
                Instant at = model.now.plus(s.in);
                expected = apply(model, op, null);
                actual = outcome(() -> ns.schedule(
                        QUEUE,
                        Message.builder()
                                .messageId(s.id)
                                .body(s.id)
                                .timeToLive(s.ttl)
                                .build(),
                        at));
            } else if (op instanceof Inject i) {
                expected = apply(model, op, null);
                actual = outcome(() -> {
                    ns.faults().onAnyEntity().failNext(1, i.operation, i.failure);
                    return null;
                });
            } else if (op instanceof LoseLock l) {
                UUID token = tokens.getOrDefault(l.id + "#" + l.generation, new UUID(0, l.generation));
                expected = apply(model, op, null);
                actual = outcome(() -> {
                    try {
                        ns.faults().loseLock(l.where == Where.DLQ ? DLQ : MAIN, token);
                        return null;
                    } catch (IllegalArgumentException noLock) {
                        return "NO_LOCK";
                    }
                });
            } else if (op instanceof Peek p) {
                expected = apply(model, op, null);
                actual = outcome(() -> describe(ns.peek(p.where == Where.DLQ ? DLQ : MAIN, p.from, p.max), model));
            } else {
                expected = apply(model, op, null);
                actual = outcome(() -> {
                    ns.clock().advance(((Advance) op).by);
                    return null;
                });
                if (!ns.clock().instant().equals(model.now)) {
                    return "clock at " + ns.clock().instant() + ", model at " + model.now;
                }
            }
            if (!Objects.equals(expected, actual)) {
                return op + "\n  expected: " + expected + "\n  actual:   " + actual;
            }
            return null;
        }

        private List<BrokeredMessage> lastReceived = List.of();

        /** Remembers the lock tokens the core handed out, under the (id, generation) the model gave them. */
        private void record(
                Namespace ns,
                QueueModel model,
                Object actual,
                Object expected,
                Map<String, UUID> tokens,
                List<BrokeredMessage> received) {
            if (!Objects.equals(expected, actual)) {
                return;
            }
            for (BrokeredMessage m : received) {
                if (m.lockToken() != null) {
                    Msg modelled = model.byId(m.message().messageId());
                    tokens.put(modelled.id + "#" + modelled.generation, m.lockToken());
                }
            }
        }

        private interface Action {
            Object run();
        }

        /** The value, or the kind of failure, an operation on the core produced. */
        private static Object outcome(Action action) {
            try {
                return action.run();
            } catch (BrokerException e) {
                if (e.getMessage().contains("(injected fault")) {
                    return "FAULT " + e.reason();
                }
                return switch (e.reason()) {
                    case MESSAGE_LOCK_LOST -> QueueModel.Failure.LOCK_LOST;
                    case MESSAGE_NOT_FOUND -> QueueModel.Failure.NOT_FOUND;
                    case INVALID_OPERATION -> QueueModel.Failure.INVALID_OPERATION;
                    default -> throw e;
                };
            }
        }

        private List<String> describe(List<BrokeredMessage> messages, QueueModel model) {
            lastReceived = messages;
            List<String> lines = new ArrayList<>();
            for (BrokeredMessage m : messages) {
                lines.add(line(
                        m.message().messageId(),
                        m.sequenceNumber(),
                        m.state().name(),
                        m.deliveryCount(),
                        m.enqueuedTime(),
                        m.timeToLive(),
                        m.expiresAt(),
                        m.lockedUntil(),
                        m.message().applicationProperties(),
                        model.start));
            }
            return lines;
        }

        private static List<String> describe(List<Msg> messages, QueueModel model, boolean withLock) {
            List<String> lines = new ArrayList<>();
            for (Msg m : messages) {
                lines.add(line(
                        m.id,
                        m.seq,
                        m.state.name(),
                        m.deliveryCount,
                        m.enqueued,
                        m.effectiveTtl,
                        m.expiresAt,
                        withLock && m.locked ? m.lockedUntil : null,
                        m.properties,
                        model.start));
            }
            return lines;
        }

        /** A message's observable state in one line; the enqueued time of a scheduled message is not specified. */
        private static String line(
                String id,
                long seq,
                String state,
                int deliveryCount,
                Instant enqueued,
                Duration ttl,
                Instant expiresAt,
                Instant lockedUntil,
                Map<String, Object> properties,
                Instant start) {
            StringBuilder b = new StringBuilder()
                    .append(id)
                    .append(" #")
                    .append(seq)
                    .append(' ')
                    .append(state)
                    .append(" dc=")
                    .append(deliveryCount);
            if (!"SCHEDULED".equals(state)) {
                b.append(" enq=")
                        .append(offset(enqueued, start))
                        .append(" ttl=")
                        .append(ttl)
                        .append(" exp=")
                        .append(offset(expiresAt, start));
            }
            if (lockedUntil != null) {
                b.append(" lockedUntil=").append(offset(lockedUntil, start));
            }
            if (!properties.isEmpty()) {
                b.append(' ').append(new TreeMap<>(properties));
            }
            return b.toString();
        }

        private static String offset(Instant at, Instant start) {
            return at == null ? "never" : "+" + Duration.between(start, at).toMillis() + "ms";
        }

        /** Counts (runtime info) and the full contents of the queue and its dead-letter queue (peek). */
        private String compareState(Namespace ns, QueueModel model) {
            EntityRuntimeInfo info = ns.runtimeInfo(MAIN);
            String actualCounts = "active=" + info.activeMessageCount() + " deferred=" + info.deferredMessageCount()
                    + " scheduled=" + info.scheduledMessageCount() + " deadLetter=" + info.deadLetterMessageCount()
                    + " transferDeadLetter=" + info.transferDeadLetterMessageCount();
            String expectedCounts = "active=" + model.count(Where.MAIN, QueueModel.State.ACTIVE)
                    + " deferred=" + model.count(Where.MAIN, QueueModel.State.DEFERRED)
                    + " scheduled=" + model.count(Where.MAIN, QueueModel.State.SCHEDULED)
                    + " deadLetter=" + model.count(Where.DLQ, null) + " transferDeadLetter=0";
            if (!actualCounts.equals(expectedCounts)) {
                return "counts differ\n  expected: " + expectedCounts + "\n  actual:   " + actualCounts;
            }
            for (Where where : new Where[] {Where.MAIN, Where.DLQ}) {
                List<String> expected = describe(model.peek(where, 0, Integer.MAX_VALUE), model, false);
                List<String> actual = new ArrayList<>();
                long from = 0;
                while (true) {
                    List<BrokeredMessage> page = ns.peek(where == Where.DLQ ? DLQ : MAIN, from, 250);
                    if (page.isEmpty()) {
                        break;
                    }
                    actual.addAll(describe(page, model));
                    from = page.get(page.size() - 1).sequenceNumber() + 1;
                }
                if (!expected.equals(actual)) {
                    return (where == Where.DLQ ? "dead-letter queue" : "queue") + " contents differ\n  expected: "
                            + String.join("\n            ", expected) + "\n  actual:   "
                            + String.join("\n            ", actual);
                }
            }
            return null;
        }
    }
}
