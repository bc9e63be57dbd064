package dev.sbemu.sdk;

import com.azure.messaging.servicebus.ServiceBusProcessorClient;
import com.azure.messaging.servicebus.ServiceBusReceiverAsyncClient;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusRuleManagerAsyncClient;
import com.azure.messaging.servicebus.ServiceBusRuleManagerClient;
import com.azure.messaging.servicebus.ServiceBusSenderAsyncClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.ServiceBusSessionReceiverAsyncClient;
import com.azure.messaging.servicebus.ServiceBusSessionReceiverClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationAsyncClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import dev.sbemu.sdk.internal.ClientContext;
import dev.sbemu.sdk.internal.ConnectionStringClients;
import dev.sbemu.sdk.internal.LockRenewals;
import dev.sbemu.sdk.internal.ProcessorImpl;
import dev.sbemu.sdk.internal.ReceiverAsyncClientImpl;
import dev.sbemu.sdk.internal.ReceiverClientImpl;
import dev.sbemu.sdk.internal.RuleManagerAsyncImpl;
import dev.sbemu.sdk.internal.RuleManagerClientImpl;
import dev.sbemu.sdk.internal.SdkInstances;
import dev.sbemu.sdk.internal.SenderAsyncClientImpl;
import dev.sbemu.sdk.internal.SenderClientImpl;
import dev.sbemu.sdk.internal.SessionReceiverAsyncClientImpl;
import dev.sbemu.sdk.internal.SessionReceiverClientImpl;
import dev.sbemu.sdk.internal.TransactionRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Creates real Azure SDK client instances wired to an emulated {@link Namespace}. Closing it, or
 * closing the namespace, closes every client and stops every processor it created. Thread-safe.
 *
 * <p>The clients are instances of the SDK's own (final) types; operations the emulator does not
 * support throw {@link UnsupportedOperationException} naming the method. Time-based client work
 * (automatic lock renewal) runs on the namespace's virtual clock.
 *
 * <p>{@link #connectingTo(Namespace, String)} makes the same clients the way production code does, with the
 * SDK's {@code ServiceBusClientBuilder} from a connection string (of an AMQP endpoint serving the namespace),
 * and processors with the SDK's own processor; see there for what differs.
 */
public final class EmulatorClients implements AutoCloseable {
    /** The host name the clients report as their fully qualified namespace. */
    public static final String FULLY_QUALIFIED_NAMESPACE = "sbemu.servicebus.windows.net";
    /** The SDK's default try timeout: how long {@code receiveMessages(n)} waits for a first message. */
    static final Duration DEFAULT_TRY_TIMEOUT = Duration.ofMinutes(1);

    private final Namespace namespace;
    private final LockRenewals renewals;
    /** What the in-process clients share. */
    private final ClientContext context;

    private final List<AutoCloseable> created = new ArrayList<>();
    /** Non-null when the clients are built with the SDK's builder from a connection string. */
    private final ConnectionStringClients built;

    private final Runnable stopFollowingNamespace;
    private boolean closed;

    private EmulatorClients(Namespace namespace, ConnectionStringClients built) {
        this.namespace = namespace;
        this.built = built;
        this.renewals = new LockRenewals(namespace.clock());
        this.context =
                new ClientContext(namespace, FULLY_QUALIFIED_NAMESPACE, renewals, new TransactionRegistry(namespace));
        this.stopFollowingNamespace = namespace.onClose(this::close);
    }

    /** Clients for {@code namespace}. */
    public static EmulatorClients of(Namespace namespace) {
        return new EmulatorClients(Objects.requireNonNull(namespace, "namespace"), null);
    }

    /**
     * Clients built as production code builds them: {@code new ServiceBusClientBuilder().connectionString(
     * connectionString)}, all sharing one AMQP connection, and processors built with the SDK's
     * {@code processor()} and {@code sessionProcessor()}. The connection string is that of an endpoint serving
     * {@code namespace} (the {@code amqp-endpoint} module's {@code ServiceBusEmulatorServer}). The administration
     * clients stay in process. Differences from {@link #of(Namespace)}: the SDK's own timers (try-timeout,
     * processors' automatic lock renewal) run on the wall clock, and receivers are built without automatic lock
     * renewal and without auto-completion (as the in-process receivers), so that locks time out when the test
     * advances the virtual clock and the caller settles what it receives.
     */
    public static EmulatorClients connectingTo(Namespace namespace, String connectionString) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(connectionString, "connectionString");
        return new EmulatorClients(namespace, new ConnectionStringClients(connectionString));
    }

    public Namespace namespace() {
        return namespace;
    }

    /** A sender to a queue or topic. */
    public ServiceBusSenderClient sender(String queueOrTopic) {
        if (built != null) {
            return track(built.sender(requireName(queueOrTopic)));
        }
        SenderAsyncClientImpl async = newSender(queueOrTopic);
        return track(
                SdkInstances.delegatingTo(ServiceBusSenderClient.class, new SenderClientImpl(async)), async::close);
    }

    /** An async sender to a queue or topic. */
    public ServiceBusSenderAsyncClient senderAsync(String queueOrTopic) {
        if (built != null) {
            return track(built.senderAsync(requireName(queueOrTopic)));
        }
        SenderAsyncClientImpl async = newSender(queueOrTopic);
        return track(SdkInstances.delegatingTo(ServiceBusSenderAsyncClient.class, async), async::close);
    }

    private SenderAsyncClientImpl newSender(String queueOrTopic) {
        Objects.requireNonNull(queueOrTopic, "queueOrTopic");
        return new SenderAsyncClientImpl(context, queueOrTopic);
    }

    /** A receiver on a queue or subscription, or one of their sub-queues ({@link EntityPath#withSubQueue}). */
    public ServiceBusReceiverClient receiver(EntityPath entity, ServiceBusReceiveMode mode) {
        if (built != null) {
            return track(built.receiver(requireEntity(entity), Objects.requireNonNull(mode, "mode")));
        }
        ReceiverAsyncClientImpl async = newReceiver(entity, mode);
        return track(
                SdkInstances.delegatingTo(
                        ServiceBusReceiverClient.class, new ReceiverClientImpl(async, DEFAULT_TRY_TIMEOUT)),
                async::close);
    }

    /** An async receiver on a queue or subscription, or one of their sub-queues. */
    public ServiceBusReceiverAsyncClient receiverAsync(EntityPath entity, ServiceBusReceiveMode mode) {
        if (built != null) {
            return track(built.receiverAsync(requireEntity(entity), Objects.requireNonNull(mode, "mode")));
        }
        ReceiverAsyncClientImpl async = newReceiver(entity, mode);
        return track(SdkInstances.delegatingTo(ServiceBusReceiverAsyncClient.class, async), async::close);
    }

    private ReceiverAsyncClientImpl newReceiver(EntityPath entity, ServiceBusReceiveMode mode) {
        Objects.requireNonNull(entity, "entity");
        Objects.requireNonNull(mode, "mode");
        return context.receiver(entity, mode);
    }

    private <T extends AutoCloseable> T track(T client) {
        return track(client, client);
    }

    private static String requireName(String queueOrTopic) {
        return Objects.requireNonNull(queueOrTopic, "queueOrTopic");
    }

    private static EntityPath requireEntity(EntityPath entity) {
        return Objects.requireNonNull(entity, "entity");
    }

    private synchronized <T> T track(T client, AutoCloseable close) {
        if (closed) {
            try {
                close.close();
            } catch (Exception ignored) {
                // closing a fresh client does not fail
            }
            throw new IllegalStateException("These EmulatorClients are closed");
        }
        created.add(close);
        return client;
    }

    /**
     * A session receiver on a session-enabled queue or subscription (SES-2). {@code acceptNextSession()}
     * waits up to the SDK's try timeout (one minute, real time) for a free session; the receivers it
     * hands out release their session when closed.
     */
    public ServiceBusSessionReceiverClient sessionReceiver(EntityPath entity, ServiceBusReceiveMode mode) {
        if (built != null) {
            return track(built.sessionReceiver(requireEntity(entity), Objects.requireNonNull(mode, "mode")));
        }
        SessionReceiverAsyncClientImpl async = newSessionReceiver(entity, mode);
        return track(
                SdkInstances.delegatingTo(
                        ServiceBusSessionReceiverClient.class,
                        new SessionReceiverClientImpl(async, DEFAULT_TRY_TIMEOUT)),
                async::close);
    }

    /** The async session receiver; its {@code acceptNextSession()} waits until a session is free. */
    public ServiceBusSessionReceiverAsyncClient sessionReceiverAsync(EntityPath entity, ServiceBusReceiveMode mode) {
        if (built != null) {
            return track(built.sessionReceiverAsync(requireEntity(entity), Objects.requireNonNull(mode, "mode")));
        }
        SessionReceiverAsyncClientImpl async = newSessionReceiver(entity, mode);
        return track(SdkInstances.delegatingTo(ServiceBusSessionReceiverAsyncClient.class, async), async::close);
    }

    /**
     * A receiver of the next available session of a session-enabled queue or subscription, accepted when the
     * receiver is first used rather than now: a test can take it before it has sent anything, where
     * {@code sessionReceiver(entity, mode).acceptNextSession()} would wait the SDK's minute for a session that
     * cannot come yet. Closing it releases the session it accepted, if any.
     */
    public ServiceBusReceiverClient nextSessionReceiver(EntityPath entity, ServiceBusReceiveMode mode) {
        ServiceBusSessionReceiverClient sessions = sessionReceiver(entity, mode);
        return track(SdkInstances.lazy(ServiceBusReceiverClient.class, sessions::acceptNextSession));
    }

    /** The async form of {@link #nextSessionReceiver}: the session is accepted on the receiver's first call. */
    public ServiceBusReceiverAsyncClient nextSessionReceiverAsync(EntityPath entity, ServiceBusReceiveMode mode) {
        ServiceBusSessionReceiverAsyncClient sessions = sessionReceiverAsync(entity, mode);
        return track(SdkInstances.lazy(
                ServiceBusReceiverAsyncClient.class,
                () -> sessions.acceptNextSession().block()));
    }

    private SessionReceiverAsyncClientImpl newSessionReceiver(EntityPath entity, ServiceBusReceiveMode mode) {
        Objects.requireNonNull(entity, "entity");
        Objects.requireNonNull(mode, "mode");
        return new SessionReceiverAsyncClientImpl(context, entity, mode, DEFAULT_TRY_TIMEOUT);
    }

    /**
     * A processor; configure handlers and concurrency through {@link ProcessorOptions}. With
     * {@link ProcessorOptions#withSessions()} it handles {@code maxConcurrentSessions} sessions at once,
     * {@code maxConcurrentCalls} messages of each at once.
     */
    public ServiceBusProcessorClient processor(EntityPath entity, ProcessorOptions options) {
        Objects.requireNonNull(entity, "entity");
        Objects.requireNonNull(options, "options");
        if (built != null) {
            return track(built.processor(entity, options));
        }
        ProcessorImpl impl = new ProcessorImpl(entity, options, context);
        return track(SdkInstances.delegatingTo(ServiceBusProcessorClient.class, impl), impl::close);
    }

    /** A rule manager for a subscription (RUL-1..7): create, list and delete its rules. */
    public ServiceBusRuleManagerClient ruleManager(String topic, String subscription) {
        if (built != null) {
            return track(built.ruleManager(requireName(topic), Objects.requireNonNull(subscription, "subscription")));
        }
        RuleManagerAsyncImpl async = newRuleManager(topic, subscription);
        return track(
                SdkInstances.delegatingTo(ServiceBusRuleManagerClient.class, new RuleManagerClientImpl(async)),
                async::close);
    }

    /** The async rule manager; see {@link #ruleManager(String, String)}. */
    public ServiceBusRuleManagerAsyncClient ruleManagerAsync(String topic, String subscription) {
        if (built != null) {
            return track(
                    built.ruleManagerAsync(requireName(topic), Objects.requireNonNull(subscription, "subscription")));
        }
        RuleManagerAsyncImpl async = newRuleManager(topic, subscription);
        return track(SdkInstances.delegatingTo(ServiceBusRuleManagerAsyncClient.class, async), async::close);
    }

    private RuleManagerAsyncImpl newRuleManager(String topic, String subscription) {
        return new RuleManagerAsyncImpl(context, topic, subscription);
    }

    /** The real SDK administration client, speaking the management protocol to this namespace in process. */
    public ServiceBusAdministrationClient administrationClient() {
        return AdministrationClients.sync(namespace);
    }

    /** The async twin of {@link #administrationClient()}. */
    public ServiceBusAdministrationAsyncClient administrationAsyncClient() {
        return AdministrationClients.async(namespace);
    }

    /** Closes every client and stops every processor created here, and detaches from the clock. */
    @Override
    public void close() {
        List<AutoCloseable> toClose;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            toClose = new ArrayList<>(created);
            created.clear();
        }
        RuntimeException failure = null;
        for (AutoCloseable c : toClose) {
            try {
                c.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = new IllegalStateException("Closing a client failed", e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        renewals.close();
        if (stopFollowingNamespace != null) { // null when the namespace was closed before this was made
            stopFollowingNamespace.run();
        }
        if (failure != null) {
            throw failure;
        }
    }
}
