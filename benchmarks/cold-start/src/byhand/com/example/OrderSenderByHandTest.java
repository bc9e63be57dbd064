package com.example;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;

import com.azure.messaging.servicebus.ServiceBusMessage;
import com.azure.messaging.servicebus.ServiceBusSenderClient;
import org.junit.jupiter.api.Test;

/** The quick start's scenario as users write it without sbemu: the SDK's final sender mocked by hand. */
class OrderSenderByHandTest {
    @Test
    void orderIsSent() {
        ServiceBusSenderClient sender = mock(ServiceBusSenderClient.class);

        sender.sendMessage(new ServiceBusMessage("order-42"));

        verify(sender).sendMessage(any(ServiceBusMessage.class));
    }
}
