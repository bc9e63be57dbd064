package dev.sbemu.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusMessageBatch;
import com.azure.messaging.servicebus.ServiceBusProcessorClient;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverAsyncClient;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusRuleManagerAsyncClient;
import com.azure.messaging.servicebus.ServiceBusRuleManagerClient;
import com.azure.messaging.servicebus.ServiceBusSenderAsyncClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.ServiceBusSessionReceiverAsyncClient;
import com.azure.messaging.servicebus.ServiceBusSessionReceiverClient;
import com.azure.messaging.servicebus.ServiceBusTransactionContext;
import com.azure.messaging.servicebus.administration.models.CreateRuleOptions;
import com.azure.messaging.servicebus.models.AbandonOptions;
import com.azure.messaging.servicebus.models.CompleteOptions;
import com.azure.messaging.servicebus.models.CreateMessageBatchOptions;
import com.azure.messaging.servicebus.models.DeadLetterOptions;
import com.azure.messaging.servicebus.models.DeferOptions;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Message;
import dev.sbemu.core.MessageBody;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Calls every public method of every client type the factory makes, with representative arguments,
 * and checks each result: a method must work and return a real value (not Mockito's default null,
 * 0, false or empty) unless that is its documented result, or fail the way the SDK documents for that
 * client (session operations on a non-session receiver, message-lock renewal on a session receiver).
 * Only the methods listed as not emulated may throw our "not emulated" exception; the list is empty.
 */
class EmulatedSurfaceTest {
    private static final Duration BLOCK = Duration.ofSeconds(10);
    private static final Set<String> NOT_EMULATED = Set.of();

    private Namespace ns;
    private EmulatorClients clients;
    private final AtomicInteger names = new AtomicInteger();

    @BeforeEach
    void setUp() {
        ns = Namespace.create();
        ns.createQueue("q");
        ns.createQueue("sq", QueueOptions.builder().requiresSession(true).build());
        ns.createTopic("t");
        ns.createSubscription("t", "s");
        for (int i = 0; i < 20; i++) { // so that every peek finds something
            ns.send("q", Message.ofText("m" + i));
            ns.send(
                    "sq",
                    Message.builder()
                            .body(new MessageBody.Data(new byte[1]))
                            .sessionId(i % 2 == 0 ? "held-A" : "held-B")
                            .build());
        }
        clients = EmulatorClients.of(ns);
    }

    @AfterEach
    void tearDown() {
        clients.close();
        ns.close();
    }

    /** How to make arguments for one client under test, and what it may answer. */
    private final class Fixture {
        final String sessionId;
        final Supplier<ServiceBusReceivedMessage> received;
        final Map<String, Class<? extends Throwable>> documentedFailures;
        final Set<String> documentedNulls;
        /** What a method that takes an error callback reported to it. */
        final AtomicReference<Throwable> reported = new AtomicReference<>();

        Fixture(
                String sessionId,
                Supplier<ServiceBusReceivedMessage> received,
                Map<String, Class<? extends Throwable>> documentedFailures,
                Set<String> documentedNulls) {
            this.sessionId = sessionId;
            this.received = received;
            this.documentedFailures = documentedFailures;
            this.documentedNulls = documentedNulls;
        }

        ServiceBusMessage message() {
            return new ServiceBusMessage("m").setSessionId(sessionId);
        }

