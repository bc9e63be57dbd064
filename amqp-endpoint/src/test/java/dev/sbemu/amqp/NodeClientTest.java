package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sbemu.core.EntityPath;
import dev.sbemu.core.EntityRuntimeInfo;
import dev.sbemu.core.JournalEvent;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.RuleDescription;
import dev.sbemu.core.SubscriptionOptions;
import dev.sbemu.core.filter.SqlFilter;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A client that is neither Java nor written here: {@code src/test/node/service-bus-client.js} drives the
 * endpoint with the Azure SDK for JavaScript ({@code @azure/service-bus} from the npm registry, pinned by
 * {@code package-lock.json}, installed by this test with {@code npm ci} into {@code target/node-client}).
 *
 * <p>The script and this test meet over the script's stdin and stdout: when the script needs the virtual
 * clock moved it prints {@code @@sbemu WAIT <event>}; this side checks the namespace, advances the clock,
 * checks again and answers. Every wait is bounded; the process is killed on timeout and its whole output is
 * shown on failure. Without {@code node} on the PATH the test is skipped with that reason, except with
 * {@code CI=true}, where it fails.
 */
class NodeClientTest {
    private static final Path SOURCES = Path.of("src/test/node");
    private static final Path WORK = Path.of("target/node-client");
    private static final String SCRIPT = "service-bus-client.js";
    /** The node executable: {@code -Dsbemu.test.node=/path/to/node}, else {@code node} on the PATH. */
    private static final String NODE = System.getProperty("sbemu.test.node", "node");

    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration INSTALL_TIMEOUT = Duration.ofMinutes(5);
    private static final Duration RUN_TIMEOUT = Duration.ofMinutes(3);
    private static final String PROTOCOL = "@@sbemu ";
    private static final List<String> STEPS = List.of(
            "send-receive-complete",
            "abandon",
            "dead-letter",
            "defer",
            "schedule",
            "ttl",
            "receive-and-delete-and-subscribe",
            "sessions",
            "topic-sql-filter");

    private static final String QUEUE = "js-queue";
    private static final String ADMIN_SCRIPT = "admin-over-http.js";
    private static final List<String> ADMIN_STEPS =
            List.of("health", "create-queue", "send-with-ttl", "advance-clock", "dead-letter-queue", "runtime-counts");

    @Test
    @DisplayName("HTTP-12 the JavaScript SDK's administration client on the endpoint's one port creates a queue and "
            + "reads runtime counts; a 10-minute TTL message is dead-lettered after the clock moves 11 minutes through "
            + "/__admin/ (TTL-9)")
    void administrationOverHttpForJavaScript() throws Exception {
        requireNode();
        installPackages();
        try (Namespace namespace = Namespace.create();
                ServiceBusEmulatorServer server = ServiceBusEmulatorServer.start(namespace);
                NodeProcess script = NodeProcess.start(WORK, NODE, ADMIN_SCRIPT, server.getConnectionString())) {
            List<String> steps = new ArrayList<>();
            boolean done = false;
            long deadline = System.nanoTime() + RUN_TIMEOUT.toNanos();
            for (Optional<String> line; (line = script.nextProtocolLine(deadline)).isPresent(); ) {
                String message = line.get();
                if (message.startsWith("STEP ")) {
                    steps.add(message.substring(5));
                } else if (message.equals("DONE")) {
                    done = true;
                } else {
                    throw script.fail("unknown protocol line '" + message + "'");
                }
            }
            int exit = script.waitForExit(deadline);
            if (exit != 0 || !done || !steps.equals(ADMIN_STEPS)) {
                throw script.fail("exit status " + exit + ", steps " + steps + (done ? "" : ", no DONE"));
            }
            EntityRuntimeInfo info = namespace.runtimeInfo(EntityPath.queue("js-admin-queue"));
            assertEquals(0, info.activeMessageCount() + info.deadLetterMessageCount());
            assertEquals(
                    1,
                    namespace.journal().events().stream()
                            .filter(e -> e.type() == JournalEvent.Type.EXPIRED)
                            .count());
        }
    }

    @Test
    @DisplayName("The Azure SDK for JavaScript sends, schedules, settles, uses sessions and a SQL-filtered "
            + "subscription while the Java side moves the clock (AMQP-15, SCH-2, SCH-3, TTL-9, CLK-2)")
    void azureServiceBusForJavaScript() throws Exception {
        requireNode();
        installPackages();

        try (Namespace namespace = Namespace.create()) {
            run(namespace);
        }
    }

