package dev.sbemu.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import com.azure.messaging.servicebus.models.SubQueue;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Names the entity a client injected by {@link ServiceBusEmulator} works on: a queue or topic for senders, a
 * queue or a topic's {@link #subscription()} (and a {@link #subQueue()}) for receivers, a topic and
 * subscription for rule managers.
 *
 * <pre>{@code
 * void test(@Entity("orders") ServiceBusSenderClient sender,
 *           @Entity(value = "orders", subQueue = SubQueue.DEAD_LETTER_QUEUE) ServiceBusReceiverClient deadLetters,
 *           @Entity(value = "events", subscription = "audit") ServiceBusReceiverAsyncClient audit,
 *           @Entity(value = "carts", sessionId = "cart-1") ServiceBusReceiverClient cartSession)
 * }</pre>
 *
 * <p>On a field, the client is injected before each test (static fields: before all tests, with
 * {@link ServiceBusEmulator.Lifecycle#PER_CLASS}).
 */
@Target({ElementType.PARAMETER, ElementType.FIELD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
// registers the extension even where @ServiceBusEmulator is missing, so that it can say so
@ExtendWith(ServiceBusEmulatorExtension.class)
@API(status = EXPERIMENTAL, since = "0.1")
public @interface Entity {

    /**
     * For {@link #sessionId()}: accept the next session that has messages, as {@code acceptNextSession()}, when the
     * injected receiver is first used.
     */
    String NEXT_AVAILABLE_SESSION = "<next available session>";

    /** The queue's or topic's name. */
    String value();

    /** The topic's subscription, for receivers and rule managers; {@code ""} for a queue. */
    String subscription() default "";

    /** The sub-queue to receive from. */
    SubQueue subQueue() default SubQueue.NONE;

    /** The receive mode of receivers. */
    ServiceBusReceiveMode receiveMode() default ServiceBusReceiveMode.PEEK_LOCK;

    /**
     * For a {@code ServiceBusReceiverClient} or {@code ServiceBusReceiverAsyncClient} on a session-enabled
     * entity: the session to lock (at injection), or {@link #NEXT_AVAILABLE_SESSION}, accepted on the client's
     * first call (so the test can send first), waiting for a free session as {@code acceptNextSession()} does.
     * {@code ""} (the default) for entities without sessions. To accept several sessions in the test body, inject
     * a {@code ServiceBusSessionReceiverClient} instead.
     */
    String sessionId() default "";
}
