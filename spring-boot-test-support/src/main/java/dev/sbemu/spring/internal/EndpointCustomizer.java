package dev.sbemu.spring.internal;

import com.azure.servicebus.jms.ServiceBusJmsConnectionFactory;
import com.azure.spring.cloud.autoconfigure.jms.AzureServiceBusJmsConnectionFactoryCustomizer;
import java.lang.reflect.Field;
import org.apache.qpid.jms.JmsConnectionFactory;
import org.springframework.core.Ordered;

/**
 * Points the JMS starter's {@link ServiceBusJmsConnectionFactory} at the endpoint (SPRING-8). azure-servicebus-jms
 * builds its Qpid JMS factory's remote URI as {@code amqps://<host of the connection string>} and drops the port,
 * so its factory would reach port 5671 with TLS; this customizer, run last, sets the Qpid JMS factory's remote URI
 * to {@code amqp://<host>:<endpoint port>}, keeping the options (and the failover wrapper) azure-servicebus-jms
 * chose. The Qpid JMS factory is the private field {@code factory}, which Spring Cloud Azure's own Standard-tier
 * customizer reads the same way.
 */
final class EndpointCustomizer implements AzureServiceBusJmsConnectionFactoryCustomizer, Ordered {
    private final String host;
    private final int port;

    EndpointCustomizer(String host, int port) {
        this.host = host;
        this.port = port;
    }

    @Override
    public void customize(ServiceBusJmsConnectionFactory factory) {
        JmsConnectionFactory qpid = qpidFactory(factory);
        qpid.setRemoteURI(JmsStarter.toEndpoint(qpid.getRemoteURI(), host, port));
    }

    static JmsConnectionFactory qpidFactory(ServiceBusJmsConnectionFactory factory) {
        try {
            Field field = ServiceBusJmsConnectionFactory.class.getDeclaredField("factory");
            field.setAccessible(true);
            return (JmsConnectionFactory) field.get(factory);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException(
                    "sbemu: cannot point the Service Bus JMS connection factory at the "
                            + "emulator's endpoint: this azure-servicebus-jms version has no Qpid JMS factory in the field "
                            + "'factory' of " + ServiceBusJmsConnectionFactory.class.getName() + " (" + e + ")",
                    e);
        }
    }

    /** After every other customizer, so that the remote URI it sets is the one used. */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public String toString() {
        return "sbemu's AzureServiceBusJmsConnectionFactoryCustomizer (amqp://" + host + ":" + port + ")";
    }
}