        Object arg(Method m, Class<?> type, Type generic) {
            if (type == ServiceBusMessage.class) {
                return message();
            }
            if (type == Iterable.class) {
                Type element = ((ParameterizedType) generic).getActualTypeArguments()[0];
                if (element == Long.class) {
                    return m.getName().startsWith("receiveDeferred") ? List.of(deferredSequenceNumber()) : List.of(7L);
                }
                return List.of(message(), message());
            }
            if (type == ServiceBusMessageBatch.class) {
                ServiceBusMessageBatch batch =
                        clients.sender(sessionId == null ? "q" : "sq").createMessageBatch();
                batch.tryAddMessage(message());
                return batch;
            }
            if (type == ServiceBusTransactionContext.class) {
                return clients.sender("q").createTransaction();
            }
            if (type == OffsetDateTime.class) {
                return OffsetDateTime.now(ns.clock()).plusMinutes(1);
            }
            if (type == long.class) {
                return m.getName().startsWith("receiveDeferred") ? deferredSequenceNumber() : 0L;
            }
            if (type == int.class) {
                return 2;
            }
            if (type == Duration.class) {
                return Duration.ofSeconds(1);
            }
            if (type == ServiceBusReceivedMessage.class) {
                return received.get();
            }
            if (type == CompleteOptions.class) {
                return new CompleteOptions();
            }
            if (type == AbandonOptions.class) {
                return new AbandonOptions();
            }
            if (type == DeferOptions.class) {
                return new DeferOptions();
            }
            if (type == DeadLetterOptions.class) {
                return new DeadLetterOptions();
            }
            if (type == CreateMessageBatchOptions.class) {
                return new CreateMessageBatchOptions();
            }
            if (type == CreateRuleOptions.class) {
                return new CreateRuleOptions();
            }
            if (type == Consumer.class) {
                reported.set(null);
                return (Consumer<Throwable>) reported::set;
            }
            if (type == byte[].class) {
                return new byte[] {1};
            }
            if (type == String.class) {
                if (m.getName().equals("deleteRule")) {
                    String rule = "r" + names.incrementAndGet();
                    clients.ruleManager("t", "s").createRule(rule, new CreateRuleOptions());
                    return rule;
                }
                return m.getName().equals("createRule") ? "r" + names.incrementAndGet() : "S" + names.incrementAndGet();
            }
            throw new AssertionError("no representative argument for " + type + " of " + m);
        }

        private long deferredSequenceNumber() {
            ServiceBusReceivedMessage m = received.get();
            ns.defer(EntityPath.queue(sessionId == null ? "q" : "sq"), UUID.fromString(m.getLockToken()));
            return m.getSequenceNumber();
        }
    }

    @Test
    void senders() {
        Fixture f = new Fixture(null, () -> null, Map.of(), Set.of());
        walk(ServiceBusSenderClient.class, clients.sender("q"), f);
        walk(ServiceBusSenderAsyncClient.class, clients.senderAsync("q"), f);
    }

    @Test
    void receivers() {
        ServiceBusReceiverClient receiver = clients.receiver(EntityPath.queue("q"), ServiceBusReceiveMode.PEEK_LOCK);
        Map<String, Class<? extends Throwable>> noSession = Map.of(
                "getSessionState",
                IllegalStateException.class,
                "setSessionState",
                IllegalStateException.class,
                "renewSessionLock",
                IllegalStateException.class);
        walk(
                ServiceBusReceiverClient.class,
                receiver,
                new Fixture(
                        null,
                        () -> {
                            clients.sender("q").sendMessage(new ServiceBusMessage("x"));
                            return receiver.receiveMessages(1, BLOCK).iterator().next();
                        },
                        noSession,
                        Set.of("getSessionId")));
        ServiceBusReceiverAsyncClient async =
                clients.receiverAsync(EntityPath.queue("q"), ServiceBusReceiveMode.PEEK_LOCK);
        walk(
                ServiceBusReceiverAsyncClient.class,
                async,
                new Fixture(
                        null,
                        () -> {
                            clients.sender("q").sendMessage(new ServiceBusMessage("x"));
                            return async.receiveMessages().blockFirst(BLOCK);
                        },
                        noSession,
                        Set.of("getSessionId")));
    }

