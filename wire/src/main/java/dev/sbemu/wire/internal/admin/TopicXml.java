package dev.sbemu.wire.internal.admin;

import dev.sbemu.core.EntityRuntimeInfo;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.RuleDescription;
import dev.sbemu.core.Tier;
import dev.sbemu.core.TopicOptions;
import dev.sbemu.core.filter.CorrelationFilter;
import java.util.Set;
import org.w3c.dom.Element;

/** {@code TopicDescription} to and from {@link TopicOptions}. */
final class TopicXml {
    static final String ELEMENT = "TopicDescription";
    private static final Set<String> WRITABLE = Set.of(
            "AuthorizationRules",
            "DefaultMessageTimeToLive",
            "MaxSizeInMegabytes",
            "RequiresDuplicateDetection",
            "DuplicateDetectionHistoryTimeWindow",
            "EnableBatchedOperations",
            "Status",
            "SupportOrdering",
            "AutoDeleteOnIdle",
            "EnablePartitioning",
            "UserMetadata",
            "MaxMessageSizeInKilobytes",
            "EnableExpress");
    /** Reported by the service, echoed back by clients on updates, ignored. */
    private static final Set<String> READ_ONLY = Set.of(
            "SizeInBytes",
            "FilteringMessagesBeforePublishing",
            "IsAnonymousAccessible",
            "CreatedAt",
            "UpdatedAt",
            "AccessedAt",
            "CountDetails",
            "SubscriptionCount",
            "EntityAvailabilityStatus",
            "EnableSubscriptionPartitioning",
            "SqlFilterCount",
            "CorrelationFilterCount");

    private TopicXml() {}

    /** The options a create or update asks for: elements left out take the service's defaults. */
    static TopicOptions read(Element description, Tier tier) {
        Fields f = Fields.of(description, WRITABLE, READ_ONLY);
        TopicOptions.Builder b = TopicOptions.builder();
        f.duration("DefaultMessageTimeToLive", b::defaultMessageTimeToLive);
        f.integer("MaxSizeInMegabytes", Long.MIN_VALUE, Long.MAX_VALUE, b::maxSizeInMegabytes);
        f.bool("RequiresDuplicateDetection", b::requiresDuplicateDetection);
        f.duration("DuplicateDetectionHistoryTimeWindow", b::duplicateDetectionHistoryTimeWindow);
        f.bool("EnableBatchedOperations", b::enableBatchedOperations);
        f.status(b::status);
        f.bool("SupportOrdering", b::supportOrdering);
        f.duration("AutoDeleteOnIdle", b::autoDeleteOnIdle);
        f.bool("EnablePartitioning", b::enablePartitioning);
        f.text("UserMetadata", b::userMetadata);
        f.integer(
                "MaxMessageSizeInKilobytes",
                Long.MIN_VALUE,
                Long.MAX_VALUE,
                kb -> b.maxMessageSizeInKilobytes(Limits.maxMessageKb(kb, tier)));
        b.authorizationRules(AuthorizationRulesXml.read(f.element(AuthorizationRulesXml.ELEMENT)));
        Limits.express(f, tier);
        return b.build();
    }

    /** Writes the description with the topic's counts and timestamps. */
    static void write(XmlOut out, TopicOptions o, EntityRuntimeInfo info, Tier tier, FilterCounts filters) {
        out.startIn(Xml.SB, ELEMENT);
        out.element("DefaultMessageTimeToLive", o.defaultMessageTimeToLive());
        out.element(
                "MaxSizeInMegabytes", Limits.reportedMaxSizeMb(o.maxSizeInMegabytes(), o.enablePartitioning(), tier));
        out.element("RequiresDuplicateDetection", o.requiresDuplicateDetection());
        out.element("DuplicateDetectionHistoryTimeWindow", o.duplicateDetectionHistoryTimeWindow());
        out.element("EnableBatchedOperations", o.enableBatchedOperations());
        out.element("SizeInBytes", info.sizeInBytes());
        out.element("FilteringMessagesBeforePublishing", false);
        out.element("IsAnonymousAccessible", false);
        AuthorizationRulesXml.write(out, o.authorizationRules());
        out.element("Status", StatusXml.write(o.status()));
        out.element("CreatedAt", info.createdAt());
        out.element("UpdatedAt", info.updatedAt());
        out.element("AccessedAt", info.accessedAt());
        out.element("SupportOrdering", o.supportOrdering());
        CountsXml.write(out, info);
        out.element("SubscriptionCount", info.subscriptionCount());
        out.element("AutoDeleteOnIdle", o.autoDeleteOnIdle());
        out.element("EnablePartitioning", o.enablePartitioning());
        out.element("EntityAvailabilityStatus", "Available");
        out.element("EnableSubscriptionPartitioning", false);
        out.element("EnableExpress", false);
        out.element("UserMetadata", o.userMetadata());
        out.element("MaxMessageSizeInKilobytes", Limits.reportedMaxMessageKb(o.maxMessageSizeInKilobytes(), tier));
        out.element("SqlFilterCount", filters.sql());
        out.element("CorrelationFilterCount", filters.correlation());
        out.end();
    }

    /**
     * RUL-11: the filters of every rule of a topic's subscriptions, by kind. SQL filters include the true and false
     * filters (a new subscription's {@code $Default} counts as one).
     */
    record FilterCounts(int sql, int correlation) {
        static FilterCounts of(Namespace ns, String topic) {
            int sql = 0;
            int correlation = 0;
            for (String subscription : ns.subscriptionNames(topic)) {
                for (RuleDescription rule : ns.listRules(topic, subscription)) {
                    if (rule.filter() instanceof CorrelationFilter) {
                        correlation++;
                    } else {
                        sql++;
                    }
                }
            }
            return new FilterCounts(sql, correlation);
        }
    }
}
