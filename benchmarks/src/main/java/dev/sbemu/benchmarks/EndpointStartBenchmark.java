package dev.sbemu.benchmarks;

import dev.sbemu.amqp.ServiceBusEmulatorServer;
import dev.sbemu.core.Namespace;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * How long the AMQP endpoint takes to come up and to go away.
 * <ul>
 *   <li>{@code startToFirstAcceptedConnection}: from {@link ServiceBusEmulatorServer#start(Namespace)} until
 *       the endpoint has accepted a raw TCP connection to its port ({@code connectionCount() == 1}, i.e. its
 *       network thread took the socket from the listening one and registered it). The client is a plain
 *       blocking {@code SocketChannel}, not the SDK: what the SDK adds on its first connection (AMQP and
 *       SASL handshake, CBS token, link attach) is in {@link EndpointPerTestBenchmark}.</li>
 *   <li>{@code closeWithOneConnection}: {@link ServiceBusEmulatorServer#close()} of a started endpoint with
 *       that one raw connection open (the network thread stops and is joined, the socket is dropped, the
 *       worker pool ends).</li>
 * </ul>
 * Sample time, so the report holds the median as well as the mean. The trial's setup first runs both
 * {@value #WARM_UP_RUNS} times.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class EndpointStartBenchmark {
    static final int WARM_UP_RUNS = 500;
    private static final long ACCEPT_BOUND_NANOS = TimeUnit.SECONDS.toNanos(10);

    private Namespace namespace;

    /** The server and client socket the start benchmark leaves behind, closed after each invocation. */
    @State(Scope.Thread)
    public static class Started {
        ServiceBusEmulatorServer server;
        SocketChannel client;

        @TearDown(Level.Invocation)
        public void close() throws IOException {
            if (client != null) {
                client.close();
                client = null;
            }
            if (server != null) {
                server.close();
                server = null;
            }
        }
    }

    /** A started server with one accepted connection, for the close benchmark. */
    @State(Scope.Thread)
    public static class Running extends Started {
        @Setup(Level.Invocation)
        public void start(EndpointStartBenchmark benchmark) throws IOException {
            benchmark.startAndConnect(this);
        }
    }

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        namespace = Namespace.builder()
                .startingAt(Instant.parse("2026-01-01T00:00:00Z"))
                .build();
        Started started = new Started();
        for (int i = 0; i < WARM_UP_RUNS; i++) {
            startAndConnect(started);
            started.server.close();
            started.close();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        namespace.close();
    }

    void startAndConnect(Started started) throws IOException {
        started.server = ServiceBusEmulatorServer.start(namespace);
        started.client =
                SocketChannel.open(new InetSocketAddress(InetAddress.getLoopbackAddress(), started.server.port()));
        long deadline = System.nanoTime() + ACCEPT_BOUND_NANOS;
        while (started.server.connectionCount() == 0) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the endpoint did not accept a connection within 10 s");
            }
            // 2 cores: give the network thread the core rather than spin against it
            Thread.yield();
        }
    }

    /** start + raw TCP connect + the endpoint's accept. */
    @Benchmark
    public ServiceBusEmulatorServer startToFirstAcceptedConnection(Started started) throws IOException {
        startAndConnect(started);
        return started.server;
    }

    /** close of a server holding one accepted connection. */
    @Benchmark
    public void closeWithOneConnection(Running running) {
        running.server.close();
    }
}
