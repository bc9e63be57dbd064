package dev.sbemu.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.messaging.servicebus.ServiceBusProcessorClient;
import com.azure.messaging.servicebus.ServiceBusReceiverAsyncClient;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusRuleManagerAsyncClient;
import com.azure.messaging.servicebus.ServiceBusRuleManagerClient;
import com.azure.messaging.servicebus.ServiceBusSenderAsyncClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Walks every public method of every client the factory makes: each is either emulated or throws our
 * {@code UnsupportedOperationException("Type.method is not emulated")}; the not-emulated ones are
 * exactly the listed ones (transactions, and rule operations until the adapter uses the core's rules).
 */
class EmulatedSurfaceTest {
    private Namespace ns;
    private EmulatorClients clients;

    @BeforeEach
    void setUp() {
        ns = Namespace.create();
        ns.createQueue("q");
        ns.createTopic("t");
        ns.createSubscription("t", "s");
        for (int i = 0; i < 3; i++) { // so that receiveMessages(n) returns at once
            ns.send("q", dev.sbemu.core.Message.ofText("m" + i));
        }
        clients = EmulatorClients.of(ns);
    }

    @AfterEach
    void tearDown() {
        clients.close();
        ns.close();
    }

    @Test
    void senderSurface() {
        assertNotEmulated(ServiceBusSenderClient.class, clients.sender("q"), Set.of("createTransaction", "commitTransaction",
                "rollbackTransaction", "sendMessage(ServiceBusMessage,ServiceBusTransactionContext)",
                "sendMessages(Iterable,ServiceBusTransactionContext)",
                "sendMessages(ServiceBusMessageBatch,ServiceBusTransactionContext)",
                "scheduleMessage(ServiceBusMessage,OffsetDateTime,ServiceBusTransactionContext)",
                "scheduleMessages(Iterable,OffsetDateTime,ServiceBusTransactionContext)"));
        assertNotEmulated(ServiceBusSenderAsyncClient.class, clients.senderAsync("q"), Set.of("createTransaction", "commitTransaction",
                "rollbackTransaction", "sendMessage(ServiceBusMessage,ServiceBusTransactionContext)",
                "sendMessages(Iterable,ServiceBusTransactionContext)",
                "sendMessages(ServiceBusMessageBatch,ServiceBusTransactionContext)",
                "scheduleMessage(ServiceBusMessage,OffsetDateTime,ServiceBusTransactionContext)",
                "scheduleMessages(Iterable,OffsetDateTime,ServiceBusTransactionContext)"));
    }

    @Test
    void receiverSurface() {
        assertNotEmulated(ServiceBusReceiverClient.class, clients.receiver(EntityPath.queue("q"), ServiceBusReceiveMode.PEEK_LOCK),
                Set.of("createTransaction", "commitTransaction", "rollbackTransaction",
                        "renewSessionLock(Duration,Consumer)"));
        assertNotEmulated(ServiceBusReceiverAsyncClient.class,
                clients.receiverAsync(EntityPath.subscription("t", "s"), ServiceBusReceiveMode.PEEK_LOCK),
                Set.of("createTransaction", "commitTransaction", "rollbackTransaction", "renewSessionLock(Duration)"));
    }

    @Test
    void processorAndRuleManagerSurface() {
        assertNotEmulated(ServiceBusProcessorClient.class, clients.processor(EntityPath.queue("q"), ProcessorOptions.of(c -> { }, e -> { })),
                Set.of());
        assertNotEmulated(ServiceBusRuleManagerClient.class, clients.ruleManager("t", "s"), Set.of("createRule", "listRules", "deleteRule"));
        assertNotEmulated(ServiceBusRuleManagerAsyncClient.class,
                clients.ruleManagerAsync("t", "s"), Set.of("createRule", "listRules", "deleteRule"));
    }

    /** Calls every public method with default arguments; collects those answering "not emulated". */
    private static <T> void assertNotEmulated(Class<T> type, T client, Set<String> expected) {
        Set<String> notEmulated = new TreeSet<>();
        Set<String> names = new TreeSet<>();
        for (Method m : type.getDeclaredMethods()) {
            if (!Modifier.isPublic(m.getModifiers()) || Modifier.isStatic(m.getModifiers())
                    || m.getName().equals("close") || m.getName().equals("start")) {
                continue;
            }
            names.add(m.getName());
            Object[] args = Arrays.stream(m.getParameterTypes()).map(EmulatedSurfaceTest::defaultValue).toArray();
            try {
                m.invoke(client, args);
            } catch (InvocationTargetException e) {
                Throwable cause = e.getCause();
                if (cause instanceof UnsupportedOperationException
                        && String.valueOf(cause.getMessage()).endsWith(" is not emulated")) {
                    assertEquals(type.getSimpleName() + "." + m.getName() + " is not emulated", cause.getMessage());
                    notEmulated.add(signature(m, expected));
                }
            } catch (IllegalAccessException e) {
                throw new AssertionError(e);
            }
        }
        assertTrue(names.size() > 2, type + " has public methods");
        assertEquals(new TreeSet<>(expected), notEmulated, type.getSimpleName());
    }

    private static String signature(Method m, Set<String> expected) {
        String full = m.getName() + "(" + String.join(",", Arrays.stream(m.getParameterTypes())
                .map(Class::getSimpleName).toArray(String[]::new)) + ")";
        return expected.contains(full) ? full : m.getName();
    }

    private static Object defaultValue(Class<?> type) {
        if (type == int.class) {
            return 1;
        }
        if (type == long.class) {
            return 1L;
        }
        if (type == boolean.class) {
            return false;
        }
        return null;
    }
}
