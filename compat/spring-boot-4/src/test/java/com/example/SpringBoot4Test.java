package com.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import com.azure.messaging.servicebus.administration.ServiceBusAdministrationClient;
import dev.sbemu.core.VirtualClock;
import dev.sbemu.junit.Queue;
import dev.sbemu.spring.SpringServiceBusEmulator;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/** Spring Cloud Azure's auto-configured sender and receiver reach the emulated namespace; its clock is the test's. */
@SpringBootTest(properties = {
        "spring.cloud.azure.servicebus.entity-name=orders", "spring.cloud.azure.servicebus.entity-type=queue"})
@SpringServiceBusEmulator(queues = @Queue(name = "orders", defaultMessageTimeToLive = "PT10M"))
class SpringBoot4Test {
    @Autowired ServiceBusSenderClient sender;
    @Autowired ServiceBusReceiverClient receiver;
    @Autowired ServiceBusAdministrationClient admin;
    @Autowired VirtualClock clock;

    @Test
    void sendReceiveAndExpire() {
        sender.sendMessage(new ServiceBusMessage("order-1"));
        ServiceBusReceivedMessage received = receiver.receiveMessages(1, Duration.ofSeconds(10)).iterator().next();
        assertEquals("order-1", received.getBody().toString());
        receiver.complete(received);

        sender.sendMessage(new ServiceBusMessage("order-2"));
        clock.advance(Duration.ofMinutes(11));
        assertEquals(0, admin.getQueueRuntimeProperties("orders").getActiveMessageCount());
    }
}