    @Test
    void sessionReceivers() {
        ServiceBusSessionReceiverClient sessions =
                clients.sessionReceiver(EntityPath.queue("sq"), ServiceBusReceiveMode.PEEK_LOCK);
        clients.sender("sq").sendMessage(new ServiceBusMessage("x").setSessionId("A"));
        walk(ServiceBusSessionReceiverClient.class, sessions, new Fixture(null, () -> null, Map.of(), Set.of()));
        ServiceBusSessionReceiverAsyncClient asyncSessions =
                clients.sessionReceiverAsync(EntityPath.queue("sq"), ServiceBusReceiveMode.PEEK_LOCK);
        clients.sender("sq").sendMessage(new ServiceBusMessage("x").setSessionId("B"));
        walk(
                ServiceBusSessionReceiverAsyncClient.class,
                asyncSessions,
                new Fixture(null, () -> null, Map.of(), Set.of()));

        Map<String, Class<? extends Throwable>> session = Map.of("renewMessageLock", IllegalStateException.class);
        ServiceBusReceiverClient a = clients.sessionReceiver(EntityPath.queue("sq"), ServiceBusReceiveMode.PEEK_LOCK)
                .acceptSession("held-A");
        a.setSessionState(new byte[] {1});
        walk(
                ServiceBusReceiverClient.class,
                a,
                new Fixture(
                        "held-A",
                        () -> {
                            clients.sender("sq").sendMessage(new ServiceBusMessage("x").setSessionId("held-A"));
                            return a.receiveMessages(1, BLOCK).iterator().next();
                        },
                        session,
                        Set.of()));
        ServiceBusReceiverAsyncClient b = clients.sessionReceiverAsync(
                        EntityPath.queue("sq"), ServiceBusReceiveMode.PEEK_LOCK)
                .acceptSession("held-B")
                .block(BLOCK);
        b.setSessionState(new byte[] {1}).block(BLOCK);
        walk(
                ServiceBusReceiverAsyncClient.class,
                b,
                new Fixture(
                        "held-B",
                        () -> {
                            clients.sender("sq").sendMessage(new ServiceBusMessage("x").setSessionId("held-B"));
                            return b.receiveMessages().blockFirst(BLOCK);
                        },
                        session,
                        Set.of()));
    }

    @Test
    void processorsAndRuleManagers() {
        Fixture none = new Fixture(null, () -> null, Map.of(), Set.of("getTopicName", "getSubscriptionName"));
        walk(
                ServiceBusProcessorClient.class,
                clients.processor(EntityPath.queue("q"), ProcessorOptions.of(c -> {}, e -> {})),
                none);
        walk(
                ServiceBusProcessorClient.class,
                clients.processor(
                        EntityPath.queue("sq"),
                        ProcessorOptions.of(c -> {}, e -> {}).withSessions()),
                none);
        walk(
                ServiceBusProcessorClient.class,
                clients.processor(EntityPath.subscription("t", "s"), ProcessorOptions.of(c -> {}, e -> {})),
                new Fixture(null, () -> null, Map.of(), Set.of("getQueueName")));
        Fixture rules = new Fixture(null, () -> null, Map.of(), Set.of());
        walk(ServiceBusRuleManagerClient.class, clients.ruleManager("t", "s"), rules);
        walk(ServiceBusRuleManagerAsyncClient.class, clients.ruleManagerAsync("t", "s"), rules);
    }

