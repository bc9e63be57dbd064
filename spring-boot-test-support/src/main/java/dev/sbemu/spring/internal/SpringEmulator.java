package dev.sbemu.spring.internal;

import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import dev.sbemu.amqp.ServiceBusEmulatorServer;
import dev.sbemu.core.BrokerException;
import dev.sbemu.core.Namespace;
import dev.sbemu.junit.DeclaredNamespace;
import dev.sbemu.spring.EmulatedServiceBus;
import java.util.regex.Pattern;
import org.springframework.beans.factory.DisposableBean;

/**
 * One application context's emulated Service Bus: an AMQP endpoint that lives as long as the context, and the
 * namespace it serves, which {@link #renew()} replaces by a fresh one built from the declaration.
 *
 * <p>It also records which test holds the namespace (SPRING-6): a test reserves it while its instance is prepared
 * and holds it from its start to its end (with {@code BEFORE_EACH_CLASS}, a test class from its start to its end).
 * A test that wants it while another test holds it fails at its start with {@link #inUse}, instead of renewing
 * the namespace under the other test.
 */
final class SpringEmulator implements EmulatedServiceBus, DisposableBean {
    /** The bean's name in the application context. */
    static final String BEAN_NAME = "sbemu.emulatedServiceBus";
    /** The address the endpoint listens on (its connection string's host). */
    static final String HOST = "127.0.0.1";
    /** The names the service gives the subscriptions of JMS consumers (JMS-16). */
    private static final Pattern JMS_SUBSCRIPTION = Pattern.compile("[^$/\\\\?#]+\\$[^$/\\\\?#]*\\$N?D");

    private final DeclaredNamespace declaration;
    private final ServiceBusEmulatorServer server;
    /** The test that holds the namespace, or null. Guarded by {@code this}. */
    private Holder holder;

    /**
     * A test (or, with {@code BEFORE_EACH_CLASS}, a test class) that holds the namespace.
     *
     * @param token the test's own object
     * @param testClass its class
     * @param test its name, for messages
     * @param started false while its instance is being prepared (only reserved)
     */
    private record Holder(Object token, Class<?> testClass, String test, boolean started) {}

    SpringEmulator(DeclaredNamespace declaration) {
        this.declaration = declaration;
        Namespace first = declaration.start();
        try {
            this.server = ServiceBusEmulatorServer.start(first, declaration.endpointSettings());
        } catch (RuntimeException e) {
            first.close();
            throw e;
        }
    }

    /**
     * Serves a fresh namespace (the declared entities, no messages, the clock at its start) and closes the old one.
     * The subscriptions JMS consumers made in the old one come along, empty (SPRING-9): the application's listeners
     * stay attached across the renewal and read from them.
     */
    synchronized void renew() {
        Namespace next = declaration.start();
        carryJmsSubscriptions(server.namespace(), next);
        Namespace previous = server.replaceNamespace(next);
        // and those a consumer's attach made while the namespace was being replaced
        carryJmsSubscriptions(previous, next);
        previous.close();
    }

    /**
     * Makes in {@code next} each subscription with a name the service gives JMS consumers
     * ({@code <name>$<client id>$D} or {@code $ND}, JMS-16) that {@code previous} has and {@code next} lacks, on a
     * topic {@code next} has: with its settings and rules, without messages.
     */
    static void carryJmsSubscriptions(Namespace previous, Namespace next) {
        for (String topic : previous.topicNames()) {
            if (!next.topicExists(topic)) {
                continue;
            }
            for (String name : previous.subscriptionNames(topic)) {
                if (JMS_SUBSCRIPTION.matcher(name).matches() && !next.subscriptionExists(topic, name)) {
                    try {
                        next.createSubscription(
                                topic, name, previous.getSubscription(topic, name), previous.listRules(topic, name));
                    } catch (BrokerException.EntityNotFound | BrokerException.EntityAlreadyExists e) {
                        // deleted meanwhile in previous (its consumer went), or made by a consumer in next already
                    }
                }
            }
        }
    }

