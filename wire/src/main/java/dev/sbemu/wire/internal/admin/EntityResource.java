package dev.sbemu.wire.internal.admin;

import dev.sbemu.core.BrokerException;
import dev.sbemu.core.EntityRuntimeInfo;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.TopicOptions;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.w3c.dom.Element;

/**
 * Queues and topics: {@code /<name>} (GET, PUT to create, PUT with {@code If-Match: *} to update,
 * DELETE) and the lists {@code /$Resources/queues} and {@code /$Resources/topics}. Queues and topics
 * share one name space, so the body of a PUT says which kind it is.
 */
final class EntityResource {
    private static final Set<String> DESCRIPTIONS = Set.of(QueueXml.ELEMENT, TopicXml.ELEMENT);

    private final Site site;
    private final Namespace ns;

    EntityResource(Site site) {
        this.site = site;
        this.ns = site.namespace();
    }

    ManagementResponse get(String name) {
        if (ns.queueExists(name)) {
            return ManagementResponse.entry(200, Atom.document(queueEntry(name, ns.getQueue(name))));
        }
        if (ns.topicExists(name)) {
            return ManagementResponse.entry(200, Atom.document(topicEntry(name, ns.getTopic(name))));
        }
        throw new BrokerException.EntityNotFound(name);
    }

    ManagementResponse put(String name, String body, boolean update, String requestHost) {
        Element description = Atom.description(body, DESCRIPTIONS);
        int status = update ? 200 : 201;
        if (QueueXml.ELEMENT.equals(description.getLocalName())) {
            EntityRefs refs = site.refs(name, requestHost);
            QueueOptions asked = QueueXml.read(description, refs, ns.tier());
            if (update && ns.queueExists(name)) {
                QueueOptions old = ns.getQueue(name);
                asked = asked.toBuilder()
                        .maxSizeInMegabytes(Limits.updatedMaxSizeMb(
                                asked.maxSizeInMegabytes(),
                                old.maxSizeInMegabytes(),
                                old.enablePartitioning(),
                                ns.tier()))
                        .build();
            }
            QueueOptions stored = update ? ns.updateQueue(name, asked) : ns.createQueue(name, asked);
            refs.remember();
            return ManagementResponse.entry(status, Atom.document(queueEntry(name, stored)));
        }
        TopicOptions asked = TopicXml.read(description, ns.tier());
        if (update && ns.topicExists(name)) {
            TopicOptions old = ns.getTopic(name);
            asked = asked.toBuilder()
                    .maxSizeInMegabytes(Limits.updatedMaxSizeMb(
                            asked.maxSizeInMegabytes(), old.maxSizeInMegabytes(), old.enablePartitioning(), ns.tier()))
                    .build();
        }
        TopicOptions stored = update ? ns.updateTopic(name, asked) : ns.createTopic(name, asked);
        return ManagementResponse.entry(status, Atom.document(topicEntry(name, stored)));
    }

    ManagementResponse delete(String name) {
        if (ns.queueExists(name)) {
            ns.deleteQueue(name);
        } else {
            ns.deleteTopic(name);
        }
        site.forwards().forget(name);
        return ManagementResponse.ok();
    }

    /** {@code /$Resources/queues} or {@code /$Resources/topics}. */
    ManagementResponse list(String kind, Paging paging) {
        boolean queues = kind.equalsIgnoreCase("queues");
        if (!queues && !kind.equalsIgnoreCase("topics")) {
            throw ManagementException.notFound("Unknown resource collection '$Resources/" + kind
                    + "'; the namespace lists 'queues' and 'topics'.");
        }
        List<String> names = queues ? ns.queueNames() : ns.topicNames();
        String path = "$Resources/" + (queues ? "queues" : "topics");
        return Atom.feed(
                site,
                queues ? "Queues" : "Topics",
                path,
                paging,
                names,
                name -> queues ? queueEntry(name, ns.getQueue(name)) : topicEntry(name, ns.getTopic(name)));
    }

    private Consumer<XmlOut> queueEntry(String name, QueueOptions options) {
        EntityRuntimeInfo info = site.info(name);
        return out -> Atom.entry(
                out,
                site.url(name),
                name,
                info.createdAt(),
                info.updatedAt(),
                site.name(),
                c -> QueueXml.write(c, options, info, site.refs(name), ns.tier()));
    }

    private Consumer<XmlOut> topicEntry(String name, TopicOptions options) {
        EntityRuntimeInfo info = site.info(name);
        TopicXml.FilterCounts filters = TopicXml.FilterCounts.of(ns, name);
        return out -> Atom.entry(
                out,
                site.url(name),
                name,
                info.createdAt(),
                info.updatedAt(),
                site.name(),
                c -> TopicXml.write(c, options, info, ns.tier(), filters));
    }
}
