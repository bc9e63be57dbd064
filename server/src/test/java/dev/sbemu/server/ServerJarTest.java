package dev.sbemu.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelineNextSyncPolicy;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.core.util.UrlBuilder;
import com.azure.messaging.servicebus.ServiceBusClientBuilder;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.ServiceBusTransactionContext;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClientBuilder;
import com.azure.messaging.servicebus.administration.models.CreateQueueOptions;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import com.azure.messaging.servicebus.models.SubQueue;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * The built jar ({@code server/target/sbemu-server-<version>.jar}, after {@code package}) as a separate process on
 * ephemeral ports, driven by the Java SDK as an application in another JVM would drive it. Run by the build's
 * second Surefire execution (integration-test phase); {@code .ci/languages} does the same for JavaScript, Python and Go.
 */
class ServerJarTest {
    private static final Path JAR = Path.of(System.getProperty("sbemu.server.jar", "target/sbemu-server.jar"));
    private static final Path CONFIG = Path.of(System.getProperty("sbemu.server.config", "src/it/Config.json"));
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final List<ServerProcess> processes = new ArrayList<>();

    @AfterEach
    void stop() {
        processes.forEach(p -> p.process.destroyForcibly());
    }

    /** A running jar and what it printed. */
    private static final class ServerProcess {
        final Process process;
        final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        final List<String> output = Collections.synchronizedList(new ArrayList<>());

        ServerProcess(Process process) {
            this.process = process;
            Thread reader = new Thread(
                    () -> {
                        try (BufferedReader in = new BufferedReader(
                                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                            for (String line; (line = in.readLine()) != null; ) {
                                output.add(line);
                                lines.add(line);
                            }
                        } catch (IOException e) {
                            // the process ended
                        }
                    },
                    "server-output");
            reader.setDaemon(true);
            reader.start();
        }

        /** Waits (bounded) for a line that matches, returning the match. */
        Matcher await(Pattern pattern) throws InterruptedException {
            long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
            while (System.nanoTime() < deadline) {
                boolean ended = !process.isAlive();
                String line = lines.poll(100, TimeUnit.MILLISECONDS);
                if (line != null) {
                    Matcher m = pattern.matcher(line);
                    if (m.find()) {
                        return m;
                    }
                }
                if (line == null && ended) {
                    break;
                }
            }
            throw new AssertionError(
                    "no line matching " + pattern + " within " + START_TIMEOUT + "; output: " + output);
        }
    }

    private ServerProcess start(Map<String, String> env, String... args) throws IOException {
        assertTrue(Files.isRegularFile(JAR), JAR + " is missing: run after package");
        List<String> command = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", JAR.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().keySet().removeIf(name -> name.startsWith("SBEMU_") || name.equals("EMULATOR_HTTP_PORT"));
        builder.environment().putAll(env);
        ServerProcess server = new ServerProcess(builder.start());
        processes.add(server);
        return server;
    }

    /** Sends the administration client's requests to the server's HTTP port over plain HTTP. */
    private static HttpPipelinePolicy plainHttp(int httpPort) {
        return new HttpPipelinePolicy() {
            @Override
            public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
                rewrite(context);
                return next.process();
            }

            @Override
            public HttpResponse processSync(HttpPipelineCallContext context, HttpPipelineNextSyncPolicy next) {
                rewrite(context);
                return next.processSync();
            }

            private void rewrite(HttpPipelineCallContext context) {
                UrlBuilder url = UrlBuilder.parse(context.getHttpRequest().getUrl());
                context.getHttpRequest()
                        .setUrl(url.setScheme("http")
                                .setHost("localhost")
                                .setPort(httpPort)
                                .toString());
            }
        };
    }