    /**
     * Reserves a fresh namespace for a test whose instance is being prepared, unless another test holds it.
     *
     * @return null when reserved (and renewed), else the name of the test that holds the namespace
     */
    synchronized String reserve(Object token, Class<?> testClass) {
        if (holder != null && !mayTakeOver(testClass, false)) {
            return holder.test();
        }
        renew();
        holder = new Holder(token, testClass, "a test of " + name(testClass) + " (being prepared)", false);
        return null;
    }

    /**
     * Starts a test: it holds the namespace from now until {@link #release}. A test that reserved it keeps its
     * namespace; one that did not ({@code token} new) gets a fresh one.
     *
     * @throws IllegalStateException ({@link #inUse}) when another test holds the namespace
     */
    synchronized void start(Object token, Class<?> testClass, String test) {
        if (holder != null && holder.token() == token) {
            holder = new Holder(token, testClass, test, true);
            return;
        }
        if (holder != null && !mayTakeOver(testClass, true)) {
            throw inUse(test, holder.test());
        }
        renew();
        holder = new Holder(token, testClass, test, true);
    }

    /** Whether a test of {@code testClass} may take the namespace from the holder: it ended unnoticed, or encloses it. */
    private boolean mayTakeOver(Class<?> testClass, boolean starting) {
        if (holder.testClass() != testClass) {
            // a @Nested class's tests run while its enclosing class (holding the namespace per class) is open
            for (Class<?> c = testClass.getEnclosingClass(); c != null; c = c.getEnclosingClass()) {
                if (c == holder.testClass()) {
                    return true;
                }
            }
            return false;
        }
        // a reservation of the same class whose test never started (its preparation failed), not a running test
        return !holder.started() && !starting;
    }

    /** Ends the holding of the test with {@code token}; returns whether it held the namespace. */
    synchronized boolean release(Object token) {
        if (holder != null && holder.token() == token) {
            holder = null;
            return true;
        }
        return false;
    }

    /** Ends the holding of any test of {@code testClass}, when the class ends. */
    synchronized void releaseClass(Class<?> testClass) {
        if (holder != null && holder.testClass() == testClass) {
            holder = null;
        }
    }

    /** A test's name in messages: its class (without package) and method. */
    static String name(Class<?> testClass) {
        String name = testClass.getName();
        return name.substring(name.lastIndexOf('.') + 1);
    }

    /** The failure of a test that started while another test held the namespace of its context. */
    static IllegalStateException inUse(String test, String holder) {
        return new IllegalStateException("sbemu: " + test + " started while " + holder + " is still using the "
                + "emulated Service Bus namespace of the same Spring application context. Test classes with equal "
                + "@SpringServiceBusEmulator declarations and Spring configuration share one cached context, whose "
                + "namespace is handed from one test to the next, so they must run one after another: with JUnit's "
                + "parallel execution, annotate each class that shares the context with @ResourceLock(\"<a name of "
                + "your choice>\") (and a class whose methods run concurrently with @Execution(ExecutionMode."
                + "SAME_THREAD)), or give the classes different contexts (different declarations or Spring "
                + "configuration). Failing this test rather than mixing the two tests' messages and clock moves.");
    }

    @Override
    public Namespace namespace() {
        return server.namespace();
    }

    @Override
    public ServiceBusAdministrationClient administrationClient() {
        return server.administrationClientBuilder().buildClient();
    }

    /** The endpoint's AMQP port (on 127.0.0.1), the same for every namespace the context is handed. */
    int port() {
        return server.port();
    }

    @Override
    public String connectionString() {
        return server.getConnectionString();
    }

    @Override
    public synchronized void destroy() {
        Namespace last = server.namespace();
        server.close();
        last.close();
    }

    @Override
    public String toString() {
        return "EmulatedServiceBus[" + connectionString().replaceAll("SharedAccessKey=[^;]*", "SharedAccessKey=***")
                + "]";
    }
}
