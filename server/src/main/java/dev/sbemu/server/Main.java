package dev.sbemu.server;

import dev.sbemu.amqp.ServiceBusEmulatorServer;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.IntConsumer;

/**
 * {@code java -jar sbemu-server.jar [options]}: starts a {@link StandaloneServer} with the {@link CommandLineOptions}
 * of the command line and the environment, and runs until SIGTERM or SIGINT, which close every connection and exit
 * with 0 within a second. A bad option or Config.json prints one line naming it and exits with 2; a port that cannot
 * be bound exits with 1. Nothing is left running in either case.
 */
public final class Main {
    /** How long the shutdown may take before the process exits regardless. */
    static final long SHUTDOWN_BUDGET_MILLIS = 900;

    private Main() {}

    /** Starts the server and waits for the process to be stopped. */
    public static void main(String[] args) throws InterruptedException {
        releaseIdleProtonBuffers();
        // loads what the endpoint and the first requests need while this thread reads the Config.json
        WarmUp.start();
        StandaloneServer server = launch(List.of(args), System.getenv(), System.out, System.err);
        if (server == null) {
            return;
        }
        exitOnOutOfMemory(server, System.err, code -> Runtime.getRuntime().halt(code));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(server, System.out), "sbemu-shutdown"));
        new CountDownLatch(1).await();
    }

    /** proton-j's system property: a transport drops an emptied input or output buffer larger than this many bytes. */
    static final String PROTON_RELEASE_THRESHOLD = "proton.transport_buffer_release_threshold";

    /**
     * Makes proton-j drop each connection's input and output buffers (one max frame size each, 64 KB by default) once
     * they are empty, instead of keeping them for the connection's life (its default threshold is 2 MB): a quiet
     * connection then costs about 40 KB instead of about 160 KB (RES-8). The price is an allocation of a buffer per
     * busy read and write, short-lived garbage. A {@code -D} of the JVM's command line wins. Must run before
     * proton-j's transport class is loaded, which reads the property once.
     */
    static void releaseIdleProtonBuffers() {
        if (System.getProperty(PROTON_RELEASE_THRESHOLD) == null) {
            System.setProperty(PROTON_RELEASE_THRESHOLD, "0");
        }
    }

    /** The exit status of a server that ran out of memory: the JVM's own for {@code -XX:+ExitOnOutOfMemoryError}. */
    static final int OUT_OF_MEMORY_STATUS = 3;

    /** Memory set aside at start and let go on {@link OutOfMemoryError}, so that the goodbye line can be printed. */
    private static volatile byte[] reserve;

    /**
     * Makes an {@link OutOfMemoryError} in any server thread (the AMQP loop, which catches it, and any thread it ends)
     * stop the process (RES-4): one line on {@code err} saying why, the listeners closed (within
     * {@link #SHUTDOWN_BUDGET_MILLIS}), then {@code exit} with {@link #OUT_OF_MEMORY_STATUS}. A JVM out of heap could
     * otherwise stay a port that accepts and never answers. Once per process.
     */
    static void exitOnOutOfMemory(StandaloneServer server, PrintStream err, IntConsumer exit) {
        reserve = new byte[1024 * 1024];
        AtomicBoolean once = new AtomicBoolean();
        BiConsumer<Thread, Throwable> fatal = (thread, e) -> {
            if (!once.compareAndSet(false, true)) {
                return;
            }
            reserve = null;
            try {
                err.println("sbemu-server: out of memory in thread " + thread.getName() + " (" + e.getMessage()
                        + "): the server stops, exit status " + OUT_OF_MEMORY_STATUS
                        + ". Give it more heap (-Xmx) or lower its limits (--max-connections, ...; docs/guide/server.md, "
                        + "Limits and hardening).");
                err.flush();
                Thread closer = new Thread(server::close, "sbemu-close");
                closer.setDaemon(true);
                closer.start();
                closer.join(SHUTDOWN_BUDGET_MILLIS);
            } catch (InterruptedException | RuntimeException | Error ignored) {
                // exiting anyway
            } finally {
                exit.accept(OUT_OF_MEMORY_STATUS);
            }
        };
        ServiceBusEmulatorServer.onOutOfMemory(e -> fatal.accept(Thread.currentThread(), e));
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> {
            if (e instanceof OutOfMemoryError) {
                fatal.accept(thread, e);
            } else if (previous != null) {
                previous.uncaughtException(thread, e);
            } else {
                System.err.print("Exception in thread \"" + thread.getName() + "\" ");
                e.printStackTrace();
            }
        });
    }

    /**
     * Parses the options and starts the server; on {@code --help} or {@code --version} prints and returns null; on a
     * bad option or Config.json prints one line to {@code err} and exits with 2 (1 when a port cannot be bound).
     */
    static StandaloneServer launch(
            List<String> args, Map<String, String> environment, PrintStream out, PrintStream err) {
        Outcome outcome = tryLaunch(args, environment, out, err);
        if (outcome.exitCode() >= 0) {
            err.flush();
            out.flush();
            System.exit(outcome.exitCode());
        }
        return outcome.server();
    }

    /** What {@link #launch} does, returning the exit code instead of exiting: for tests. */
    static Outcome tryLaunch(List<String> args, Map<String, String> environment, PrintStream out, PrintStream err) {
        try {
            CommandLineOptions options = CommandLineOptions.parse(args, environment);
            if (options.help()) {
                out.print(CommandLineOptions.usage());
                return new Outcome(0, null);
            }
            if (options.version()) {
                out.println("sbemu-server " + StandaloneServer.version());
                return new Outcome(0, null);
            }
            return new Outcome(-1, StandaloneServer.start(options, out));
        } catch (UsageException e) {
            err.println("sbemu-server: " + e.getMessage());
            return new Outcome(2, null);
        } catch (StartException e) {
            err.println("sbemu-server: " + e.getMessage());
            return new Outcome(1, null);
        }
    }

    /** Closes {@code server} within {@link #SHUTDOWN_BUDGET_MILLIS} and ends the process with 0. */
    private static void stop(StandaloneServer server, PrintStream out) {
        Thread closer = new Thread(server::close, "sbemu-close");
        closer.setDaemon(true);
        closer.start();
        try {
            closer.join(SHUTDOWN_BUDGET_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        out.println(closer.isAlive() ? "Stopped (some connections did not close in time)." : "Stopped.");
        out.flush();
        // a signal's default exit status is 128 + its number; a server asked to stop has succeeded
        Runtime.getRuntime().halt(0);
    }

    /** The exit code (-1 while running) and the server started, if any. */
    record Outcome(int exitCode, StandaloneServer server) {}
}
