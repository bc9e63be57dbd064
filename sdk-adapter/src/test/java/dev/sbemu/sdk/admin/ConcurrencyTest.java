package dev.sbemu.sdk.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ConcurrencyTest extends AdminFixture {

    @Test
    @DisplayName("one client used from 8 threads at once: every create lands, every read is whole")
    void concurrentClients() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < 20; i++) {
                        String name = "q-" + thread + "-" + i;
                        admin.createQueue(name);
                        assertEquals(name, admin.getQueue(name).getName());
                        admin.listQueues().stream().count();
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(160, admin.listQueues().stream().count());
        assertEquals(160, namespace.queueNames().size());
    }
}