    /** Calls each public method (close last); checks what it returns or throws. */
    private <T> void walk(Class<T> type, T client, Fixture f) {
        Set<String> notEmulated = new TreeSet<>();
        List<Method> methods = new ArrayList<>();
        for (Method m : type.getDeclaredMethods()) {
            if (Modifier.isPublic(m.getModifiers())
                    && !Modifier.isStatic(m.getModifiers())
                    && !m.getName().equals("close")) {
                methods.add(m);
            }
        }
        methods.sort((x, y) -> x.toString().compareTo(y.toString()));
        assertTrue(methods.size() >= 2, type + " has public methods");
        for (Method m : methods) {
            String name = type.getSimpleName() + "." + signature(m);
            Object[] args = new Object[m.getParameterCount()];
            for (int i = 0; i < args.length; i++) {
                args[i] = f.arg(m, m.getParameterTypes()[i], m.getGenericParameterTypes()[i]);
            }
            Class<? extends Throwable> documented = f.documentedFailures.get(m.getName());
            try {
                f.reported.set(null);
                Object result = settle(m, m.invoke(client, args));
                Throwable reported = f.reported.get();
                if (documented != null && documented.isInstance(reported)) {
                    continue; // the SDK hands the failure to the callback
                }
                if (reported != null) {
                    throw new AssertionError(name + " reported an error", reported);
                }
                if (documented != null) {
                    fail(name + " should fail with " + documented.getSimpleName() + " but returned " + result);
                }
                checkResult(name, m, result, f);
            } catch (InvocationTargetException | RuntimeException e) {
                Throwable cause = e instanceof InvocationTargetException ? e.getCause() : e;
                if (cause instanceof UnsupportedOperationException
                        && String.valueOf(cause.getMessage()).endsWith(" is not emulated")) {
                    assertEquals(type.getSimpleName() + "." + m.getName() + " is not emulated", cause.getMessage());
                    notEmulated.add(signature(m));
                } else if (documented == null || !documented.isInstance(cause)) {
                    throw new AssertionError(name + " failed", cause);
                }
            } catch (IllegalAccessException e) {
                throw new AssertionError(e);
            }
        }
        assertEquals(new TreeSet<>(NOT_EMULATED), notEmulated, type.getSimpleName());
        if (client instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                throw new AssertionError(type.getSimpleName() + ".close failed", e);
            }
        }
    }

    /** Runs a reactive result, as a caller would; returns what it produced (a list for a stream). */
    private Object settle(Method m, Object result) {
        if (result instanceof Mono<?> mono
                && m.getName().startsWith("renew")
                && Arrays.asList(m.getParameterTypes()).contains(Duration.class)) {
            // automatic renewal runs on the virtual clock and completes when its duration has passed
            var done = mono.toFuture();
            ns.clock().advance(Duration.ofSeconds(2));
            try {
                return done.get(BLOCK.toSeconds(), TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
            } catch (InterruptedException | TimeoutException e) {
                throw new IllegalStateException(m + " did not complete", e);
            }
        }
        if (result instanceof Mono<?> mono) {
            return mono.block(BLOCK);
        }
        if (result instanceof Flux<?> flux) {
            return m.getName().equals("receiveMessages") && m.getParameterCount() == 0
                    ? flux.take(1).collectList().block(BLOCK)
                    : flux.collectList().block(BLOCK);
        }
        if (result instanceof Iterable<?> iterable && !(result instanceof Collection<?>)) {
            List<Object> all = new ArrayList<>();
            iterable.forEach(all::add);
            return all;
        }
        return result;
    }

    private static void checkResult(String name, Method m, Object result, Fixture f) {
        Type returned = m.getGenericReturnType();
        boolean voidish = m.getReturnType() == void.class
                || (returned instanceof ParameterizedType p && p.getActualTypeArguments()[0] == Void.class);
        if (voidish || f.documentedNulls.contains(m.getName())) {
            return;
        }
        if (m.getName().equals("isRunning")) {
            return; // false is right for a processor that was never started
        }
        if (result == null) {
            fail(name + " returned null");
        }
        if (result instanceof Collection<?> c && c.isEmpty()) {
            fail(name + " returned nothing");
        }
        if (result instanceof Number n && n.longValue() == 0 && !m.getName().startsWith("peek")) {
            fail(name + " returned 0");
        }
        if (result instanceof Boolean b && !b && !m.getName().equals("tryAddMessage")) {
            fail(name + " returned false");
        }
    }

    private static String signature(Method m) {
        return m.getName() + "("
                + String.join(
                        ",",
                        Arrays.stream(m.getParameterTypes())
                                .map(Class::getSimpleName)
                                .toArray(String[]::new))
                + ")";
    }
}