    private static void run(Namespace namespace) throws Exception {
        namespace.createQueue(
                QUEUE,
                QueueOptions.builder().deadLetteringOnMessageExpiration(true).build());
        namespace.createQueue(
                "js-sessions", QueueOptions.builder().requiresSession(true).build());
        namespace.createTopic("js-topic");
        namespace.createSubscription(
                "js-topic",
                "red",
                SubscriptionOptions.defaults(),
                List.of(new RuleDescription("red-only", SqlFilter.parse("color = 'red'"), null)));
        namespace.createSubscription("js-topic", "all");

        try (ServiceBusEmulatorServer server = ServiceBusEmulatorServer.start(namespace);
                NodeProcess script = NodeProcess.start(WORK, NODE, SCRIPT, server.getConnectionString())) {
            List<String> steps = new ArrayList<>();
            boolean done = false;
            long deadline = System.nanoTime() + RUN_TIMEOUT.toNanos();
            for (Optional<String> line; (line = script.nextProtocolLine(deadline)).isPresent(); ) {
                String message = line.get();
                if (message.startsWith("STEP ")) {
                    steps.add(message.substring(5));
                } else if (message.startsWith("WAIT ")) {
                    script.answer(onEvent(namespace, message.substring(5), script));
                } else if (message.equals("DONE")) {
                    done = true;
                } else {
                    throw script.fail("unknown protocol line '" + message + "'");
                }
            }
            int exit = script.waitForExit(deadline);
            if (exit != 0 || !done || !steps.equals(STEPS)) {
                throw script.fail("exit status " + exit + ", steps " + steps + (done ? "" : ", no DONE"));
            }
        }
    }

    /** What the Java side does when the script reports {@code event}; returns the script's expected answer. */
    private static String onEvent(Namespace namespace, String event, NodeProcess script) {
        EntityPath queue = EntityPath.queue(QUEUE);
        switch (event) {
            case "scheduled" -> {
                expectCounts(script, namespace, queue, 0, 1, 0, "one message scheduled, the other cancelled");
                namespace.clock().advance(Duration.ofHours(2));
                expectCounts(script, namespace, queue, 1, 0, 0, "the scheduled message is active after 2 h");
                return "clock advanced 2h";
            }
            case "ttl-sent" -> {
                expectCounts(script, namespace, queue, 1, 0, 0, "the message with a 60 s TTL is active");
                namespace.clock().advance(Duration.ofSeconds(61));
                expectCounts(script, namespace, queue, 0, 0, 1, "the message expired into the dead-letter queue");
                return "clock advanced 61s";
            }
            default -> throw script.fail("unknown event '" + event + "'");
        }
    }

    private static void expectCounts(
            NodeProcess script,
            Namespace namespace,
            EntityPath entity,
            long active,
            long scheduled,
            long deadLettered,
            String what) {
        EntityRuntimeInfo info = namespace.runtimeInfo(entity);
        List<Long> expected = List.of(active, scheduled, deadLettered);
        List<Long> actual =
                List.of(info.activeMessageCount(), info.scheduledMessageCount(), info.deadLetterMessageCount());
        if (!expected.equals(actual)) {
            throw script.fail(what + ": expected active, scheduled, dead-lettered " + expected + " but was " + actual);
        }
    }

    /** Skips without node, except on CI (CI=true), where a missing node fails the build. */
    private static void requireNode() throws InterruptedException {
        String reason = whyNodeCannotRun();
        if (reason != null && "true".equalsIgnoreCase(System.getenv("CI"))) {
            fail("CI=true, so the Node.js client test must run, but " + reason);
        }
        assumeTrue(reason == null, () -> "Node.js client test skipped: " + reason);
    }

