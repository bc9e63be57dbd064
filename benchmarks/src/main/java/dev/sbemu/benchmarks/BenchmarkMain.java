package dev.sbemu.benchmarks;

import java.lang.instrument.Instrumentation;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.mockito.internal.PremainAttach;
import org.openjdk.jmh.Main;

/**
 * The shaded jar's entry point: {@code java -jar benchmarks/target/benchmarks.jar [JMH options]}.
 *
 * <p>The adapter makes the SDK's final client classes through the JVM's Java agent (without one, through Mockito's
 * inline mock maker, which attaches itself: JDK 21+ warns about that, later JDKs refuse it). The jar's manifest makes the jar itself
 * that agent ({@code Premain-Class: org.mockito.internal.PremainAttach}), so this class adds
 * {@code -jvmArgsPrepend -javaagent:<this jar>} to JMH's options, which every forked JVM then gets;
 * the benchmarks' own {@code @Fork(jvmArgsAppend = ...)} heap settings stay in force. A command line
 * that sets {@code -jvmArgsPrepend} itself is passed on unchanged (add the agent there). The JVM that
 * {@code java -jar} starts gets the agent through {@code Launcher-Agent-Class} ({@link #agentmain}),
 * so {@code -f 0} runs work too.
 */
public final class BenchmarkMain {
    private BenchmarkMain() {}

    public static void main(String[] args) throws Exception {
        Main.main(withAgent(args));
    }

    /** {@code Launcher-Agent-Class}: hands the instrumentation to Mockito, as its own premain does. */
    public static void agentmain(String agentArgs, Instrumentation instrumentation) {
        PremainAttach.premain(agentArgs, instrumentation);
    }

    static String[] withAgent(String[] args) {
        boolean userPrepends = Arrays.stream(args).anyMatch(a -> a.startsWith("-jvmArgsPrepend"));
        Path agent = agentJar();
        if (userPrepends || agent == null) {
            return args;
        }
        List<String> all = new ArrayList<>(Arrays.asList(args));
        all.add(0, "-jvmArgsPrepend");
        all.add(1, "-javaagent:" + agent);
        return all.toArray(String[]::new);
    }

    /**
     * The jar that holds Mockito's agent class: the shaded benchmarks jar, or mockito-core's jar when
     * run from the module's classpath (both carry {@code Premain-Class}); null when not a jar.
     */
    static Path agentJar() {
        try {
            Path location = Path.of(PremainAttach.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            return location.toString().endsWith(".jar") ? location : null;
        } catch (URISyntaxException | RuntimeException e) {
            return null;
        }
    }

    /** Fails a trial early when the forked JVM runs without Mockito's agent. */
    static void requireAgent() {
        if (PremainAttach.getInstrumentation() == null) {
            throw new IllegalStateException("Mockito's agent is not loaded: run java -jar benchmarks.jar, or add "
                    + "-jvmArgsPrepend -javaagent:<mockito-core or benchmarks jar>");
        }
    }
}