    @Test
    @DisplayName(
            "SRV-6 SRV-7 the jar on ephemeral ports with Microsoft's connection string (localhost, SAS_KEY_VALUE): send, "
                    + "receive, complete, a transaction, a 10-minute TTL dead-lettered after POST /__admin/clock/advance PT11M, "
                    + "the administration client over HTTP; SIGTERM closes with amqp:connection:forced and exits 0 within a second")
    void javaSdkAgainstTheJar() throws Exception {
        ServerProcess server = start(
                Map.of("ACCEPT_EULA", "Y", "SQL_WAIT_INTERVAL", "15"),
                "--amqp-port",
                "0",
                "--http-port",
                "0",
                "--config",
                CONFIG.toString());
        int amqpPort = Integer.parseInt(
                server.await(Pattern.compile("^AMQP: 127\\.0\\.0\\.1:(\\d+) ")).group(1));
        int httpPort = Integer.parseInt(server.await(Pattern.compile("^HTTP: http://127\\.0\\.0\\.1:(\\d+) "))
                .group(1));
        server.await(Pattern.compile("^" + Pattern.quote(StandaloneServer.READY_LINE) + "$"));
        String connectionString =
                "Endpoint=sb://localhost:" + amqpPort + ";SharedAccessKeyName=RootManageSharedAccessKey;"
                        + "SharedAccessKey=SAS_KEY_VALUE;UseDevelopmentEmulator=true;";
        ServiceBusClientBuilder clients = new ServiceBusClientBuilder().connectionString(connectionString);
        HttpClient http = HttpClient.newHttpClient();

        try (ServiceBusSenderClient sender = clients.sender().queueName("basic").buildClient();
                ServiceBusReceiverClient receiver =
                        clients.receiver().queueName("basic").buildClient()) {
            sender.sendMessage(new ServiceBusMessage("hello").setMessageId("java-1"));
            ServiceBusReceivedMessage message =
                    receiver.receiveMessages(1, WAIT).stream().findFirst().orElseThrow();
            assertEquals("hello", message.getBody().toString());
            receiver.complete(message);
            assertNull(receiver.peekMessage());
        }

        try (ServiceBusSenderClient sender =
                        clients.sender().queueName("transactions").buildClient();
                ServiceBusReceiverClient receiver = clients.receiver()
                        .queueName("transactions")
                        .receiveMode(ServiceBusReceiveMode.RECEIVE_AND_DELETE)
                        .buildClient()) {
            ServiceBusTransactionContext rolledBack = sender.createTransaction();
            sender.sendMessage(new ServiceBusMessage("never"), rolledBack);
            sender.rollbackTransaction(rolledBack);
            ServiceBusTransactionContext committed = sender.createTransaction();
            sender.sendMessage(new ServiceBusMessage("committed"), committed);
            sender.commitTransaction(committed);
            List<String> bodies = receiver.receiveMessages(10, Duration.ofSeconds(2)).stream()
                    .map(m -> m.getBody().toString())
                    .toList();
            assertEquals(List.of("committed"), bodies);
        }

        try (ServiceBusSenderClient sender =
                        clients.sender().queueName("expiring").buildClient();
                ServiceBusReceiverClient deadLetters = clients.receiver()
                        .queueName("expiring")
                        .subQueue(SubQueue.DEAD_LETTER_QUEUE)
                        .receiveMode(ServiceBusReceiveMode.RECEIVE_AND_DELETE)
                        .buildClient()) {
            sender.sendMessage(
                    new ServiceBusMessage("perishable").setMessageId("java-ttl").setTimeToLive(Duration.ofMinutes(10)));
            var advanced = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/__admin/clock/advance"))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString("{\"duration\":\"PT11M\"}"))
                            .build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertEquals(200, advanced.statusCode(), advanced.body());
            ServiceBusReceivedMessage expired =
                    deadLetters.receiveMessages(1, WAIT).stream().findFirst().orElseThrow();
            assertEquals("java-ttl", expired.getMessageId());
            assertEquals("TTLExpiredException", expired.getDeadLetterReason());
        }

        // SPEC CON-4 the jar serves the console from its own files
        var console = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/__admin/console/"))
                        .build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(200, console.statusCode());
        assertTrue(console.body().contains("<title>sbemu console</title>"), console.body());

