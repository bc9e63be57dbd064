package dev.sbemu.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.servicebus.jms.ServiceBusJmsConnectionFactory;
import dev.sbemu.core.BrokeredMessage;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.MessageBody;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.Tier;
import dev.sbemu.junit.Queue;
import jakarta.jms.ConnectionFactory;
import java.lang.reflect.Field;
import java.util.List;
import org.apache.qpid.jms.JmsConnectionFactory;
import org.apache.qpid.jms.policy.JmsDefaultPrefetchPolicy;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.messaginghub.pooled.jms.JmsPoolConnectionFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;
import org.springframework.jms.core.JmsTemplate;

/** Spring Cloud Azure's JMS starter reaches the emulated namespace with no property in the test. */
@SpringBootTest(classes = TestApplication.class)
@SpringServiceBusEmulator(queues = @Queue(name = "invoices"), tier = Tier.PREMIUM)
class JmsStarterConnectionTest {
    @Autowired
    JmsTemplate jms;

    @Autowired
    Environment environment;

    @Autowired
    EmulatedServiceBus emulator;

    @Test
    @DisplayName("SPRING-7 the JMS starter's connection string, passwordless off, the declared namespace's tier")
    void theStarterIsConfiguredForTheNamespace() {
        // azure-servicebus-jms's parser would read UseDevelopmentEmulator, or a trailing ';', into the key
        assertEquals(
                emulator.connectionString().replace(";UseDevelopmentEmulator=true;", ""),
                environment.getProperty("spring.jms.servicebus.connection-string"));
        assertEquals("false", environment.getProperty("spring.jms.servicebus.passwordless-enabled"));
        assertEquals("premium", environment.getProperty("spring.jms.servicebus.pricing-tier"));
    }

    @Test
    @DisplayName("SPRING-8 the auto-configured JmsTemplate sends to and receives from the emulated queue")
    void jmsTemplateReachesTheEndpoint(@Autowired Namespace namespace) {
        jms.convertAndSend("invoices", "invoice-7");

        List<BrokeredMessage> stored = namespace.peek(EntityPath.queue("invoices"), 0, 10);
        assertEquals(1, stored.size());
        // a TextMessage is an AmqpValue string on the wire (JMS-2)
        assertEquals(new MessageBody.Value("invoice-7"), stored.get(0).message().body());
        jms.setReceiveTimeout(30_000);
        assertEquals("invoice-7", jms.receiveAndConvert("invoices"));
        assertEquals(0, namespace.runtimeInfo(EntityPath.queue("invoices")).activeMessageCount());
    }

    @Test
    @DisplayName("SPRING-8 the starter's factory speaks plain AMQP to the endpoint's port, keeping its own options")
    void theFactoryPointsAtTheEndpoint(@Autowired ConnectionFactory connectionFactory) throws Exception {
        // the starter's bean: pooled-jms's pool (on the class path through the starter) around its own
        ServiceBusJmsConnectionFactory factory =
                (ServiceBusJmsConnectionFactory) ((JmsPoolConnectionFactory) connectionFactory).getConnectionFactory();
        Field qpid = ServiceBusJmsConnectionFactory.class.getDeclaredField("factory");
        qpid.setAccessible(true);
        String uri = ((JmsConnectionFactory) qpid.get(factory)).getRemoteURI();
        String port = emulator.connectionString().replaceAll(".*Endpoint=sb://127\\.0\\.0\\.1:(\\d+);.*", "$1");
        assertTrue(uri.contains("amqp://127.0.0.1:" + port), uri);
        // azure-servicebus-jms's jms.prefetchPolicy.all=0, applied when it built the factory, stays
        assertEquals(
                0,
                ((JmsDefaultPrefetchPolicy) ((JmsConnectionFactory) qpid.get(factory)).getPrefetchPolicy())
                        .getQueuePrefetch());
    }

    /**
     * Spring Cloud Azure 5.22.0 writes {@code spring.jms.servicebus.prefetch-policy.*} into the factory's settings
     * after azure-servicebus-jms built its Qpid JMS URI (in the constructor), so they do not reach Qpid JMS: the
     * starter's behaviour, not sbemu's, which keeps the URI the factory built (SPRING-8).
     */
    @Nested
    @SpringBootTest(
            classes = TestApplication.class,
            properties = {
                "spring.jms.servicebus.prefetch-policy.all=5",
                "spring.jms.servicebus.prefetch-policy.queue-prefetch=7"
            })
    class ThePrefetchPolicyProperties {
        @Test
        @DisplayName(
                "SPRING-8 the starter's prefetch-policy properties come after the factory's URI: the prefetch stays 0")
        void doNotReachQpidJms(@Autowired ConnectionFactory connectionFactory) throws Exception {
            ServiceBusJmsConnectionFactory factory = (ServiceBusJmsConnectionFactory)
                    ((JmsPoolConnectionFactory) connectionFactory).getConnectionFactory();
            // the starter did write them into the settings ...
            assertEquals("7", factory.getSettings().getConfigurationOptions().get("jms.prefetchPolicy.queuePrefetch"));
            Field qpid = ServiceBusJmsConnectionFactory.class.getDeclaredField("factory");
            qpid.setAccessible(true);
            JmsDefaultPrefetchPolicy policy =
                    (JmsDefaultPrefetchPolicy) ((JmsConnectionFactory) qpid.get(factory)).getPrefetchPolicy();
            // ... but Qpid JMS has azure-servicebus-jms's jms.prefetchPolicy.all=0 from the constructor
            assertEquals(0, policy.getQueuePrefetch());
            assertEquals(0, policy.getTopicPrefetch());
        }
    }

    /** A pricing tier in the application's properties wins over the declared namespace's. */
    @Nested
    @SpringBootTest(classes = TestApplication.class, properties = "spring.jms.servicebus.pricing-tier=standard")
    class TheApplicationsTier {
        @Test
        @DisplayName("SPRING-7 the application's pricing tier is kept")
        void isKept(@Autowired Environment environment) {
            assertEquals("standard", environment.getProperty("spring.jms.servicebus.pricing-tier"));
        }
    }
}
