package dev.sbemu.amqp.internal;

import dev.sbemu.amqp.internal.http.AdminRoutes;
import dev.sbemu.amqp.internal.jms.JmsConsumers;
import dev.sbemu.amqp.internal.jms.JmsRoutes;
import dev.sbemu.amqp.internal.link.AttachPolicy;
import dev.sbemu.amqp.internal.link.HeldSessions;
import dev.sbemu.amqp.internal.link.LinkFactory;
import dev.sbemu.amqp.internal.link.LinkRoutes;
import dev.sbemu.amqp.internal.link.LinkSettings;
import dev.sbemu.amqp.internal.link.OpenReceivers;
import dev.sbemu.amqp.internal.link.ServedNamespace;
import dev.sbemu.amqp.internal.link.Workers;
import dev.sbemu.amqp.internal.node.NodeRoutes;
import dev.sbemu.amqp.internal.node.TransactionRegistry;
import dev.sbemu.amqp.internal.node.Transactions;
import dev.sbemu.amqp.internal.security.Authorizer;
import dev.sbemu.amqp.internal.security.Credentials;
import dev.sbemu.amqp.internal.security.NamespaceKeys;
import dev.sbemu.amqp.internal.transport.Traffic;
import dev.sbemu.core.ClockMode;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.config.NamespaceSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * One namespace an endpoint serves, with every owner of state that belongs to it and to no other (spec NS-1): the
 * served namespace (replaced by a reset), its key policy, its transactions, held sessions, open receivers, JMS
 * consumer counts, its routing table and its control routes (whose fault scripts are its own). The endpoint's
 * network loop, workers and ports are shared. Replace, reset and close take its monitor.
 */
final class HostedNamespace {
    private final String name;
    private final ServedNamespace served;
    private final Credentials credentials;
    private final Authorizer authorizer;
    private final Transactions transactions;
    private final HeldSessions heldSessions;
    private final OpenReceivers receivers;
    private final LinkRoutes routes;
    private final AdminRoutes admin;

    /** What a reset restores: the namespace as it was handed over, without its messages. */
    private volatile NamespaceSettings resetTo;
    /** A namespace this unit built (by a reset, or at creation): closed when replaced, reset or deleted. */
    private Namespace owned;

    private volatile boolean resetting;
    private volatile boolean servedOpen = true;
    private Runnable unwatch = () -> {};

    /**
     * @param owns whether {@code namespace} was built for this unit (a namespace created through the control API), so
     *     that deleting it closes it; one handed in by the caller is left open
     */
    HostedNamespace(
            String name,
            Namespace namespace,
            boolean owns,
            Credentials credentials,
            NamespaceKeys keys,
            TransactionRegistry transactionIds,
            Workers workers,
            LinkSettings settings,
            Supplier<Traffic> traffic) {
        this.name = name;
        this.served = new ServedNamespace(namespace);
        this.credentials = credentials;
        // the namespace's policies are read per check: a replaced or reset namespace brings its own (SEC-1)
        this.authorizer = new Authorizer(credentials, () -> served.get().sharedAccessPolicies());
        this.transactions = new Transactions(served, transactionIds);
        this.heldSessions = new HeldSessions();
        this.receivers = new OpenReceivers();
        this.resetTo = NamespaceSettings.of(namespace);
        this.owned = owns ? namespace : null;
        LinkFactory links = new LinkFactory(served, transactions, workers, heldSessions, receivers, settings);
        // the routing table: the nodes' rows, then the JMS dialect's; the links' own kinds come after them
        List<AttachPolicy> policies =
                new ArrayList<>(NodeRoutes.policies(served, keys, authorizer, transactions, heldSessions));
        policies.addAll(new JmsRoutes(served, new JmsConsumers()).policies());
        this.routes = new LinkRoutes(links, policies);
        this.admin = new AdminRoutes(served, this::reset, traffic);
        watch(namespace);
    }

    String name() {
        return name;
    }

    Credentials credentials() {
        return credentials;
    }

    /** The rights check of this namespace: its key policy and its shared access policies (SEC-1..9). */
    Authorizer authorizer() {
        return authorizer;
    }

    LinkRoutes routes() {
        return routes;
    }

    AdminRoutes admin() {
        return admin;
    }

    Namespace namespace() {
        return served.get();
    }

    /** Whether the served namespace is open and no reset is under way (HTTP-3). */
    boolean healthy() {
        return servedOpen && !resetting;
    }

    NamespaceSettings resetSettings() {
        return resetTo;
    }

    /**
     * Serves {@code next} from now on and returns the previous namespace (left open). Sessions held in the previous
     * one end there, and so do transactions that some operation joined; a transaction only declared goes on and is
     * begun in {@code next} when an operation joins it (AMQP-16). Pumps waiting in the previous namespace are woken so
     * that they wait in {@code next}.
     */
    private Namespace serve(Namespace next) {
        Namespace previous = served.replace(next);
        transactions.endAll();
        heldSessions.releaseAll(previous);
        receivers.wakeAll();
        return previous;
    }

    Namespace replace(Namespace next) {
        NamespaceSettings plan = NamespaceSettings.of(next);
        Namespace previous;
        Namespace toClose;
        synchronized (this) {
            resetTo = plan;
            previous = serve(next);
            toClose = owned;
            owned = null;
        }
        watch(next);
        if (toClose != null && toClose != previous) {
            toClose.close();
        }
        return previous;
    }

    /**
     * Serves a fresh namespace started from {@link #resetSettings()}: the topology, no messages, the clock at its start
     * when frozen, and, when running, running at the wall-clock now (CLK-6: a running clock shows the wall clock).
     */
    synchronized void reset() {
        resetting = true;
        try {
            NamespaceSettings plan = resetTo;
            if (plan.clockMode() == ClockMode.RUNNING) {
                // NS-7: a running clock is not put back by the time since the hand-over
                plan = plan.withStartAt(null);
            }
            Namespace fresh = plan.start();
            serve(fresh);
            watch(fresh);
            // a namespace the caller handed in is theirs and stays open (no longer served); one this unit built is
            // closed
            if (owned != null) {
                owned.close();
            }
            owned = fresh;
        } finally {
            resetting = false;
        }
    }

    /** Follows whether {@code namespace}, now served, is open (HTTP-3). */
    private synchronized void watch(Namespace namespace) {
        unwatch.run();
        servedOpen = true;
        // no lock here: the namespace runs it on the thread that closes it
        unwatch = namespace.onClose(() -> {
            if (served.get() == namespace) {
                servedOpen = false;
            }
        });
    }

    /** Ends the transactions and held sessions and closes the namespace this unit built, if any. */
    void close() {
        transactions.endAll();
        heldSessions.releaseAll(served.get());
        receivers.wakeAll();
        Namespace toClose;
        synchronized (this) {
            toClose = owned;
            owned = null;
        }
        if (toClose != null) {
            toClose.close();
        }
    }

    /** Closes it as {@link #close()} and makes each later operation of its links fail (NS-6). */
    void delete() {
        close();
        served.retire("The namespace '" + name + "' was deleted.");
    }
}