    /** Null when {@code node --version} runs, else why not. */
    private static String whyNodeCannotRun() throws InterruptedException {
        try {
            Process probe = new ProcessBuilder(NODE, "--version")
                    .redirectErrorStream(true)
                    .start();
            probe.getOutputStream().close();
            if (!probe.waitFor(PROBE_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                probe.destroyForcibly();
                return "'node --version' did not finish within " + PROBE_TIMEOUT;
            }
            String output = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return probe.exitValue() == 0 ? null : "'node --version' exited with " + probe.exitValue() + ": " + output;
        } catch (IOException e) {
            return "'" + NODE + "' cannot be run (" + e.getMessage() + ")";
        }
    }

    /**
     * Copies the script and the package files to {@code target/node-client} and runs {@code npm ci} there,
     * unless the packages of the same lockfile are installed already.
     */
    private static void installPackages() throws IOException, InterruptedException {
        Files.createDirectories(WORK);
        Files.copy(SOURCES.resolve(SCRIPT), WORK.resolve(SCRIPT), StandardCopyOption.REPLACE_EXISTING);
        Files.copy(SOURCES.resolve(ADMIN_SCRIPT), WORK.resolve(ADMIN_SCRIPT), StandardCopyOption.REPLACE_EXISTING);
        Path lock = WORK.resolve("package-lock.json");
        boolean installed = Files.exists(lock)
                && Files.mismatch(SOURCES.resolve("package-lock.json"), lock) == -1
                && Files.exists(WORK.resolve("node_modules/@azure/service-bus/package.json"));
        if (installed) {
            return;
        }
        Files.copy(SOURCES.resolve("package.json"), WORK.resolve("package.json"), StandardCopyOption.REPLACE_EXISTING);
        Files.copy(SOURCES.resolve("package-lock.json"), lock, StandardCopyOption.REPLACE_EXISTING);
        String npm = System.getProperty("os.name").startsWith("Windows") ? "npm.cmd" : "npm";
        try (NodeProcess install = NodeProcess.start(WORK, npm, "ci", "--no-audit", "--no-fund")) {
            int exit = install.waitForExit(System.nanoTime() + INSTALL_TIMEOUT.toNanos());
            if (exit != 0) {
                // A half-done install must not pass for a finished one next time.
                Files.deleteIfExists(lock);
                throw install.fail("npm ci exited with " + exit);
            }
        }
    }

    /**
     * A child process whose stdout and stderr are read by one thread: every line goes to the transcript,
     * protocol lines also to a queue. Closing kills the process and its descendants.
     */
    private static final class NodeProcess implements AutoCloseable {
        private static final String EOF = "\u0000eof";

        private final List<String> command;
        private final Process process;
        private final Writer stdin;
        private final StringBuffer transcript = new StringBuffer();
        private final BlockingQueue<String> protocol = new LinkedBlockingQueue<>();
        private final Thread reader;

        private NodeProcess(List<String> command, Process process) {
            this.command = command;
            this.process = process;
            this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            this.reader = new Thread(this::read, "node-output");
            reader.setDaemon(true);
            reader.start();
        }

        static NodeProcess start(Path directory, String... command) throws IOException {
            Process process = new ProcessBuilder(command)
                    .directory(directory.toFile())
                    .redirectErrorStream(true)
                    .start();
            return new NodeProcess(List.of(command), process);
        }

        private void read() {
            try (BufferedReader in =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    transcript.append(line).append('\n');
                    if (line.startsWith(PROTOCOL)) {
                        protocol.add(line.substring(PROTOCOL.length()));
                    }
                }
            } catch (IOException e) {
                transcript.append("[reading the output failed: ").append(e).append("]\n");
            } finally {
                protocol.add(EOF);
            }
        }

        /** The next protocol line, or empty when the output ended; fails when the deadline passes first. */
        Optional<String> nextProtocolLine(long deadlineNanos) throws InterruptedException {
            String line = protocol.poll(deadlineNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (line == null) {
                throw fail("no output line within " + RUN_TIMEOUT);
            }
            return line.equals(EOF) ? Optional.empty() : Optional.of(line);
        }

        void answer(String reply) throws IOException {
            stdin.write(reply + "\n");
            stdin.flush();
        }

        /** The exit status; fails when the process outlives the deadline. */
        int waitForExit(long deadlineNanos) throws InterruptedException {
            if (!process.waitFor(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                throw fail("still running at the deadline");
            }
            reader.join(TimeUnit.SECONDS.toMillis(10));
            return process.exitValue();
        }

        /** Kills the process and fails with {@code why} and everything the process printed. */
        AssertionError fail(String why) {
            close();
            try {
                reader.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new AssertionError(String.join(" ", command).replaceAll("Endpoint=\\S*", "<connection string>") + ": "
                    + why + "\n---- output ----\n" + transcript + "---- end of output ----");
        }

        @Override
        public void close() {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            try {
                stdin.close();
            } catch (IOException e) {
                // The process is gone: nothing left to deliver to it.
            }
        }
    }
}
