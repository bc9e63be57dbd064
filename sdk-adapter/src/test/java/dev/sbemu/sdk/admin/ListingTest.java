package dev.sbemu.sdk.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.azure.core.http.rest.PagedResponse;
import com.azure.messaging.servicebus.administration.models.QueueProperties;
import com.azure.messaging.servicebus.administration.models.SubscriptionProperties;
import com.azure.messaging.servicebus.administration.models.TopicProperties;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Lists come in pages of 100 that the SDK follows through their next links. */
class ListingTest extends AdminFixture {

    private static List<String> names(String prefix, int n) {
        return IntStream.range(0, n)
                .mapToObj(i -> String.format("%s-%03d", prefix, i))
                .collect(Collectors.toList());
    }

    @Test
    @DisplayName("listQueues pages through 250 queues in name order, 100 per page")
    void queues() {
        List<String> expected = names("q", 250);
        expected.forEach(namespace::createQueue);
        namespace.createTopic("a-topic");

        List<String> listed =
                admin.listQueues().stream().map(QueueProperties::getName).collect(Collectors.toList());
        assertEquals(expected, listed);
        List<Integer> pageSizes = admin.listQueues()
                .streamByPage()
                .map(page -> page.getValue().size())
                .collect(Collectors.toList());
        assertEquals(List.of(100, 100, 50), pageSizes);
    }

    @Test
    @DisplayName("listTopics pages through 120 topics")
    void topics() {
        List<String> expected = names("t", 120);
        expected.forEach(namespace::createTopic);
        namespace.createQueue("a-queue");
        assertEquals(
                expected,
                admin.listTopics().stream().map(TopicProperties::getName).collect(Collectors.toList()));
    }

    @Test
    @DisplayName("listSubscriptions pages through 101 subscriptions of one topic")
    void subscriptions() {
        namespace.createTopic("events");
        namespace.createTopic("other");
        namespace.createSubscription("other", "x");
        List<String> expected = names("s", 101);
        expected.forEach(s -> namespace.createSubscription("events", s));
        List<SubscriptionProperties> listed =
                admin.listSubscriptions("events").stream().collect(Collectors.toList());
        assertEquals(
                expected,
                listed.stream().map(SubscriptionProperties::getSubscriptionName).collect(Collectors.toList()));
        listed.forEach(s -> assertEquals("events", s.getTopicName()));
        assertEquals(
                List.of(100, 1),
                admin.listSubscriptions("events")
                        .streamByPage()
                        .map(PagedResponse::getValue)
                        .map(List::size)
                        .collect(Collectors.toList()));
    }

    @Test
    @DisplayName("an empty namespace lists nothing")
    void empty() {
        assertEquals(0, admin.listQueues().stream().count());
        assertEquals(0, admin.listTopics().stream().count());
    }
}
