package dev.sbemu.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.logging.Logger;

/**
 * Start-up work done beside the main thread (issue 24: start to ready and the first {@code /health} within 300 ms on
 * two cores): one daemon thread loads, ahead of the main thread, the classes the start (the Config.json, the
 * namespace, the endpoint) and the first HTTP and AMQP connections need ({@value #CLASS_LIST}, a list taken from
 * {@code -Xlog:class+load} of a start and a first {@code /health}: benchmarks/server/classlist.py writes it),
 * initialises {@code java.util.logging} and the locale and time-zone data of the HTTP {@code Date} header, and
 * creates one proton-j transport, as the network thread does for every AMQP connection (once its first bytes say
 * AMQP: an HTTP request needs none), so that proton-j's codec tables are built before an AMQP client connects. The
 * listed classes are loaded without being initialised; the only initialisers run here are the JDK's logging and date
 * formatting, which the main thread does not touch meanwhile, and proton-j's, entered where the network thread enters
 * them (a transport's factory), so the two threads initialise in the same order and cannot deadlock. Anything missing
 * or failing is skipped: this only moves work earlier, it never changes what the server does.
 */
final class WarmUp implements Runnable {
    /** The class-path resource listing the classes to load, one binary name a line. */
    static final String CLASS_LIST = "warm-up.classes";
    /** What the endpoint calls for each AMQP connection. */
    static final String PROTON_TRANSPORT_FACTORY = "org.apache.qpid.proton.engine.Transport$Factory";

    private final ClassLoader loader;

    private WarmUp(ClassLoader loader) {
        this.loader = loader;
    }

    /** Starts the warm-up on a daemon thread, unless {@code -Dsbemu.warm-up=false} (for measurements). */
    static void start() {
        if ("false".equals(System.getProperty("sbemu.warm-up"))) {
            return;
        }
        Thread thread = new Thread(new WarmUp(WarmUp.class.getClassLoader()), "sbemu-warm-up");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void run() {
        try {
            // java.util.logging's configuration: every endpoint class has a logger
            Logger.getLogger("dev.sbemu");
            // the JDK HTTP server's Date header (sun.net.httpserver.ExchangeImpl): CLDR names and time-zone names
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss zzz", Locale.US)
                    .withZone(ZoneId.of("GMT"))
                    .format(Instant.now());
            loadClasses();
            // proton-j is the endpoint's dependency, not the server's (ArchitectureTest): reached by name
            Class.forName(PROTON_TRANSPORT_FACTORY, true, loader)
                    .getMethod("create")
                    .invoke(null);
        } catch (ReflectiveOperationException e) {
            // a proton-j without that factory: the network thread builds its tables on the first connection
        } catch (RuntimeException | LinkageError e) {
            // only an optimisation: the main thread does whatever is left
        }
    }

    /** Loads (without initialising) every class of {@link #CLASS_LIST}; returns how many were found. */
    int loadClasses() {
        int count = 0;
        try (InputStream in = WarmUp.class.getResourceAsStream(CLASS_LIST)) {
            if (in == null) {
                return 0;
            }
            BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                String name = line.strip();
                if (name.isEmpty() || name.startsWith("#")) {
                    continue;
                }
                try {
                    Class.forName(name, false, loader);
                    count++;
                } catch (ClassNotFoundException | LinkageError e) {
                    // renamed or not on this class path: skipped
                }
            }
        } catch (IOException e) {
            // skipped
        }
        return count;
    }

    /** For tests: a warm-up on {@code loader}. */
    static WarmUp on(ClassLoader loader) {
        return new WarmUp(loader);
    }
}
