package dev.sbemu.benchmarks.server;

import com.azure.messaging.servicebus.ServiceBusClientBuilder;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusMessageBatch;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.models.ServiceBusReceiveMode;
import dev.sbemu.amqp.ServiceBusEmulatorServer;
import dev.sbemu.core.Namespace;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * Issue 24's cross-process figure: the Java SDK's batched send ({@code ServiceBusMessageBatch} of {@value #BATCH}
 * 100-byte messages) and a receive-and-delete receiver with {@code prefetchCount(}{@value #PREFETCH}{@code )}, the
 * case {@code EndpointThroughputBenchmark.batchSendPrefetchReceiveAndDelete} measures in one JVM, against
 * <ul>
 *   <li>{@code server-process}: the sbemu-server jar started by the trial as another process ({@code java -jar
 *       <jar> --amqp-port 0 --http-port 0 --config <Config.json with queue bulk>}; the jar is
 *       {@code -Dsbemu.server.jar=...}, by default the one in server/target), and</li>
 *   <li>{@code in-jvm}: the same endpoint ({@code ServiceBusEmulatorServer}) started in the benchmark's JVM.</li>
 * </ul>
 * Same client code, same loopback, scored per message.
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar ServerProcessThroughput -f 1 -wi 3 -i 5
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class ServerProcessThroughputBenchmark {
    static final int BATCH = 1000;
    static final int PREFETCH = 100;
    private static final Duration MAX_WAIT = Duration.ofSeconds(10);
    private static final String READY = "Emulator Service is Successfully Up!";

    @Param({"server-process", "in-jvm"})
    public String target;

    private Process process;
    private Path config;
    private Namespace namespace;
    private ServiceBusEmulatorServer server;
    private ServiceBusSenderClient sender;
    private ServiceBusReceiverClient receiver;
    private final List<ServiceBusMessage> messages = new ArrayList<>();

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        for (int i = 0; i < BATCH; i++) {
            messages.add(new ServiceBusMessage(new byte[100]).setMessageId("order-" + i));
        }
        String connectionString;
        if (target.equals("server-process")) {
            connectionString = startServerProcess();
        } else {
            namespace = Namespace.builder().build();
            namespace.createQueue("bulk");
            server = ServiceBusEmulatorServer.builder(namespace)
                    .acceptAnyKey()
                    .sharedAccessKey("SAS_KEY_VALUE")
                    .start();
            connectionString = server.getConnectionString();
        }
        ServiceBusClientBuilder builder = new ServiceBusClientBuilder().connectionString(connectionString);
        sender = builder.sender().queueName("bulk").buildClient();
        receiver = builder.receiver()
                .queueName("bulk")
                .receiveMode(ServiceBusReceiveMode.RECEIVE_AND_DELETE)
                .prefetchCount(PREFETCH)
                .buildClient();
    }

    private String startServerProcess() throws IOException {
        config = Files.createTempFile("sbemu-bulk", ".json");
        Files.writeString(
                config,
                "{\"UserConfig\":{\"Namespaces\":[{\"Name\":\"sbemulatorns\",\"Queues\":"
                        + "[{\"Name\":\"bulk\",\"Properties\":{}}],\"Topics\":[]}]}}");
        String jar = System.getProperty("sbemu.server.jar");
        if (jar == null) {
            try (Stream<Path> files = Files.list(Path.of("server/target"))) {
                jar = files.map(Path::toString)
                        .filter(f -> f.matches(".*/sbemu-server-[^/]*\\.jar"))
                        .findFirst()
                        .orElseThrow(() -> new IllegalStateException(
                                "no server/target/sbemu-server-*.jar: build it or pass -Dsbemu.server.jar"));
            }
        }
        process = new ProcessBuilder(
                        "java", "-jar", jar, "--amqp-port", "0", "--http-port", "0", "--config", config.toString())
                .redirectErrorStream(true)
                .start();
        BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String connectionString = null;
        Pattern line = Pattern.compile("Connection string: (.*)");
        for (String l = out.readLine(); l != null; l = out.readLine()) {
            Matcher m = line.matcher(l);
            if (m.matches()) {
                connectionString = m.group(1);
            }
            if (l.equals(READY)) {
                break;
            }
        }
        if (connectionString == null) {
            throw new IllegalStateException("the server process did not start");
        }
        // keep draining its output
        Thread drain = new Thread(() -> {
            try {
                out.transferTo(Writer.nullWriter());
            } catch (IOException e) {
                // ended
            }
        });
        drain.setDaemon(true);
        drain.start();
        return connectionString;
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        sender.close();
        receiver.close();
        if (server != null) {
            server.close();
            namespace.close();
        }
        if (process != null) {
            process.destroy();
            process.waitFor(5, TimeUnit.SECONDS);
            Files.deleteIfExists(config);
        }
    }

    /** one batch of {@value #BATCH} sent, then received by a receive-and-delete receiver with prefetch. */
    @Benchmark
    @Threads(1)
    @OperationsPerInvocation(BATCH)
    public int batchSendPrefetchReceiveAndDelete() {
        ServiceBusMessageBatch batch = sender.createMessageBatch();
        for (ServiceBusMessage m : messages) {
            if (!batch.tryAddMessage(m)) {
                throw new IllegalStateException("a batch holds only " + batch.getCount() + " of " + BATCH);
            }
        }
        sender.sendMessages(batch);
        int received = 0;
        while (received < BATCH) {
            int got = 0;
            for (ServiceBusReceivedMessage ignored :
                    receiver.receiveMessages(Math.min(PREFETCH, BATCH - received), MAX_WAIT)) {
                got++;
            }
            if (got == 0) {
                throw new IllegalStateException("received " + received + " of " + BATCH + ", then nothing");
            }
            received += got;
        }
        return received;
    }
}
