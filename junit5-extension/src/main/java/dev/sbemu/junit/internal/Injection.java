package dev.sbemu.junit.internal;

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
import dev.sbemu.amqp.ServiceBusEmulatorServer;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Journal;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.VirtualClock;
import dev.sbemu.junit.Entity;
import dev.sbemu.sdk.EmulatorClients;
import java.time.Clock;
import java.util.List;
import java.util.stream.Collectors;

/** What the extension injects, and how it makes each value. */
public final class Injection {
    /** Types injected without {@link Entity}. */
    static final List<Class<?>> PLAIN = List.of(
            VirtualClock.class,
            Clock.class,
            Namespace.class,
            Journal.class,
            EmulatorClients.class,
            ServiceBusAdministrationClient.class,
            ServiceBusAdministrationAsyncClient.class,
            ServiceBusEmulatorServer.class);
    /** Types injected with {@link Entity}. */
    static final List<Class<?>> WITH_ENTITY = List.of(
            ServiceBusSenderClient.class,
            ServiceBusSenderAsyncClient.class,
            ServiceBusReceiverClient.class,
            ServiceBusReceiverAsyncClient.class,
            ServiceBusSessionReceiverClient.class,
            ServiceBusSessionReceiverAsyncClient.class,
            ServiceBusRuleManagerClient.class,
            ServiceBusRuleManagerAsyncClient.class);

    /** The sentence listing what can be injected. */
    public static final String INJECTABLE = "@ServiceBusEmulator injects, with @Entity: " + names(WITH_ENTITY)
            + "; without @Entity: " + names(PLAIN) + "; a String with @ConnectionString.";

    private Injection() {}

    /**
     * Whether the extension answers for a parameter of this type: one it injects, one with {@link Entity}, or
     * another Service Bus or emulator type (which it rejects with the list of injectable types).
     */
    public static boolean claims(Class<?> type, boolean hasEntity) {
        String pkg = type.getPackageName();
        return hasEntity
                || PLAIN.contains(type)
                || WITH_ENTITY.contains(type)
                || pkg.startsWith("com.azure.messaging.servicebus")
                || pkg.equals("dev.sbemu.core")
                || pkg.equals("dev.sbemu.sdk")
                || pkg.equals("dev.sbemu.amqp");
    }

    /**
     * The value of a parameter or field marked {@code @ConnectionString}: the connection string of the
     * namespace's AMQP endpoint, which starts now if no test of the namespace has asked for it yet.
     */
    public static String connectionString(Class<?> type, Entity entity, String target, EmulatedNamespace scope) {
        if (type != String.class) {
            throw new InjectionException("Cannot inject " + target + ": @ConnectionString marks a String; inject "
                    + "the ServiceBusEmulatorServer (no annotation) for more than its connection string");
        }
        if (entity != null) {
            throw new InjectionException("Cannot inject " + target + ": a connection string is the namespace's, "
                    + "not an entity's; remove @Entity");
        }
        return scope.server().getConnectionString();
    }

    /** Whether the extension injects this type (with or without {@link Entity}). */
    public static boolean isInjectable(Class<?> type) {
        return PLAIN.contains(type) || WITH_ENTITY.contains(type);
    }

    /** Whether the type can be injected into an {@code @Emulated} field. */
    public static boolean isPlain(Class<?> type) {
        return PLAIN.contains(type);
    }

    /**
     * The value for a parameter or field.
     *
     * @param type its type
     * @param entity its {@link Entity}, or null
     * @param target what is being injected, for messages, e.g. {@code parameter [VirtualClock clock] of T.m(...)}
     * @param scope the namespace and the clients of the running test
     * @throws InjectionException when it cannot be injected, saying why and what can
     */
    public static Object resolve(Class<?> type, Entity entity, String target, EmulatedNamespace scope) {
        if (PLAIN.contains(type)) {
            if (entity != null) {
                throw new InjectionException(
                        "Cannot inject " + target + ": " + type.getSimpleName() + " takes no @Entity; remove it");
            }
            return plain(type, scope);
        }
        if (WITH_ENTITY.contains(type)) {
            if (entity == null) {
                throw new InjectionException("Cannot inject " + target + ": a " + type.getSimpleName()
                        + " needs @Entity naming its queue or topic, e.g. @Entity(\"orders\") or "
                        + "@Entity(value = \"events\", subscription = \"audit\")");
            }
            return withEntity(type, new EntityRef(entity, target, scope.namespace()), entity, scope);
        }
        throw new InjectionException(
                "Cannot inject " + target + ": " + type.getName() + " is not injectable. " + hint(type) + INJECTABLE);
    }

