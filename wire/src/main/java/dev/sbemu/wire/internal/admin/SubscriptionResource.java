package dev.sbemu.wire.internal.admin;

import dev.sbemu.core.EntityPath;
import dev.sbemu.core.EntityRuntimeInfo;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.SubscriptionOptions;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Subscriptions: {@code /<topic>/Subscriptions/<name>} (GET, PUT, DELETE) and the list
 * {@code /<topic>/Subscriptions}. A create may carry a {@code DefaultRuleDescription}: the subscription
 * then starts with that rule instead of {@code $Default}.
 */
final class SubscriptionResource {
    private final Site site;
    private final Namespace ns;

    SubscriptionResource(Site site) {
        this.site = site;
        this.ns = site.namespace();
    }

    ManagementResponse get(String topic, String name) {
        return ManagementResponse.entry(200, Atom.document(entry(topic, name, ns.getSubscription(topic, name))));
    }

    ManagementResponse put(String topic, String name, String body, boolean update, String requestHost) {
        EntityRefs refs = site.refs(topic + "/Subscriptions/" + name, requestHost);
        SubscriptionXml.Request asked =
                SubscriptionXml.read(Atom.description(body, Set.of(SubscriptionXml.ELEMENT)), refs);
        SubscriptionOptions stored;
        if (update) {
            if (asked.rule() != null) {
                throw ManagementException.badRequest("DefaultRuleDescription can be given only when a subscription"
                        + " is created; change rules through " + topic + "/Subscriptions/" + name + "/Rules.");
            }
            stored = ns.updateSubscription(topic, name, asked.options());
        } else {
            stored = ns.createSubscription(
                    topic, name, asked.options(), asked.rule() == null ? List.of() : List.of(asked.rule()));
        }
        refs.remember();
        return ManagementResponse.entry(update ? 200 : 201, Atom.document(entry(topic, name, stored)));
    }

    ManagementResponse delete(String topic, String name) {
        ns.deleteSubscription(topic, name);
        site.forwards().forget(topic + "/Subscriptions/" + name);
        return ManagementResponse.ok();
    }

    ManagementResponse list(String topic, Paging paging) {
        return Atom.feed(
                site,
                "Subscriptions",
                topic + "/Subscriptions",
                paging,
                ns.subscriptionNames(topic),
                name -> entry(topic, name, ns.getSubscription(topic, name)));
    }

    private Consumer<XmlOut> entry(String topic, String name, SubscriptionOptions options) {
        EntityRuntimeInfo info = ns.runtimeInfo(EntityPath.subscription(topic, name));
        String path = topic + "/Subscriptions/" + name;
        return out -> Atom.entry(
                out,
                site.url(path),
                name,
                info.createdAt(),
                info.updatedAt(),
                site.name(),
                c -> SubscriptionXml.write(c, options, info, site.refs(path)));
    }
}
