package dev.sbemu.wire.internal.admin;

import dev.sbemu.core.Namespace;
import dev.sbemu.core.RuleDescription;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Rules: {@code /<topic>/Subscriptions/<sub>/Rules/<name>} (GET, PUT, DELETE) and the list
 * {@code /<topic>/Subscriptions/<sub>/Rules}, in creation order.
 */
final class RuleResource {
    private final Site site;
    private final Namespace ns;

    RuleResource(Site site) {
        this.site = site;
        this.ns = site.namespace();
    }

    ManagementResponse get(String topic, String sub, String name) {
        return ManagementResponse.entry(200, Atom.document(entry(topic, sub, ns.getRule(topic, sub, name))));
    }

    ManagementResponse put(String topic, String sub, String name, String body, boolean update) {
        RuleDescription asked = RuleXml.read(Atom.description(body, Set.of(RuleXml.ELEMENT)), name);
        RuleDescription stored = update
                ? ns.updateRule(topic, sub, name, asked.filter(), asked.action())
                : ns.createRule(topic, sub, name, asked.filter(), asked.action());
        return ManagementResponse.entry(update ? 200 : 201, Atom.document(entry(topic, sub, stored)));
    }

    ManagementResponse delete(String topic, String sub, String name) {
        ns.deleteRule(topic, sub, name);
        return ManagementResponse.ok();
    }

    ManagementResponse list(String topic, String sub, Paging paging) {
        List<RuleDescription> rules = ns.listRules(topic, sub);
        List<String> names = rules.stream().map(RuleDescription::name).toList();
        return Atom.feed(
                site,
                "Rules",
                topic + "/Subscriptions/" + sub + "/Rules",
                paging,
                names,
                name -> entry(topic, sub, rules.get(names.indexOf(name))));
    }

    private Consumer<XmlOut> entry(String topic, String sub, RuleDescription rule) {
        String path = topic + "/Subscriptions/" + sub + "/Rules/" + rule.name();
        return out -> Atom.entry(
                out, site.url(path), rule.name(), null, site.now(), site.name(), c -> RuleXml.write(c, rule));
    }
}
