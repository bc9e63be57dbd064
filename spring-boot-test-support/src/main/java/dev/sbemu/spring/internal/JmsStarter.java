package dev.sbemu.spring.internal;

import dev.sbemu.core.Tier;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.util.ClassUtils;

/**
 * Spring Cloud Azure's JMS starter ({@code spring-cloud-azure-starter-servicebus-jms}), when the application has
 * it (SPRING-7, SPRING-8): its properties, and a connection factory customizer that points the factory at the
 * endpoint. Nothing here loads a JMS class unless {@link #present} said the starter is there.
 */
final class JmsStarter {
    /** azure-servicebus-jms's factory, which the starter creates from {@code spring.jms.servicebus.*}. */
    static final String FACTORY_TYPE = "com.azure.servicebus.jms.ServiceBusJmsConnectionFactory";
    /** The starter's customizer type (Spring Cloud Azure 5.x and later), applied to every factory it creates. */
    static final String CUSTOMIZER_TYPE =
            "com.azure.spring.cloud.autoconfigure.jms.AzureServiceBusJmsConnectionFactoryCustomizer";

    static final String CONNECTION_STRING_PROPERTY = "spring.jms.servicebus.connection-string";
    static final String PRICING_TIER_PROPERTY = "spring.jms.servicebus.pricing-tier";
    static final String PASSWORDLESS_PROPERTY = "spring.jms.servicebus.passwordless-enabled";
    /** The customizer's bean name. */
    static final String CUSTOMIZER_BEAN = "sbemu.serviceBusJmsConnectionFactoryCustomizer";

    /** Every {@code amqps://host} (or {@code amqp://host:port}) in a Qpid JMS remote URI, failover lists included. */
    private static final Pattern HOST_URI = Pattern.compile("amqps?://[^?&,()/]+");

    private JmsStarter() {}

    /** Whether the application's class path has the JMS starter's factory and customizer types. */
    static boolean present(ClassLoader loader) {
        return ClassUtils.isPresent(FACTORY_TYPE, loader) && ClassUtils.isPresent(CUSTOMIZER_TYPE, loader);
    }

    /**
     * The JMS starter's properties for the emulated namespace (SPRING-7): its connection string in the portal's
     * form ({@link #forJms}), passwordless authentication off (the emulator takes shared access keys only), and the
     * pricing tier of the declared namespace unless the application's environment sets one.
     */
    static Map<String, Object> properties(ConfigurableEnvironment environment, String connectionString, Tier tier) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put(CONNECTION_STRING_PROPERTY, forJms(connectionString));
        properties.put(PASSWORDLESS_PROPERTY, "false");
        if (!Binder.get(environment).bind(PRICING_TIER_PROPERTY, String.class).isBound()) {
            properties.put(PRICING_TIER_PROPERTY, tier.name().toLowerCase(Locale.ROOT));
        }
        return properties;
    }

    /**
     * {@code connectionString} as the portal shows one: without {@code UseDevelopmentEmulator=...} and without a
     * trailing {@code ;}. azure-servicebus-jms's parser ({@code ConnectionStringBuilder}) knows a fixed set of keys
     * and reads everything up to the next known key as the value, so an unknown key or a trailing {@code ;} would
     * end up in the shared access key.
     */
    static String forJms(String connectionString) {
        return connectionString
                .replaceAll("(?i)(^|;)UseDevelopmentEmulator=[^;]*", "$1")
                .replaceAll(";{2,}", ";")
                .replaceAll(";+$", "");
    }

    /** Registers the customizer that points the starter's connection factories at the endpoint (SPRING-8). */
    static void register(BeanDefinitionRegistry registry, String host, int port) {
        RootBeanDefinition definition =
                new RootBeanDefinition(EndpointCustomizer.class, () -> new EndpointCustomizer(host, port));
        registry.registerBeanDefinition(CUSTOMIZER_BEAN, definition);
    }

    /**
     * {@code remoteUri} with every host address replaced by the plain-AMQP address of the endpoint, its options
     * (and a {@code failover:(...)} wrapper) kept: {@code failover:(amqps://127.0.0.1?amqp.idleTimeout=120000)?x=y}
     * becomes {@code failover:(amqp://127.0.0.1:40123?amqp.idleTimeout=120000)?x=y}.
     *
     * @throws IllegalStateException when the URI has no host address to replace
     */
    static String toEndpoint(String remoteUri, String host, int port) {
        Matcher m = HOST_URI.matcher(remoteUri);
        if (!m.find()) {
            throw new IllegalStateException("sbemu: the Service Bus JMS connection factory's remote URI " + remoteUri
                    + " has no amqps://host address to point at the emulator's endpoint");
        }
        return m.replaceAll(Matcher.quoteReplacement("amqp://" + host + ":" + port));
    }
}