    private static Object plain(Class<?> type, EmulatedNamespace scope) {
        Namespace namespace = scope.namespace();
        if (type == VirtualClock.class || type == Clock.class) {
            return namespace.clock();
        }
        if (type == Namespace.class) {
            return namespace;
        }
        if (type == Journal.class) {
            return namespace.journal();
        }
        if (type == EmulatorClients.class) {
            return scope.clients();
        }
        if (type == ServiceBusEmulatorServer.class) {
            return scope.server();
        }
        if (type == ServiceBusAdministrationClient.class) {
            return scope.clients().administrationClient();
        }
        return scope.clients().administrationAsyncClient();
    }

    private static Object withEntity(Class<?> type, EntityRef ref, Entity entity, EmulatedNamespace scope) {
        EmulatorClients clients = scope.clients();
        if (type == ServiceBusSenderClient.class) {
            return clients.sender(ref.sendTarget());
        }
        if (type == ServiceBusSenderAsyncClient.class) {
            return clients.senderAsync(ref.sendTarget());
        }
        if (type == ServiceBusRuleManagerClient.class || type == ServiceBusRuleManagerAsyncClient.class) {
            ref.rejectReceiverAttributes("a rule manager");
            EntityPath subscription = ref.subscriptionPath();
            return type == ServiceBusRuleManagerClient.class
                    ? clients.ruleManager(subscription.topicOrQueue(), subscription.subscription())
                    : clients.ruleManagerAsync(subscription.topicOrQueue(), subscription.subscription());
        }
        EntityPath path = ref.receivePath();
        boolean sessions = ref.requiresSession(path);
        if (type == ServiceBusSessionReceiverClient.class || type == ServiceBusSessionReceiverAsyncClient.class) {
            if (!sessions) {
                throw ref.fail("'" + path + "' is not session-enabled; inject a ServiceBusReceiverClient, or declare "
                        + "the entity with requiresSession = true");
            }
            if (!entity.sessionId().isEmpty()) {
                throw ref.fail("a session receiver accepts sessions itself: remove sessionId = \"" + entity.sessionId()
                        + "\", or inject a ServiceBusReceiverClient locked to that session");
            }
            return type == ServiceBusSessionReceiverClient.class
                    ? clients.sessionReceiver(path, entity.receiveMode())
                    : clients.sessionReceiverAsync(path, entity.receiveMode());
        }
        return receiver(type, ref, entity, path, sessions, scope);
    }

    private static Object receiver(
            Class<?> type, EntityRef ref, Entity entity, EntityPath path, boolean sessions, EmulatedNamespace scope) {
        EmulatorClients clients = scope.clients();
        String sessionId = entity.sessionId();
        if (sessionId.isEmpty()) {
            if (sessions) {
                throw ref.fail("'" + path + "' requires sessions: set @Entity(sessionId = \"...\") or sessionId = "
                        + "Entity.NEXT_AVAILABLE_SESSION, or inject a ServiceBusSessionReceiverClient");
            }
            return type == ServiceBusReceiverClient.class
                    ? clients.receiver(path, entity.receiveMode())
                    : clients.receiverAsync(path, entity.receiveMode());
        }
        if (!sessions) {
            throw ref.fail("'" + path + "' is not session-enabled: remove sessionId = \"" + sessionId + "\"");
        }
        if (Entity.NEXT_AVAILABLE_SESSION.equals(sessionId)) {
            return nextSession(type, path, entity, scope);
        }
        try {
            if (type == ServiceBusReceiverClient.class) {
                return scope.closeAfterTest(
                        clients.sessionReceiver(path, entity.receiveMode()).acceptSession(sessionId));
            }
            return scope.closeAfterTest(clients.sessionReceiverAsync(path, entity.receiveMode())
                    .acceptSession(sessionId)
                    .block());
        } catch (UnsupportedOperationException e) {
            throw e;
        } catch (RuntimeException e) {
            throw ref.fail(
                    "session '" + sessionId + "' of '" + path + "' could not be locked (" + e.getMessage() + ")", e);
        }
    }

    /**
     * A receiver that accepts the next available session on its first call, as {@code acceptNextSession()} would
     * then, rather than at injection: a test method's parameters are resolved before its body has sent anything,
     * and accepting then would wait the SDK's minute for a session that cannot come.
     */
    private static Object nextSession(Class<?> type, EntityPath path, Entity entity, EmulatedNamespace scope) {
        EmulatorClients clients = scope.clients();
        return scope.closeAfterTest(
                type == ServiceBusReceiverClient.class
                        ? clients.nextSessionReceiver(path, entity.receiveMode())
                        : clients.nextSessionReceiverAsync(path, entity.receiveMode()));
    }

    private static String hint(Class<?> type) {
        if (type.getSimpleName().equals("ServiceBusProcessorClient")) {
            return "Build processors with the injected EmulatorClients: clients.processor(EntityPath.queue(\"orders\"), "
                    + "ProcessorOptions.of(onMessage, onError)); they are closed after the test. ";
        }
        return "";
    }

    private static String names(List<Class<?>> types) {
        return types.stream().map(Class::getSimpleName).collect(Collectors.joining(", "));
    }
}
