package dev.sbemu.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.amqp.AmqpRetryOptions;
import com.azure.messaging.servicebus.ServiceBusClientBuilder;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import dev.sbemu.amqp.ServiceBusEmulatorServer;
import dev.sbemu.amqp.internal.transport.OutOfMemory;
import dev.sbemu.core.BrokerException;
import dev.sbemu.core.ClockMode;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.apache.qpid.proton.amqp.transport.ErrorCondition;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server in this JVM through {@link Main#tryLaunch}: what it prints, what it starts, what it refuses. */
class MainTest {
    static final String CONFIG = """
            // Microsoft's emulator's format, with its comments and any namespace name
            { "UserConfig": { "Namespaces": [ { "Name": "anything",
                "Queues": [ { "Name": "orders", "Properties": { "MaxDeliveryCount": 3 } } ],
                "Topics": [ { "Name": "events", "Properties": {}, "Subscriptions": [ { "Name": "audit",
                  "Properties": {}, "Rules": [ { "Name": "big", "Properties": { "FilterType": "Sql",
                  "SqlFilter": { "SqlExpression": "size > 10" } } } ] } ] } ] } ],
              "Logging": { "Type": "File" } } }
            """;

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private Main.Outcome launch(Map<String, String> env, String... args) {
        return Main.tryLaunch(
                List.of(args),
                env,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    private static long endpointThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("sbemu-amqp-"))
                .count();
    }

    @Test
    @DisplayName("SRV-7 closing the server closes each connection with amqp:connection:forced (clients retry), "
            + "naming the shutdown; the in-process endpoint's close keeps com.microsoft:operation-cancelled")
    void closeSaysConnectionForced() throws Exception {
        Main.Outcome outcome = launch(Map.of(), "--amqp-port", "0", "--http-port", "0");
        StandaloneServer server = outcome.server();
        try (RawAmqpConnection client = RawAmqpConnection.open(server.amqpPort(), Duration.ofSeconds(10))) {
            server.close();
            ErrorCondition error = client.awaitClose();
            assertNotNull(error);
            assertEquals("amqp:connection:forced", error.getCondition().toString());
            assertTrue(error.getDescription().contains("shutting down"), error.getDescription());
        }
        try (Namespace namespace = Namespace.builder().build();
                ServiceBusEmulatorServer endpoint = ServiceBusEmulatorServer.start(namespace);
                RawAmqpConnection client = RawAmqpConnection.open(endpoint.port(), Duration.ofSeconds(10))) {
            endpoint.close();
            assertEquals(
                    "com.microsoft:operation-cancelled",
                    client.awaitClose().getCondition().toString());
        }
    }

    @Test
    @DisplayName(
            "SRV-6 with a Config.json it creates the entities, listens on both ports and prints the ready line last")
    void startsFromConfig() throws Exception {
        Path config = Files.writeString(dir.resolve("Config.json"), CONFIG);
        Main.Outcome outcome = launch(
                Map.of("ACCEPT_EULA", "Y"),
                "--amqp-port",
                "0",
                "--http-port",
                "0",
                "--config",
                config.toString(),
                "--clock",
                "frozen",
                "--start-at",
                "2030-01-01T00:00:00Z");
        try (StandaloneServer server = outcome.server()) {
            assertEquals(-1, outcome.exitCode());
            assertNotNull(server);
            List<String> lines = out().lines().toList();
            assertEquals(StandaloneServer.READY_LINE, lines.get(lines.size() - 1), out());
            assertTrue(out().contains("Topology: " + config + " (1 queues, 1 topics)"), out());
            assertTrue(out().contains("Ignoring ACCEPT_EULA"), out());
            assertTrue(out().contains("any shared access key is accepted"), out());
            // SPEC SEC-7: without a key the server says plainly that anyone who reaches the port controls it
            assertTrue(
                    out().contains("Control: anyone who reaches the port controls the namespace through /__admin/"),
                    out());
            assertTrue(out().contains("AMQP: 127.0.0.1:" + server.amqpPort()), out());
            assertTrue(out().contains("HTTP: http://127.0.0.1:" + server.httpPort()), out());
            assertTrue(
                    out().contains("Console: http://127.0.0.1:" + server.httpPort() + "/__admin/console/"),
                    out()); // SPEC CON-4
            assertTrue(
                    out().contains("Connection string: Endpoint=sb://localhost:" + server.amqpPort()
                            + ";SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=SAS_KEY_VALUE;"
                            + "UseDevelopmentEmulator=true;"),
                    out());
            assertEquals(List.of("orders"), server.namespace().queueNames());
            assertEquals(3, server.namespace().getQueue("orders").maxDeliveryCount());
            assertEquals(List.of("audit"), server.namespace().subscriptionNames("events"));
            assertEquals(ClockMode.FROZEN, server.namespace().clock().mode());
            assertEquals(
                    Instant.parse("2030-01-01T00:00:00Z"),
                    server.namespace().clock().instant());
            for (int port : new int[] {server.httpPort(), server.amqpPort()}) {
                HttpResponse<String> health = HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
                assertEquals(200, health.statusCode());
            }
        }
        assertEquals("", err());
    }

    @Test
    @DisplayName("SRV-1 both ports speak both protocols: an SDK client with the HTTP port in the connection string "
            + "sends and receives; the HTTP line says AMQP is served there too")
    void amqpOnTheHttpPort() {
        Path config = writeConfig();
        Main.Outcome outcome = launch(Map.of(), "--amqp-port", "0", "--http-port", "0", "--config", config.toString());
        try (StandaloneServer server = outcome.server()) {
            assertTrue(
                    out().contains("HTTP: http://127.0.0.1:" + server.httpPort()
                            + " (management REST API, /health, /__admin/; AMQP is served there too)"),
                    out());
            String overHttpPort = server.connectionString()
                    .replace("localhost:" + server.amqpPort() + ";", "localhost:" + server.httpPort() + ";");
            assertTrue(overHttpPort.contains(":" + server.httpPort() + ";"), overHttpPort);
            ServiceBusClientBuilder clients = new ServiceBusClientBuilder()
                    .connectionString(overHttpPort)
                    .retryOptions(new AmqpRetryOptions().setMaxRetries(1).setTryTimeout(Duration.ofSeconds(15)));
            try (ServiceBusSenderClient sender =
                            clients.sender().queueName("orders").buildClient();
                    ServiceBusReceiverClient receiver =
                            clients.receiver().queueName("orders").buildClient()) {
                sender.sendMessage(new ServiceBusMessage("via 5300"));
                List<ServiceBusReceivedMessage> got = receiver.receiveMessages(1, Duration.ofSeconds(10)).stream()
                        .toList();
                assertEquals(1, got.size());
                assertEquals("via 5300", got.get(0).getBody().toString());
                receiver.complete(got.get(0));
            }
        }
    }

    private Path writeConfig() {
        try {
            return Files.writeString(dir.resolve("Config.json"), CONFIG);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    @DisplayName("JMS-30 --amqps-port adds a TLS port with a self-signed certificate, whose trust store it prints; "
            + "without it there is none")
    void amqpsPort() throws Exception {
        Main.Outcome outcome = launch(Map.of("SBEMU_AMQPS_PORT", "0"), "--amqp-port", "0", "--http-port", "0");
        try (StandaloneServer server = outcome.server()) {
            assertTrue(server.amqpsPort() > 0, out());
            String line = out().lines()
                    .filter(l -> l.startsWith("AMQPS: "))
                    .findFirst()
                    .orElseThrow();
            String store =
                    line.substring(line.indexOf("trust store ") + "trust store ".length(), line.indexOf(", password"));
            KeyStore trust = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(Path.of(store))) {
                trust.load(in, ServiceBusEmulatorServer.TLS_TRUST_STORE_PASSWORD.toCharArray());
            }
            TrustManagerFactory managers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            managers.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, managers.getTrustManagers(), null);
            try (SSLSocket socket =
                    (SSLSocket) context.getSocketFactory().createSocket("localhost", server.amqpsPort())) {
                socket.startHandshake();
            }
        }
        out.reset();
        try (StandaloneServer server =
                launch(Map.of(), "--amqp-port", "0", "--http-port", "0").server()) {
            assertEquals(-1, server.amqpsPort());
            assertTrue(out().lines().noneMatch(l -> l.startsWith("AMQPS: ")), out());
        }
    }

    @Test
    @DisplayName("AMQP-26 --tls-certificate writes the TLS certificate in PEM, which a client trusts for wss:// on the "
            + "AMQP port; without --amqps-port it is a usage error")
    void tlsCertificateFile() throws Exception {
        Path pem = dir.resolve("sbemu.pem");
        Main.Outcome outcome = launch(
                Map.of(),
                "--amqp-port",
                "0",
                "--http-port",
                "0",
                "--amqps-port",
                "0",
                "--tls-certificate",
                pem.toString());
        try (StandaloneServer server = outcome.server()) {
            assertTrue(Files.readString(pem).startsWith("-----BEGIN CERTIFICATE-----\n"), Files.readString(pem));
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            try (InputStream in = Files.newInputStream(pem)) {
                trust.setCertificateEntry(
                        "sbemu", CertificateFactory.getInstance("X.509").generateCertificate(in));
            }
            TrustManagerFactory managers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            managers.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, managers.getTrustManagers(), null);
            // the plain AMQP port: TLS sniffed by its first byte, for the SDKs' wss:// to the connection string's port
            try (SSLSocket socket =
                    (SSLSocket) context.getSocketFactory().createSocket("localhost", server.amqpPort())) {
                socket.startHandshake();
            }
            assertTrue(out().contains("written in PEM to " + pem.toAbsolutePath()), out());
        }
        assertThrows(
                UsageException.class,
                () -> CommandLineOptions.parse(List.of("--tls-certificate", pem.toString()), Map.of()));
    }

    @Test
    @DisplayName("SRV-2 without a Config.json the namespace starts empty, and the server says so")
    void startsEmpty() {
        Main.Outcome outcome = launch(Map.of(), "--amqp-port", "0", "--http-port", "0", "--key", "secret");
        try (StandaloneServer server = outcome.server()) {
            assertEquals(List.of(), server.namespace().queueNames());
            assertTrue(out().contains("no Config.json at /ServiceBus_Emulator/ConfigFiles/Config.json"), out());
            assertTrue(out().contains("only tokens and keys of the --key key"), out());
            // SPEC SEC-7: with a key the control API needs a Manage token, and the line says so
            assertTrue(out().contains("the control API /__admin/ needs a Manage token"), out());
            assertTrue(out().lines().noneMatch(l -> l.startsWith("Control: ")), out());
            assertTrue(server.connectionString().contains("SharedAccessKey=secret;"), server.connectionString());
        }
    }

    @Test
    @DisplayName(
            "NS-8 NS-4 NS-9 a Config.json with several namespaces starts them all: the first is the default, each other "
                    + "is served under its name, with a connection string of its own printed, which reaches it on either port, "
                    + "and a namespace's Limits are its own")
    void severalNamespaces() throws Exception {
        Path config = Files.writeString(dir.resolve("Config.json"), """
                { "UserConfig": { "Namespaces": [
                  { "Name": "sbemulatorns", "Queues": [ { "Name": "orders" } ] },
                  { "Name": "team-a", "Queues": [ { "Name": "orders" }, { "Name": "invoices" } ] },
                  { "Name": "team-b", "Topics": [ { "Name": "events" } ],
                    "Limits": { "MaxQueuesAndTopics": 1 } } ] } }
                """);
        Main.Outcome outcome = launch(Map.of(), "--amqp-port", "0", "--http-port", "0", "--config", config.toString());
        try (StandaloneServer server = outcome.server()) {
            assertNotNull(server, err());
            assertEquals(List.of("orders"), server.namespace().queueNames());
            assertEquals(
                    List.of("invoices", "orders"),
                    server.namespace("team-a").queueNames().stream().sorted().toList());
            assertEquals(List.of("events"), server.namespace("team-b").topicNames());
            // NS-9: a namespace's own limit; the others keep their tier's
            assertEquals(1, server.namespace("team-b").maxQueuesAndTopics());
            assertEquals(10_000, server.namespace("team-a").maxQueuesAndTopics());
            assertEquals(10_000, server.namespace().maxQueuesAndTopics());
            assertThrows(
                    BrokerException.QuotaExceeded.class,
                    () -> server.namespace("team-b").createQueue("one-more"));
            String teamA = out().lines()
                    .filter(l -> l.startsWith("Namespace team-a: "))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError(out()));
            String cs = teamA.substring(teamA.indexOf("Endpoint="));
            assertTrue(cs.contains("SharedAccessKeyName=team-a/RootManageSharedAccessKey;"), cs);
            // NS-4: the port chooses nothing; the HTTP port speaks AMQP too and reaches the same namespace
            cs = cs.replace("sb://localhost:" + server.amqpPort(), "sb://127.0.0.1:" + server.httpPort());
            ServiceBusClientBuilder clients = new ServiceBusClientBuilder()
                    .connectionString(cs)
                    .retryOptions(new AmqpRetryOptions().setMaxRetries(1).setTryTimeout(Duration.ofSeconds(15)));
            try (ServiceBusSenderClient sender =
                    clients.sender().queueName("invoices").buildClient()) {
                sender.sendMessage(new ServiceBusMessage("for team a"));
            }
            assertEquals(
                    1,
                    server.namespace("team-a")
                            .runtimeInfo(EntityPath.queue("invoices"))
                            .activeMessageCount());
        }
    }

    @Test
    @DisplayName("CFG-5 an unknown Config.json key warns, saying that --strict-config exists; with --strict-config (or "
            + "SBEMU_STRICT_CONFIG) it fails with its path and the nearest known key")
    void strictConfig() throws IOException {
        Path typo = Files.writeString(dir.resolve("Typo.json"), """
                { "UserConfig": { "Namespaces": [ { "Name": "ns", "Queues": [
                  { "Name": "orders", "Properties": { "MaxDeliveryCont": 3 } } ] } ] } }
                """);
        Main.Outcome outcome = launch(Map.of(), "--amqp-port", "0", "--http-port", "0", "--config", typo.toString());
        try (StandaloneServer server = outcome.server()) {
            assertNotNull(server, err());
            assertTrue(out().contains("did you mean MaxDeliveryCount?"), out());
            assertTrue(out().contains("--strict-config"), out());
        }
        long before = endpointThreads();
        for (Map<String, String> env : List.of(Map.<String, String>of(), Map.of("SBEMU_STRICT_CONFIG", "true"))) {
            err.reset();
            outcome = env.isEmpty()
                    ? launch(
                            env, "--amqp-port", "0", "--http-port", "0", "--strict-config", "--config", typo.toString())
                    : launch(env, "--amqp-port", "0", "--http-port", "0", "--config", typo.toString());
            assertEquals(2, outcome.exitCode(), err());
            assertNull(outcome.server());
            assertTrue(err().startsWith("sbemu-server: bad Config.json (--strict-config): "), err());
            assertTrue(err().contains("UserConfig.Namespaces[0].Queues[0].Properties.MaxDeliveryCont"), err());
            assertTrue(err().contains("did you mean MaxDeliveryCount?"), err());
            assertEquals(1, err().lines().count(), err());
        }
        assertEquals(before, endpointThreads());
    }

    @Test
    @DisplayName("SRV-5 a bad option: one line on stderr naming it, exit code 2, nothing started")
    void badOption() {
        long before = endpointThreads();
        Main.Outcome outcome = launch(Map.of(), "--amqp-port", "x");
        assertEquals(2, outcome.exitCode());
        assertNull(outcome.server());
        assertEquals("sbemu-server: --amqp-port: 'x' is not a number (SBEMU_AMQP_PORT likewise)\n", err());
        assertEquals("", out());
        assertEquals(before, endpointThreads());
    }

    @Test
    @DisplayName("SRV-5 a malformed or rejected Config.json: one line naming the file and the problem, exit 2, nothing "
            + "left listening")
    void badConfig() throws IOException {
        long before = endpointThreads();
        Path malformed = Files.writeString(dir.resolve("Malformed.json"), "{ \"UserConfig\": [ ");
        Main.Outcome outcome =
                launch(Map.of(), "--amqp-port", "0", "--http-port", "0", "--config", malformed.toString());
        assertEquals(2, outcome.exitCode());
        assertTrue(err().startsWith("sbemu-server: bad Config.json: "), err());
        assertTrue(err().contains("Malformed.json"), err());
        assertEquals(1, err().lines().count(), err());

        err.reset();
        Path rejected = Files.writeString(dir.resolve("Rejected.json"), """
                { "UserConfig": { "Namespaces": [ { "Name": "ns", "Queues": [
                  { "Name": "orders", "Properties": { "MaxDeliveryCount": 0 } } ] } ] } }
                """);
        outcome = launch(Map.of(), "--amqp-port", "0", "--http-port", "0", "--config", rejected.toString());
        assertEquals(2, outcome.exitCode());
        assertTrue(err().startsWith("sbemu-server: bad Config.json: "), err());
        assertTrue(err().contains("MaxDeliveryCount"), err());
        assertEquals(1, err().lines().count(), err());
        assertEquals(before, endpointThreads());
    }

    @Test
    @DisplayName("SRV-5 a port in use: one line naming it, exit code 1, nothing left listening")
    void portInUse() throws IOException {
        long before = endpointThreads();
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Main.Outcome outcome =
                    launch(Map.of(), "--amqp-port", String.valueOf(taken.getLocalPort()), "--http-port", "0");
            assertEquals(1, outcome.exitCode());
            assertTrue(
                    err().startsWith("sbemu-server: cannot listen on 127.0.0.1 port " + taken.getLocalPort()), err());
            assertEquals(1, err().lines().count(), err());
        }
        assertEquals(before, endpointThreads());
    }

    @Test
    @DisplayName("SRV-5 --help prints the options and --version the version, both exit 0")
    void helpAndVersion() {
        assertEquals(0, launch(Map.of(), "--help").exitCode());
        assertTrue(out().startsWith("Usage: java -jar sbemu-server.jar [options]"), out());
        out.reset();
        assertEquals(0, launch(Map.of(), "--version").exitCode());
        assertTrue(out().matches("sbemu-server \\d+\\.\\d+\\.\\d+.*\\R"), out());
    }

    @Test
    @DisplayName("SRV-1 0.0.0.0 says the server is reachable from the network")
    void reachableFromNetwork() {
        Main.Outcome outcome = launch(Map.of(), "--amqp-port", "0", "--http-port", "0", "--bind-address", "0.0.0.0");
        try (StandaloneServer server = outcome.server()) {
            assertTrue(out().contains("Listening on 0.0.0.0: the server is reachable from the network"), out());
            assertTrue(out().contains("any key, and /__admin/ open to all"), out());
            assertTrue(server.connectionString().startsWith("Endpoint=sb://localhost:"), server.connectionString());
        }
    }

    @Test
    @DisplayName(
            "RES-4 an OutOfMemoryError in a server thread, or one the AMQP loop caught, stops the server: one line "
                    + "saying why, the listeners closed, exit status 3")
    void outOfMemoryStopsTheServer() throws Exception {
        for (boolean inTheLoop : new boolean[] {false, true}) {
            Main.Outcome outcome = launch(Map.of(), "--amqp-port", "0", "--http-port", "0");
            StandaloneServer server = outcome.server();
            CompletableFuture<Integer> exited = new CompletableFuture<>();
            ByteArrayOutputStream lines = new ByteArrayOutputStream();
            Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
            try {
                Main.exitOnOutOfMemory(server, new PrintStream(lines, true, StandardCharsets.UTF_8), exited::complete);
                Thread injected = new Thread(
                        () -> {
                            if (inTheLoop) {
                                // what the AMQP loop does with an OutOfMemoryError it caught
                                OutOfMemory.report(new OutOfMemoryError("Java heap space (injected)"));
                            } else {
                                throw new OutOfMemoryError("Java heap space (injected)");
                            }
                        },
                        "sbemu-injected");
                injected.start();
                assertEquals(Main.OUT_OF_MEMORY_STATUS, exited.get(30, TimeUnit.SECONDS));
                String said = lines.toString(StandardCharsets.UTF_8);
                assertTrue(
                        said.startsWith("sbemu-server: out of memory in thread sbemu-injected (Java heap space"), said);
                int port = server.amqpPort();
                assertThrowsConnect(port);
            } finally {
                Thread.setDefaultUncaughtExceptionHandler(before);
                ServiceBusEmulatorServer.onOutOfMemory(null);
                server.close();
            }
        }
    }

    private static void assertThrowsConnect(int port) {
        Assertions.assertThrows(IOException.class, () -> new Socket("127.0.0.1", port).close());
    }
}