        ServiceBusAdministrationClient admin = new ServiceBusAdministrationClientBuilder()
                .connectionString(connectionString)
                .addPolicy(plainHttp(httpPort))
                .buildClient();
        admin.createQueue("created-by-java", new CreateQueueOptions().setMaxDeliveryCount(3));
        try (ServiceBusSenderClient sender =
                clients.sender().queueName("created-by-java").buildClient()) {
            sender.sendMessages(List.of(new ServiceBusMessage("a"), new ServiceBusMessage("b")));
        }
        assertEquals(2, admin.getQueueRuntimeProperties("created-by-java").getActiveMessageCount());
        assertEquals(3, admin.getQueue("created-by-java").getMaxDeliveryCount());

        // a client still connected when the server is stopped
        try (ServiceBusSenderClient connected =
                        clients.sender().queueName("basic").buildClient();
                RawAmqpConnection raw = RawAmqpConnection.open(amqpPort, Duration.ofSeconds(10))) {
            connected.sendMessage(new ServiceBusMessage("before the stop"));
            long stopping = System.nanoTime();
            server.process.toHandle().destroy(); // SIGTERM (Process.destroy would also close our end of its output)
            ErrorCondition goodbye = raw.awaitClose();
            assertEquals("amqp:connection:forced", goodbye.getCondition().toString(), goodbye.toString());
            assertTrue(goodbye.getDescription().contains("shutting down"), goodbye.getDescription());
            // bounds, not margins: a stop that waited for the connected client would not end at all
            assertTrue(server.process.waitFor(30, TimeUnit.SECONDS), "still running 30 s after SIGTERM");
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopping);
            assertEquals(0, server.process.exitValue(), String.join("\n", server.output));
            assertTrue(tookMillis < 30_000, "took " + tookMillis + " ms");
            server.await(Pattern.compile("^Stopped\\.$"));
        }
    }

    private static void assertNull(Object value) {
        assertEquals(null, value);
    }

    @Test
    @DisplayName("SRV-5 the jar with a bad variable or Config.json prints one line naming it and exits with 2")
    void badInputExitsWith2() throws Exception {
        ServerProcess badPort = start(Map.of("SBEMU_AMQP_PORT", "not-a-port"));
        assertTrue(badPort.process.waitFor(30, TimeUnit.SECONDS));
        assertEquals(2, badPort.process.exitValue());
        badPort.await(Pattern.compile("^sbemu-server: --amqp-port: 'not-a-port' is not a number"));

        Path malformed = Files.createTempFile("Config", ".json");
        Files.writeString(malformed, "{ // a comment is fine, this is not\n  \"UserConfig\": ");
        ServerProcess badConfig =
                start(Map.of(), "--amqp-port", "0", "--http-port", "0", "--config", malformed.toString());
        assertTrue(badConfig.process.waitFor(30, TimeUnit.SECONDS));
        assertEquals(2, badConfig.process.exitValue());
        badConfig.await(Pattern.compile("^sbemu-server: bad Config.json: .*Config.*\\.json"));
        assertFalse(badConfig.output.stream().anyMatch(l -> l.contains(StandaloneServer.READY_LINE)));
        Files.delete(malformed);
    }

    @Test
    @DisplayName("SRV-8 the jar carries no JUnit, Mockito, Byte Buddy or Objenesis, and says its version")
    void jarContents() throws Exception {
        try (JarFile jar = new JarFile(JAR.toFile())) {
            List<String> unwanted = jar.stream()
                    .map(e -> e.getName())
                    .filter(n -> n.startsWith("org/junit/")
                            || n.startsWith("org/mockito/")
                            || n.startsWith("net/bytebuddy/")
                            || n.startsWith("org/objenesis/")
                            || n.startsWith("org/opentest4j/"))
                    .limit(5)
                    .toList();
            assertEquals(List.of(), unwanted);
            assertEquals(
                    "dev.sbemu.server.Main",
                    jar.getManifest().getMainAttributes().getValue("Main-Class"));
        }
        ServerProcess version = start(Map.of(), "--version");
        assertTrue(version.process.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, version.process.exitValue());
        assertNotNull(version.await(Pattern.compile("^sbemu-server \\d+\\.\\d+\\.\\d+")));
    }
}
