package dev.sbemu.amqp.internal;

import dev.sbemu.core.EntityPath;
import dev.sbemu.core.MessageOperations;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.SessionLock;
import dev.sbemu.core.Transaction;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.qpid.proton.amqp.Binary;
import org.apache.qpid.proton.amqp.transaction.TransactionalState;
import org.apache.qpid.proton.amqp.transport.DeliveryState;

/**
 * What every connection of one endpoint shares: the namespace, the key tokens are checked against, the
 * worker threads that wait in the broker on a link's behalf (a blocked receive, a pending session accept)
 * so the network thread never blocks, the open transactions, and the sessions the endpoint's links hold.
 * The namespace can be replaced while connections stay open ({@link #replaceNamespace}): links look it up
 * for every operation.
 */
final class EndpointContext implements AutoCloseable {
    private volatile Namespace namespace;
    private final String keyName;
    private final String key;
    private final boolean anyKey;
    private final EndpointOptions options;
    private final ThreadPoolExecutor workers;
    private final Map<Binary, Transaction> transactions = new ConcurrentHashMap<>();
    private final Map<Binary, List<Runnable>> rollbackActions = new ConcurrentHashMap<>();
    /** The transactions an operation joined (a declared transaction without one carries over, AMQP-16). */
    private final Set<Binary> used = ConcurrentHashMap.newKeySet();

    private final Map<String, SessionLock> sessions = new ConcurrentHashMap<>();
    private final Set<OutgoingLink> outgoing = ConcurrentHashMap.newKeySet();
    /** The links consuming from each JMS subscription (by its name, which holds the client id), over all connections. */
    private final Map<String, Integer> jmsConsumers = new ConcurrentHashMap<>();

    EndpointContext(Namespace namespace, String keyName, String key, EndpointOptions options, String name) {
        this(namespace, keyName, key, false, options, name);
    }

