package dev.sbemu.spring.internal;

import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import dev.sbemu.core.Journal;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.VirtualClock;
import dev.sbemu.spring.EmulatedServiceBus;
import java.lang.reflect.Proxy;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.util.ClassUtils;

/**
 * Starts the emulated Service Bus of one application context and connects Spring Cloud Azure to it. Equal
 * declarations give equal customizers, so Spring's context cache shares the context between test classes.
 */
final class EmulatorContextCustomizer implements ContextCustomizer {
    /** Spring Cloud Azure's connection property: its auto-configuration is enabled by it (5.x). */
    static final String CONNECTION_STRING_PROPERTY = "spring.cloud.azure.servicebus.connection-string";
    /** The connection details type of Spring Cloud Azure's own container support, where it exists. */
    static final String CONNECTION_DETAILS_TYPE =
            "com.azure.spring.cloud.autoconfigure.implementation.servicebus.properties.AzureServiceBusConnectionDetails";

    private final Declarations declarations;
    private final List<List<Object>> key;

    EmulatorContextCustomizer(Declarations declarations) {
        this.declarations = declarations;
        this.key = declarations.key();
    }

    @Override
    public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration config) {
        SpringEmulator emulator = new SpringEmulator(declarations.merge());
        ConfigurableListableBeanFactory beans = context.getBeanFactory();
        beans.registerSingleton(SpringEmulator.BEAN_NAME, emulator);
        if (beans instanceof DefaultSingletonBeanRegistry registry) {
            // registered before every application bean, so destroyed after them: the application's clients
            // and listener containers stop while the endpoint still answers
            registry.registerDisposableBean(SpringEmulator.BEAN_NAME, emulator);
        } else {
            context.addApplicationListener(event -> {
                if (event instanceof ContextClosedEvent) {
                    emulator.destroy();
                }
            });
        }
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put(CONNECTION_STRING_PROPERTY, emulator.connectionString());
        boolean jms = JmsStarter.present(context.getClassLoader());
        if (jms) {
            properties.putAll(JmsStarter.properties(
                    context.getEnvironment(),
                    emulator.connectionString(),
                    emulator.namespace().tier()));
        }
        context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("sbemu", properties));
        if (context instanceof BeanDefinitionRegistry registry) {
            if (jms) {
                JmsStarter.register(registry, SpringEmulator.HOST, emulator.port());
            }
            current(registry, Namespace.class, emulator::namespace);
            current(registry, VirtualClock.class, emulator::clock);
            current(registry, Journal.class, emulator::journal);
            current(registry, ServiceBusAdministrationClient.class, emulator::administrationClient);
            connectionDetails(CONNECTION_DETAILS_TYPE, context.getClassLoader(), registry, emulator);
        }
    }

    /**
     * A bean resolved anew at each injection (the namespace of the test that runs then), and a fallback: an
     * application bean of the same type wins.
     */
    private static <T> void current(BeanDefinitionRegistry registry, Class<T> type, Supplier<T> supplier) {
        RootBeanDefinition definition = new RootBeanDefinition(type, BeanDefinition.SCOPE_PROTOTYPE, supplier);
        definition.setFallback(true);
        registry.registerBeanDefinition("sbemu." + ClassUtils.getShortNameAsProperty(type), definition);
    }

    /**
     * Spring Cloud Azure's {@code AzureServiceBusConnectionDetails} (what its Testcontainers support registers),
     * when the version on the class path has it: implemented by a proxy, as this module is compiled against
     * versions that do not.
     *
     * @param typeName the interface's name (a test's stand-in in tests)
     */
    static void connectionDetails(
            String typeName, ClassLoader loader, BeanDefinitionRegistry registry, EmulatedServiceBus emulator) {
        if (!ClassUtils.isPresent(typeName, loader)) {
            return;
        }
        Class<?> type = ClassUtils.resolveClassName(typeName, loader);
        Object details = Proxy.newProxyInstance(
                loader, new Class<?>[] {type}, (proxy, method, args) -> switch (method.getName()) {
                    case "getConnectionString" -> emulator.connectionString();
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "toString" -> "AzureServiceBusConnectionDetails of " + emulator;
                    default ->
                        throw new UnsupportedOperationException(
                                "sbemu's AzureServiceBusConnectionDetails does not emulate " + method);
                });
        registry.registerBeanDefinition(
                "sbemu.azureServiceBusConnectionDetails", new RootBeanDefinition(castTo(type), () -> details));
    }

    @SuppressWarnings("unchecked")
    private static Class<Object> castTo(Class<?> type) {
        return (Class<Object>) type;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof EmulatorContextCustomizer c && key.equals(c.key);
    }

    @Override
    public int hashCode() {
        return key.hashCode();
    }
}
