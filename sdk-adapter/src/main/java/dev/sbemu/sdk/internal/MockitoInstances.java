package dev.sbemu.sdk.internal;

import static org.mockito.Mockito.withSettings;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URL;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.Manifest;
import org.mockito.Mockito;
import org.mockito.invocation.Invocation;
import org.mockito.invocation.InvocationContainer;
import org.mockito.invocation.MockHandler;
import org.mockito.mock.MockCreationSettings;
import org.mockito.plugins.MockMaker;

/**
 * {@link SdkInstances}' fallback, where {@link SdkDispatch} cannot weave (no agent's instrumentation to reach, a class
 * that cannot be woven): a stub-only instance made by the mock maker Mockito itself uses
 * ({@code MockitoPlugins#getMockMaker(null)}, the documented way for other libraries to share it, Mockito 5.6+), with
 * a {@link MockHandler} of our own that hands each call to the instance's {@link SdkInstances.Dispatch}: none of
 * Mockito's stubbing, matcher, verification or listener machinery runs. Correct, only slower per call (Mockito's inline
 * advice costs about 2.5 µs) and at cold start.
 */
final class MockitoInstances {
    private static final Map<Class<?>, MockCreationSettings<?>> SETTINGS = new ConcurrentHashMap<>();
    private static volatile MockMaker mockMaker;

    private MockitoInstances() {}

    /**
     * A stub-only mock of a final SDK class whose calls {@code dispatch} answers. When Mockito's inline mock maker
     * cannot work (a Mockito older than 5, a subclass-only mock maker configured, a JVM that refuses to attach
     * Mockito's agent), the failure names the cause and the fix instead of Mockito's own initialization error.
     */
    static <T> T newInstance(Class<T> type, SdkInstances.Dispatch dispatch) {
        try {
            @SuppressWarnings("unchecked")
            MockCreationSettings<T> settings = (MockCreationSettings<T>) SETTINGS.computeIfAbsent(
                    type, t -> withSettings().stubOnly().build(t));
            return mockMaker().createMock(settings, new Handler<>(settings, dispatch));
        } catch (RuntimeException | LinkageError e) {
            throw new IllegalStateException(cannotMock(type, e, mockitoVersion()), e);
        }
    }

    /** The mock maker Mockito uses (the inline one unless the project configured another). */
    static MockMaker mockMaker() {
        MockMaker maker = mockMaker;
        if (maker == null) {
            maker = Mockito.framework().getPlugins().getMockMaker(null);
            mockMaker = maker;
        }
        return maker;
    }

    /** The message for a mock maker that failed: what sbemu needs, what went wrong, the one-line fix. */
    static String cannotMock(Class<?> type, Throwable failure, String mockitoVersion) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String cause = root.getClass().getSimpleName()
                + (root.getMessage() == null
                        ? ""
                        : ": " + root.getMessage().strip().lines().findFirst().orElse(""));
        String message = "sbemu cannot create the Azure SDK's " + type.getSimpleName() + ": the SDK's client classes "
                + "are final; sbemu creates them through the test JVM's Java agent, and without one through Mockito's "
                + "inline mock maker, which did not work here (" + cause + "). ";
        String agent = "load the agent when the test JVM starts, as the README shows: "
                + "<argLine>-javaagent:${net.bytebuddy:byte-buddy-agent:jar} -Xshare:off</argLine> in "
                + "maven-surefire-plugin, with maven-dependency-plugin's 'properties' goal";
        int major = majorVersion(mockitoVersion);
        if (major > 0 && major < 5) {
            return message + "The test class path has mockito-core " + mockitoVersion + ", whose default mock maker "
                    + "cannot. Fix: " + agent + "; or declare org.mockito:mockito-core 5.x among your test "
                    + "dependencies (see the README's supported versions).";
        }
        return message + "Fix: " + agent + "; and no mock-maker-subclass in src/test/resources/mockito-extensions.";
    }

    /** The Bundle-Version of the mockito-core jar on the class path, or "unknown". */
    static String mockitoVersion() {
        try {
            URL self = Mockito.class.getResource("Mockito.class");
            String url = self == null ? "" : self.toString();
            int jar = url.indexOf("!/");
            if (!url.startsWith("jar:") || jar < 0) {
                return "unknown";
            }
            try (InputStream in = URI.create(url.substring(0, jar + 2) + "META-INF/MANIFEST.MF")
                    .toURL()
                    .openStream()) {
                String version = new Manifest(in).getMainAttributes().getValue("Bundle-Version");
                return version == null ? "unknown" : version;
            }
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static int majorVersion(String version) {
        int dot = version.indexOf('.');
        try {
            return Integer.parseInt(dot < 0 ? version : version.substring(0, dot));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * The mock maker's handler for our instances: every call goes to the {@link SdkInstances.Dispatch}, with the
     * arguments as passed (varargs not expanded), so no stubbing, matchers, verification or listeners of Mockito run.
     * The settings say {@code stubOnly}, so {@code Mockito.verify} on one of these instances fails with Mockito's
     * message.
     */
    private static final class Handler<T> implements MockHandler<T> {
        private static final long serialVersionUID = 1L;
        private final transient MockCreationSettings<T> settings;
        private final transient SdkInstances.Dispatch dispatch;

        Handler(MockCreationSettings<T> settings, SdkInstances.Dispatch dispatch) {
            this.settings = settings;
            this.dispatch = dispatch;
        }

        @Override
        public Object handle(Invocation invocation) throws Throwable {
            return dispatch.call(
                    invocation.getMock(), SdkInstances.signature(invocation.getMethod()), invocation.getRawArguments());
        }

        @Override
        public MockCreationSettings<T> getMockSettings() {
            return settings;
        }

        @Override
        public InvocationContainer getInvocationContainer() {
            throw new UnsupportedOperationException(
                    "sbemu's " + settings.getTypeToMock().getSimpleName()
                            + " is not a Mockito mock: it records no invocations and cannot be stubbed or verified");
        }
    }
}