    /** @param anyKey whether a token signed with any key under any key name is accepted (Microsoft's emulator's way) */
    EndpointContext(
            Namespace namespace, String keyName, String key, boolean anyKey, EndpointOptions options, String name) {
        this.namespace = namespace;
        this.keyName = keyName;
        this.key = key;
        this.anyKey = anyKey;
        this.options = options;
        AtomicInteger count = new AtomicInteger();
        ThreadFactory threads = runnable -> {
            Thread t = new Thread(runnable, name + "-worker-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        // bounded: work past the limit is refused (RejectedExecutionException), never queued without end (AMQP-19)
        this.workers = new ThreadPoolExecutor(
                0,
                options.workerThreads(),
                60,
                TimeUnit.SECONDS,
                new SynchronousQueue<>(),
                threads,
                new ThreadPoolExecutor.AbortPolicy());
    }

    Namespace namespace() {
        return namespace;
    }

    private volatile HttpSplice httpSplice;

    /** Where connections that start with an HTTP request go, or null while there is none. */
    HttpSplice httpSplice() {
        return httpSplice;
    }

    void httpSplice(HttpSplice splice) {
        this.httpSplice = splice;
    }

    /**
     * Serves {@code next} from now on and returns the previous namespace (left open). Sessions held in the
     * previous one end there, and so do transactions that some operation joined; a transaction only declared
     * goes on under the same id as a fresh transaction of {@code next} (a JMS transacted session always holds one,
     * AMQP-16). Pumps waiting in the previous namespace are woken so that they wait in {@code next}.
     */
    Namespace replaceNamespace(Namespace next) {
        Namespace previous;
        synchronized (this) {
            previous = namespace;
            namespace = next;
        }
        endHeld(previous, next);
        outgoing.forEach(OutgoingLink::wakePump);
        return previous;
    }

    /**
     * Counts one more JMS consumer link on {@code subscription}; false (and nothing counted) when the subscription
     * already has one and either it or the new one is {@code exclusive} (an unshared subscription takes one consumer,
     * and a shared consumer cannot join one an unshared consumer holds, nor the reverse, JMS-17). An exclusive holder
     * is kept as -1.
     */
    boolean addJmsConsumer(String subscription, boolean exclusive) {
        boolean[] added = {true};
        jmsConsumers.compute(subscription, (k, n) -> {
            if (n != null && (exclusive || n < 0)) {
                added[0] = false;
                return n;
            }
            return n == null ? (exclusive ? -1 : 1) : n + 1;
        });
        return added[0];
    }

    /** Counts one JMS consumer link less on {@code subscription}; returns how many are left. */
    int removeJmsConsumer(String subscription) {
        Integer left = jmsConsumers.computeIfPresent(subscription, (k, n) -> n <= 1 ? null : n - 1);
        return left == null ? 0 : left;
    }

    /** How many JMS consumer links {@code subscription} has now. */
    int jmsConsumers(String subscription) {
        return Math.abs(jmsConsumers.getOrDefault(subscription, 0));
    }

    /** A receiver link whose pump is woken when the namespace is replaced. */
    void opened(OutgoingLink link) {
        outgoing.add(link);
    }

    void closed(OutgoingLink link) {
        outgoing.remove(link);
    }

    String keyName() {
        return keyName;
    }

    String key() {
        return key;
    }

    /** Whether tokens signed with any key are accepted (their form and expiry are still checked). */
    boolean anyKey() {
        return anyKey;
    }

    EndpointOptions options() {
        return options;
    }

    /** The number of worker threads alive (for tests and diagnostics). */
    int workerCount() {
        return workers.getPoolSize();
    }

    /**
     * Runs a task that may block in the broker; never on the loop thread.
     *
     * @throws java.util.concurrent.RejectedExecutionException when every worker thread is busy (AMQP-19)
     */
    void work(Runnable task) {
        workers.execute(task);
    }

    /** Registers a new transaction; its id is the 16 bytes of its UUID. */
    Binary declare(Transaction transaction) {
        UUID id = transaction.id();
        Binary txnId = new Binary(ByteBuffer.allocate(16)
                .putLong(id.getMostSignificantBits())
                .putLong(id.getLeastSignificantBits())
                .array());
        transactions.put(txnId, transaction);
        return txnId;
    }

    /**
     * Where an operation whose delivery has this state takes effect: the transaction the state joins, or the
     * namespace at once for a state outside a transaction.
     *
     * @throws UnknownTransaction when the state names a transaction this endpoint does not hold
     */
    MessageOperations target(DeliveryState state) {
        if (!(state instanceof TransactionalState transactional)) {
            return namespace();
        }
        Transaction transaction = transactional.getTxnId() == null ? null : transactions.get(transactional.getTxnId());
        if (transaction == null) {
            throw new UnknownTransaction();
        }
        used.add(transactional.getTxnId());
        return transaction;
    }

    Transaction discharge(Binary txnId) {
        if (txnId == null) {
            return null;
        }
        used.remove(txnId);
        return transactions.remove(txnId);
    }

    /**
     * Runs {@code action} if the transaction {@code state} joins is rolled back: a settlement the client settled on
     * its side (Qpid JMS's transacted acknowledgements) cannot be settled again, so its message is handed back on
     * rollback (JMS-8). Nothing for a state outside a transaction.
     */
    void onRollback(DeliveryState state, Runnable action) {
        if (state instanceof TransactionalState transactional
                && transactional.getTxnId() != null
                && transactions.containsKey(transactional.getTxnId())) {
            rollbackActions
                    .computeIfAbsent(transactional.getTxnId(), id -> new CopyOnWriteArrayList<>())
                    .add(action);
        }
    }

    /** Removes and returns the actions to run if the transaction {@code txnId} is rolled back. */
    List<Runnable> rollbackActions(Binary txnId) {
        List<Runnable> actions = txnId == null ? null : rollbackActions.remove(txnId);
        return actions == null ? List.of() : actions;
    }

    void holdSession(SessionLock lock) {
        sessions.put(sessionKey(lock.entity(), lock.sessionId()), lock);
    }

    void dropSession(SessionLock lock) {
        sessions.remove(sessionKey(lock.entity(), lock.sessionId()), lock);
    }

    /** The session a link of this endpoint holds, or null. */
    SessionLock session(EntityPath entity, String sessionId) {
        return sessions.get(sessionKey(entity, sessionId));
    }

    private static String sessionKey(EntityPath entity, String sessionId) {
        return entity + "\u0000" + sessionId;
    }

    @Override
    public void close() {
        workers.shutdownNow();
        try {
            workers.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        endHeld(namespace, null);
    }

    /**
     * Rolls back the open transactions and releases the held sessions (which belong to {@code held}). With a
     * {@code next} namespace, a transaction no operation joined yet is declared again there under its id.
     */
    private void endHeld(Namespace held, Namespace next) {
        rollbackActions.clear();
        for (Binary id : List.copyOf(transactions.keySet())) {
            Transaction t = transactions.remove(id);
            boolean joined = used.remove(id);
            try {
                if (t != null && next != null && !joined) {
                    transactions.put(id, next.beginTransaction());
                }
            } catch (RuntimeException ignored) {
                // the next namespace is closed already: the transaction ends
            }
            try {
                if (t != null) {
                    t.rollback();
                }
            } catch (RuntimeException ignored) {
                // ended already
            }
        }
        for (String key : sessions.keySet()) {
            SessionLock lock = sessions.remove(key);
            try {
                if (lock != null) {
                    held.releaseSession(lock);
                }
            } catch (RuntimeException ignored) {
                // lost already
            }
        }
    }
}
