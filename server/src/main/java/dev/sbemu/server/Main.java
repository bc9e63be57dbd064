package dev.sbemu.server;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

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
        // loads what the endpoint and the first requests need while this thread reads the Config.json
        WarmUp.start();
        StandaloneServer server = launch(List.of(args), System.getenv(), System.out, System.err);
        if (server == null) {
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(server, System.out), "sbemu-shutdown"));
        new CountDownLatch(1).await();
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
