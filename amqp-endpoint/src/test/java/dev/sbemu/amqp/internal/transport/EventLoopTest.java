package dev.sbemu.amqp.internal.transport;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sbemu.amqp.EndpointSettings;
import dev.sbemu.amqp.internal.Endpoint;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The network loop's own rules, without a namespace (issue 22, items 12 and 14). */
class EventLoopTest {

    @Test
    @DisplayName("AMQP-13 a loop that cannot go on closes its listener (connects are refused, not left hanging) "
            + "and says so at SEVERE")
    void loopThatCannotGoOnClosesItsListener() throws Exception {
        List<LogRecord> records = new ArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                synchronized (records) {
                    records.add(record);
                }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Logger logger = Logger.getLogger(EventLoop.class.getName());
        logger.addHandler(handler);
        // an Error where no connection is to blame (accepting): the loop cannot go on
        EventLoop loop = new EventLoop(
                defaultLimits(),
                (l, channel, refused, tls) -> {
                    throw new InternalError("the loop is broken");
                },
                "sbemu-amqp-broken");
        try {
            int port = loop.port();
            new Socket(InetAddress.getLoopbackAddress(), port).close();
            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThrows(
                            ConnectException.class, () -> new Socket(InetAddress.getLoopbackAddress(), port).close()));
            synchronized (records) {
                assertTrue(
                        records.stream()
                                .anyMatch(r -> r.getLevel() == Level.SEVERE
                                        && r.getMessage().contains("cannot go on")),
                        "logged: " + records);
            }
        } finally {
            logger.removeHandler(handler);
            loop.close();
        }
    }

    @Test
    @DisplayName("AMQP-19 proton-j is touched on the loop thread only: other threads are refused")
    void protonOnTheLoopThreadOnly() throws IOException {
        try (EventLoop loop = new EventLoop(
                defaultLimits(),
                (l, channel, refused, tls) -> {
                    throw new IllegalStateException("no connections here");
                },
                "sbemu-amqp-thread-check")) {
            IllegalStateException e = assertThrows(IllegalStateException.class, loop::checkThread);
            assertTrue(e.getMessage().contains("outside the network thread"));
        }
    }

    /** The transport's limits of the default settings. */
    static Limits defaultLimits() {
        return Endpoint.transportLimits(EndpointSettings.defaults());
    }
}
