package dev.sbemu.benchmarks.server;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.qpid.jms.JmsConnectionFactory;

/**
 * Issue 24's many-clients figure against the server jar running as another process: {@code N} AMQP connections,
 * each holding a sender and a waiting receiver (Apache Qpid JMS with {@code transport.sharedEventLoopThreads}, so
 * the client does not start a reactor per connection; SASL PLAIN with the key name and key), then the server's
 * threads ({@code /proc/<pid>/status}), its heap used after a full GC ({@code jcmd GC.run}, {@code GC.heap_info}),
 * its resident memory, and the latency of a message sent on connection {@code i} to the queue whose receiver is on
 * connection {@code i + 1}: samples one at a time, spread over the connections, each waited for.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.sbemu.benchmarks.server.ManyConnections \
 *     AMQP_PORT SERVER_PID [connections 1000] [samples 1000] [warm-up samples 200]
 * </pre>
 * The server must have queues {@code lq-0} to {@code lq-(N-1)} (benchmarks/server/many_connections.py starts it so).
 */
public final class ManyConnections {
    private static final String KEY_NAME = "RootManageSharedAccessKey";
    private static final String KEY = "SAS_KEY_VALUE";

    private ManyConnections() {}

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        long pid = Long.parseLong(args[1]);
        int n = args.length > 2 ? Integer.parseInt(args[2]) : 1000;
        int samples = args.length > 3 ? Integer.parseInt(args[3]) : 1000;
        int warmUp = args.length > 4 ? Integer.parseInt(args[4]) : 200;
        String uri = "amqp://127.0.0.1:" + port
                + "?amqp.saslMechanisms=PLAIN&transport.sharedEventLoopThreads=4&amqp.maxFrameSize=65536"
                + "&jms.prefetchPolicy.all=10&amqp.idleTimeout=0&jms.connectTimeout=60000";
        JmsConnectionFactory factory = new JmsConnectionFactory(KEY_NAME, KEY, uri);

        System.out.printf("server pid %d before: %s%n", pid, serverFigures(pid, false));
        Connection[] connections = new Connection[n];
        MessageProducer[] producers = new MessageProducer[n];
        Session[] sessions = new Session[n];
        @SuppressWarnings("unchecked")
        AtomicReference<CompletableFuture<Long>>[] waiting = new AtomicReference[n];
        AtomicInteger unexpected = new AtomicInteger();
        long opening = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        List<Future<?>> opened = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int index = i;
            waiting[i] = new AtomicReference<>();
            opened.add(pool.submit(() -> {
                Connection connection = factory.createConnection();
                connection.start();
                Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageConsumer consumer = session.createConsumer(session.createQueue("lq-" + index));
                consumer.setMessageListener(message -> {
                    long arrived = System.nanoTime();
                    CompletableFuture<Long> wanted = waiting[index].getAndSet(null);
                    if (wanted == null) {
                        unexpected.incrementAndGet();
                    } else {
                        wanted.complete(arrived);
                    }
                });
                MessageProducer producer = session.createProducer(session.createQueue("lq-" + ((index + 1) % n)));
                producer.setDeliveryMode(DeliveryMode.PERSISTENT);
                connections[index] = connection;
                sessions[index] = session;
                producers[index] = producer;
                return null;
            }));
        }
        for (Future<?> f : opened) {
            f.get(5, TimeUnit.MINUTES);
        }
        pool.shutdown();
        System.out.printf(
                "%d connections, each with a sender and a waiting receiver, open in %.1f s%n",
                n, (System.nanoTime() - opening) / 1e9);
        Thread.sleep(2000);
        System.out.printf("server with %d connections idle: %s%n", n, serverFigures(pid, true));

        long[] latencies = new long[samples];
        for (int k = -warmUp; k < samples; k++) {
            int sender = Math.floorMod(k * 7919, n);
            int receiver = (sender + 1) % n;
            CompletableFuture<Long> arrived = new CompletableFuture<>();
            waiting[receiver].set(arrived);
            Message message = sessions[sender].createTextMessage("sample " + k);
            long sent = System.nanoTime();
            producers[sender].send(message);
            long at = arrived.get(30, TimeUnit.SECONDS);
            if (k >= 0) {
                latencies[k] = at - sent;
            }
        }
        Arrays.sort(latencies);
        System.out.printf(
                Locale.ROOT,
                "latency send on connection i -> receiver on connection i+1 (%d samples after "
                        + "%d warm-up): p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms; unexpected deliveries %d%n",
                samples,
                warmUp,
                percentile(latencies, 50),
                percentile(latencies, 90),
                percentile(latencies, 99),
                latencies[samples - 1] / 1e6,
                unexpected.get());
        System.out.printf("server after the samples: %s%n", serverFigures(pid, true));
        if (System.getProperty("histogram") != null) {
            System.out.println(jcmd(pid, "GC.class_histogram").lines().limit(25).reduce("", (a, b) -> a + b + "\n"));
        }
        long closing = System.nanoTime();
        for (Connection c : connections) {
            c.close();
        }
        System.out.printf(
                "closed in %.1f s; server: %s%n", (System.nanoTime() - closing) / 1e9, serverFigures(pid, false));
    }

    private static double percentile(long[] sorted, int p) {
        int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, index)] / 1e6;
    }

    /** Threads and resident memory from /proc, and (after a full GC) the heap used from jcmd. */
    static String serverFigures(long pid, boolean heap) throws IOException, InterruptedException {
        String status = Files.readString(Path.of("/proc/" + pid + "/status"));
        String figures = "threads " + field(status, "Threads") + ", RSS "
                + Long.parseLong(field(status, "VmRSS").replace(" kB", "").strip()) / 1024 + " MB";
        if (heap) {
            jcmd(pid, "GC.run");
            String info = jcmd(pid, "GC.heap_info");
            Matcher m = Pattern.compile("total (\\d+)K, used (\\d+)K").matcher(info);
            if (m.find()) {
                figures += ", heap used after GC " + Long.parseLong(m.group(2)) / 1024 + " MB (committed "
                        + Long.parseLong(m.group(1)) / 1024 + " MB)";
            }
        }
        return figures;
    }

    private static String field(String status, String name) {
        Matcher m = Pattern.compile("(?m)^" + name + ":\\s+(.*)$").matcher(status);
        return m.find() ? m.group(1).strip() : "?";
    }

    private static String jcmd(long pid, String command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("jcmd", String.valueOf(pid), command)
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(30, TimeUnit.SECONDS);
        return out;
    }
}
