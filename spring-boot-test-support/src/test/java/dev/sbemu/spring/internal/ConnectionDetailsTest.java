package dev.sbemu.spring.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import dev.sbemu.core.Namespace;
import dev.sbemu.spring.EmulatedServiceBus;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.context.support.GenericApplicationContext;

/**
 * Spring Cloud Azure's {@code AzureServiceBusConnectionDetails} is not in the released versions tested here
 * (5.22.0, whose jar is signed, so no stand-in can be put in its package): the registration is checked with
 * an interface of the same shape.
 */
@DisplayName("SPRING-1 an AzureServiceBusConnectionDetails bean where Spring Cloud Azure has the type")
class ConnectionDetailsTest {
    /** The shape of Spring Cloud Azure's interface. */
    public interface StandInConnectionDetails {
        String getConnectionString();
    }

    private static final EmulatedServiceBus EMULATOR = new EmulatedServiceBus() {
        @Override
        public Namespace namespace() {
            throw new UnsupportedOperationException();
        }

        @Override
        public ServiceBusAdministrationClient administrationClient() {
            throw new UnsupportedOperationException();
        }

        @Override
        public String connectionString() {
            return "Endpoint=sb://127.0.0.1:5672;SharedAccessKeyName=k;SharedAccessKey=v;UseDevelopmentEmulator=true;";
        }
    };

    @Test
    void aConnectionDetailsBeanAnswersTheEndpointsConnectionString() {
        try (GenericApplicationContext context = new GenericApplicationContext()) {
            EmulatorContextCustomizer.connectionDetails(
                    StandInConnectionDetails.class.getName(), getClass().getClassLoader(), context, EMULATOR);
            context.refresh();

            StandInConnectionDetails details = context.getBean(StandInConnectionDetails.class);
            assertEquals(EMULATOR.connectionString(), details.getConnectionString());
            assertTrue(details.toString().startsWith("AzureServiceBusConnectionDetails of "), details.toString());
        }
    }

    @Test
    void noBeanWhereSpringCloudAzureHasNoSuchType() {
        try (GenericApplicationContext context = new GenericApplicationContext()) {
            EmulatorContextCustomizer.connectionDetails(
                    "com.example.NoSuchConnectionDetails", getClass().getClassLoader(), context, EMULATOR);
            context.refresh();

            assertEquals(0, context.getBeanDefinitionCount());
            assertThrows(
                    NoSuchBeanDefinitionException.class,
                    () -> context.getBean("sbemu.azureServiceBusConnectionDetails"));
        }
    }
}
