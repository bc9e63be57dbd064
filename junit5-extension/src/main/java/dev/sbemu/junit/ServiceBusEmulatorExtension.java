package dev.sbemu.junit;

import dev.sbemu.amqp.ServiceBusEmulatorServer;
import dev.sbemu.core.config.EmulatorConfig;
import dev.sbemu.core.config.EmulatorConfigException;
import dev.sbemu.core.config.InvalidTopologyException;
import dev.sbemu.core.config.Topology;
import dev.sbemu.junit.ServiceBusEmulator.Lifecycle;
import dev.sbemu.junit.internal.ClientMode;
import dev.sbemu.junit.internal.EmulatedNamespace;
import dev.sbemu.junit.internal.EmulatorDeclaration;
import dev.sbemu.junit.internal.EmulatorDeclaration.Declared;
import dev.sbemu.junit.internal.Injection;
import dev.sbemu.junit.internal.InjectionException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.BeforeTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.junit.platform.commons.support.AnnotationSupport;
import org.opentest4j.TestAbortedException;

/**
 * The extension behind {@link ServiceBusEmulator}. It keeps every namespace and client in the
 * {@code ExtensionContext.Store} of the test (or, per class, the test class) that uses it, so JUnit closes them
 * when that test ends and parallel tests share nothing.
 */
