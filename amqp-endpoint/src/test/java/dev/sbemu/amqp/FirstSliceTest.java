package dev.sbemu.amqp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.azure.messaging.servicebus.ServiceBusClientBuilder;
import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusReceivedMessage;
import com.azure.messaging.servicebus.ServiceBusReceiverClient;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import dev.sbemu.core.EntityPath;
import dev.sbemu.core.Namespace;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class FirstSliceTest {
    @Test
    void sendReceiveComplete() {
        Namespace namespace = Namespace.create();
        namespace.createQueue("orders");
        try (ServiceBusEmulatorServer server = ServiceBusEmulatorServer.start(namespace)) {
            ServiceBusClientBuilder builder = new ServiceBusClientBuilder().connectionString(server.getConnectionString());
            try (ServiceBusSenderClient sender = builder.sender().queueName("orders").buildClient();
                 ServiceBusReceiverClient receiver = builder.receiver().queueName("orders").buildClient()) {
                sender.sendMessage(new ServiceBusMessage("hello"));
                List<ServiceBusReceivedMessage> got = receiver.receiveMessages(1, Duration.ofSeconds(10)).stream().toList();
                assertEquals(1, got.size());
                assertEquals("hello", got.get(0).getBody().toString());
                receiver.complete(got.get(0));
                assertEquals(0, namespace.runtimeInfo(EntityPath.queue("orders")).activeMessageCount());
            }
        }
    }
}
