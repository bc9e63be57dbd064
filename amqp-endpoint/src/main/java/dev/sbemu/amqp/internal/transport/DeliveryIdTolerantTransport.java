package dev.sbemu.amqp.internal.transport;

import java.lang.reflect.Field;
import java.util.Map;
import org.apache.qpid.proton.amqp.Binary;
import org.apache.qpid.proton.amqp.UnsignedInteger;
import org.apache.qpid.proton.amqp.transport.Transfer;
import org.apache.qpid.proton.engine.impl.TransportImpl;

/**
 * proton-j's transport, taking a session's new deliveries in whatever order their delivery ids come (spec AMQP-27),
 * as the service does: an SDK that sends on one session from several threads (concurrent peeks and lock renewals on
 * one {@code $management} link) can put delivery 8 on the wire before delivery 7.
 *
 * <p>proton-j 0.34's {@code TransportSession} remembers the id of the session's last new delivery and closes the
 * connection ("Expected delivery-id 8, got 7") unless the next one is exactly one more; nothing else in it depends on
 * the order (unsettled deliveries are kept by their id, so a disposition naming the client's ids finds them). Before
 * each new delivery whose id is not the next, this class sets that remembered id to the one before it; on a
 * continuation frame, which proton-j does not check, it puts the old value back. The private field is read by
 * reflection: the one trick of its kind in the endpoint, pinned to proton-j 0.34.1 (its last release) and checked
 * once, when the class loads, so that a proton-j without the field fails at start-up, not on the first transfer.
 */
final class DeliveryIdTolerantTransport extends TransportImpl {
    private static final Field REMOTE_SESSIONS = field(TransportImpl.class, "_remoteSessions");
    private static final Field LAST_DELIVERY_ID = field(sessionClass(), "_incomingDeliveryId");

    @Override
    public void handleTransfer(Transfer transfer, Binary payload, Integer channel) {
        UnsignedInteger id = transfer.getDeliveryId();
        Object session = id == null ? null : session(channel);
        if (session == null) {
            super.handleTransfer(transfer, payload, channel);
            return;
        }
        Object last = get(session);
        UnsignedInteger previous = id.subtract(UnsignedInteger.ONE);
        if (last == null || last.equals(previous)) {
            super.handleTransfer(transfer, payload, channel);
            return;
        }
        set(session, previous);
        try {
            super.handleTransfer(transfer, payload, channel);
        } finally {
            if (get(session) == previous) {
                set(session, last); // a continuation of an earlier delivery: its session's sequence is as it was
            }
        }
    }

    private Object session(Integer channel) {
        try {
            return ((Map<?, ?>) REMOTE_SESSIONS.get(this)).get(channel);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Object get(Object session) {
        try {
            return LAST_DELIVERY_ID.get(session);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void set(Object session, Object value) {
        try {
            LAST_DELIVERY_ID.set(session, value);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Class<?> sessionClass() {
        try {
            return Class.forName("org.apache.qpid.proton.engine.impl.TransportSession");
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("proton-j 0.34.1 is expected on the class path", e);
        }
    }

    private static Field field(Class<?> owner, String name) {
        try {
            Field field = owner.getDeclaredField(name);
            field.setAccessible(true);
            return field;
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException(
                    "proton-j 0.34.1 is expected on the class path: " + owner.getName() + " has no field " + name, e);
        }
    }
}
