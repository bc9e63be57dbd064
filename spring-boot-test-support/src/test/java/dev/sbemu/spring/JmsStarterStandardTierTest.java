package dev.sbemu.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sbemu.junit.Queue;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;
import org.springframework.jms.core.JmsTemplate;

/**
 * A Standard namespace (the default): the JMS starter gets {@code pricing-tier=standard}, and with it Spring Cloud
 * Azure's Standard-tier connection customizer; queues work (the service's JMS 1.1 subset).
 */
@SpringBootTest(classes = TestApplication.class)
@SpringServiceBusEmulator(queues = @Queue(name = "invoices"))
@DisplayName("SPRING-7 SPRING-8 the JMS starter on a Standard namespace")
class JmsStarterStandardTierTest {
    @Test
    void theStandardTierIsSetAndQueuesWork(@Autowired Environment environment, @Autowired JmsTemplate jms) {
        assertEquals("standard", environment.getProperty("spring.jms.servicebus.pricing-tier"));

        jms.convertAndSend("invoices", "invoice-8");
        jms.setReceiveTimeout(30_000);
        assertEquals("invoice-8", jms.receiveAndConvert("invoices"));
    }
}
