package dev.sbemu.spring.internal;

import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import dev.sbemu.amqp.ServiceBusEmulatorServer;
import dev.sbemu.core.Namespace;
import dev.sbemu.junit.DeclaredNamespace;
import dev.sbemu.spring.EmulatedServiceBus;
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
    private record Holder(Object token, Class<?> testClass, String test, boolean started) {
    }

    SpringEmulator(DeclaredNamespace declaration) {
        this.declaration = declaration;
        Namespace first = declaration.start();
        try {
            this.server = declaration.tlsPort() < 0 ? ServiceBusEmulatorServer.start(first)
                    : ServiceBusEmulatorServer.builder(first).tlsPort(declaration.tlsPort()).start();
        } catch (RuntimeException e) {
            first.close();
            throw e;
        }
    }

    /** Serves a fresh namespace (the declared entities, no messages, the clock at its start) and closes the old one. */
    synchronized void renew() {
        server.replaceNamespace(declaration.start()).close();
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