final class ServiceBusEmulatorExtension
        implements BeforeAllCallback,
                BeforeEachCallback,
                BeforeTestExecutionCallback,
                ParameterResolver,
                TestExecutionExceptionHandler,
                LifecycleMethodExecutionExceptionHandler {

    private static final ExtensionContext.Namespace STORE =
            ExtensionContext.Namespace.create(ServiceBusEmulatorExtension.class);

    private record ScopeKey(String uniqueId) {}

    private record DeclarationKey(String uniqueId) {}

    private record ConfigKey(String location, ClassLoader loader) {}

    /** Constructors of per-method test instances see the test method's context, and so its namespace. */
    @Override
    public ExtensionContextScope getTestInstantiationExtensionContextScope(ExtensionContext rootContext) {
        return ExtensionContextScope.TEST_METHOD;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        configurationErrors(() -> {
            EmulatorDeclaration declaration = declaration(context);
            if (declaration.lifecycle() == Lifecycle.PER_CLASS) {
                FieldInjector.injectStatic(context.getRequiredTestClass(), scope(context));
            } else {
                FieldInjector.rejectStatic(context.getRequiredTestClass());
            }
        });
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        configurationErrors(() -> {
            EmulatedNamespace scope = scope(context);
            for (Object instance : context.getRequiredTestInstances().getAllInstances()) {
                FieldInjector.injectInstance(instance, scope);
            }
        });
    }

    /** After the {@code @BeforeEach} methods: a field of an emulator type still null was never marked for injection. */
    @Override
    public void beforeTestExecution(ExtensionContext context) {
        configurationErrors(() -> {
            for (Object instance : context.getRequiredTestInstances().getAllInstances()) {
                FieldInjector.rejectUnmarkedNullFields(instance);
            }
        });
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.isAnnotated(ConnectionString.class)
                || Injection.claims(parameter.getParameter().getType(), parameter.isAnnotated(Entity.class));
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        String target = FieldInjector.describe(parameter);
        try {
            Class<?> type = parameter.getParameter().getType();
            Entity entity = parameter.findAnnotation(Entity.class).orElse(null);
            return parameter.isAnnotated(ConnectionString.class)
                    ? Injection.connectionString(type, entity, target, scope(context, target))
                    : Injection.resolve(type, entity, target, scope(context, target));
        } catch (InjectionException | InvalidTopologyException | EmulatorConfigException e) {
            throw new ParameterResolutionException(e.getMessage(), e);
        }
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable throwable) throws Throwable {
        throw withJournal(context, throwable);
    }

    @Override
    public void handleBeforeAllMethodExecutionException(ExtensionContext context, Throwable throwable)
            throws Throwable {
        throw withJournal(context, throwable);
    }

    @Override
    public void handleBeforeEachMethodExecutionException(ExtensionContext context, Throwable throwable)
            throws Throwable {
        throw withJournal(context, throwable);
    }

    @Override
    public void handleAfterEachMethodExecutionException(ExtensionContext context, Throwable throwable)
            throws Throwable {
        throw withJournal(context, throwable);
    }

    @Override
    public void handleAfterAllMethodExecutionException(ExtensionContext context, Throwable throwable) throws Throwable {
        throw withJournal(context, throwable);
    }

    private Throwable withJournal(ExtensionContext context, Throwable failure) {
        if (!(failure instanceof TestAbortedException)) {
            existingScope(context).ifPresent(scope -> {
                Duration hold = holdOnFailure();
                ServiceBusEmulatorServer server;
                try {
                    server = hold.isZero() ? scope.serverIfStarted() : scope.server();
                } catch (RuntimeException e) {
                    server = null; // the failure is what matters; no console then
                }
                String console = server == null ? null : server.httpUrl() + "/__admin/console/";
                JournalReport.attach(failure, scope.namespace(), context.getDisplayName(), console);
                if (console != null && !hold.isZero()) {
                    hold(console, hold, context.getDisplayName());
                }
            });
        }
        return failure;
    }

    /**
     * The system property {@value #HOLD_ON_FAILURE} (an ISO-8601 duration, off by default): how long a failed test's
     * endpoint stays up, with its console, before the test's namespace is closed.
     */
    static final String HOLD_ON_FAILURE = "sbemu.console.holdOnFailure";

    private static Duration holdOnFailure() {
        String value = System.getProperty(HOLD_ON_FAILURE);
        if (value == null || value.isBlank()) {
            return Duration.ZERO;
        }
        try {
            Duration d = Duration.parse(value.trim());
            return d.isNegative() ? Duration.ZERO : d;
        } catch (DateTimeParseException e) {
            System.err.println("sbemu: -D" + HOLD_ON_FAILURE + " must be an ISO-8601 duration such as PT10M, was '"
                    + value + "'; not holding.");
            return Duration.ZERO;
        }
    }

    /** Keeps the failed test's endpoint up for {@code hold} (the switch is for a person looking, never for CI). */
    private static void hold(String console, Duration hold, String testName) {
        System.err.println("sbemu: " + testName + " failed; its console is at " + console + " for " + hold + " ("
                + HOLD_ON_FAILURE + ").");
        try {
            Thread.sleep(hold.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ---- scopes -------------------------------------------------------------------------------------------

    private EmulatedNamespace scope(ExtensionContext context) {
        return scope(context, context.getDisplayName());
    }

    /**
     * The namespace and clients for {@code context}: a method's own namespace (per method), or the class's
     * namespace with clients of the method's own (per class).
     */
    private EmulatedNamespace scope(ExtensionContext context, String target) {
        EmulatorDeclaration declaration = declaration(context);
        ExtensionContext owner = owner(context, declaration);
        if (owner == null) {
            throw new InjectionException("Cannot inject " + target + ": @ServiceBusEmulator creates a namespace per "
                    + "test method (lifecycle = PER_METHOD), and this runs outside a test method; declare "
                    + "@ServiceBusEmulator(lifecycle = Lifecycle.PER_CLASS) to share one namespace across the class");
        }
        EmulatedNamespace owned = owner.getStore(STORE)
                .getOrComputeIfAbsent(
                        new ScopeKey(owner.getUniqueId()),
                        key -> EmulatedNamespace.owning(
                                declaration.start(), clientMode(context), declaration.endpoint()),
                        EmulatedNamespace.class);
        ExtensionContext method = nearest(context, Method.class);
        if (method == null || method == owner) {
            return owned;
        }
        return method.getStore(STORE)
                .getOrComputeIfAbsent(
                        new ScopeKey(method.getUniqueId()),
                        key -> EmulatedNamespace.borrowing(owned),
                        EmulatedNamespace.class);
    }

    /** How the injected clients are made: the configuration parameter {@value ClientMode#PARAMETER}. */
    private static ClientMode clientMode(ExtensionContext context) {
        return ClientMode.parse(
                context.getConfigurationParameter(ClientMode.PARAMETER).orElse(null));
    }

    private Optional<EmulatedNamespace> existingScope(ExtensionContext context) {
        try {
            ExtensionContext owner = owner(context, declaration(context));
            return owner == null
                    ? Optional.empty()
                    : Optional.ofNullable(
                            owner.getStore(STORE).get(new ScopeKey(owner.getUniqueId()), EmulatedNamespace.class));
        } catch (RuntimeException brokenDeclaration) {
            return Optional.empty();
        }
    }

    private static ExtensionContext owner(ExtensionContext context, EmulatorDeclaration declaration) {
        return declaration.lifecycle() == Lifecycle.PER_CLASS
                ? nearest(context, Class.class)
                : nearest(context, Method.class);
    }

    /** The nearest context, this one or an ancestor, whose element is a class or a method. */
    private static ExtensionContext nearest(ExtensionContext context, Class<?> elementType) {
        for (ExtensionContext c = context; c != null; c = c.getParent().orElse(null)) {
            if (c.getElement().filter(elementType::isInstance).isPresent()) {
                return c;
            }
        }
        return null;
    }

    // ---- declarations -------------------------------------------------------------------------------------

    /** The merged declaration of the test class and its enclosing classes, read once per class. */
    private EmulatorDeclaration declaration(ExtensionContext context) {
        ExtensionContext classContext = nearest(context, Class.class);
        if (classContext == null) {
            throw new IllegalStateException("@ServiceBusEmulator: no test class for " + context.getUniqueId());
        }
        List<Declared> declared = declarations(classContext);
        if (declared.isEmpty()) {
            // registered by @Entity or @Emulated alone
            throw new InjectionException("@Entity and @Emulated need @ServiceBusEmulator on the test class: annotate "
                    + classContext.getRequiredTestClass().getSimpleName() + " with @ServiceBusEmulator (declaring "
                    + "its entities, e.g. @ServiceBusEmulator(queues = @Queue(name = \"orders\")))");
        }
        return classContext
                .getStore(STORE)
                .getOrComputeIfAbsent(
                        new DeclarationKey(classContext.getUniqueId()),
                        key -> EmulatorDeclaration.merge(declared, (location, on) -> config(context, location, on)),
                        EmulatorDeclaration.class);
    }

    private static List<Declared> declarations(ExtensionContext classContext) {
        List<Declared> declared = new ArrayList<>();
        for (ExtensionContext c = classContext; c != null; c = c.getParent().orElse(null)) {
            if (c.getElement().orElse(null) instanceof Class<?> testClass) {
                AnnotationSupport.findAnnotation(testClass, ServiceBusEmulator.class)
                        .ifPresent(a -> declared.add(0, new Declared(a, testClass)));
            }
        }
        return declared;
    }

    /** A config file's entities, parsed once per run (and class loader). */
    private static Topology config(ExtensionContext context, String location, Class<?> declaredOn) {
        ConfigKey key = new ConfigKey(location, declaredOn.getClassLoader());
        return context.getRoot()
                .getStore(STORE)
                .getOrComputeIfAbsent(key, k -> EmulatorConfig.load(location, k.loader()), EmulatorConfig.class)
                .topology();
    }

    private static void configurationErrors(Runnable action) {
        try {
            action.run();
        } catch (InjectionException | InvalidTopologyException | EmulatorConfigException e) {
            throw new ExtensionConfigurationException(e.getMessage(), e);
        }
    }
}
