package dev.sbemu.wire.internal.admin;

import dev.sbemu.core.EntityRuntimeInfo;
import dev.sbemu.core.QueueOptions;
import dev.sbemu.core.Tier;
import java.util.Set;
import org.w3c.dom.Element;

/** {@code QueueDescription} to and from {@link QueueOptions}. */
final class QueueXml {
    static final String ELEMENT = "QueueDescription";
    private static final Set<String> WRITABLE = Set.of(
            "AuthorizationRules",
            "LockDuration",
            "MaxSizeInMegabytes",
            "RequiresDuplicateDetection",
            "RequiresSession",
            "DefaultMessageTimeToLive",
            "DeadLetteringOnMessageExpiration",
            "DuplicateDetectionHistoryTimeWindow",
            "MaxDeliveryCount",
            "EnableBatchedOperations",
            "Status",
            "ForwardTo",
            "UserMetadata",
            "AutoDeleteOnIdle",
            "EnablePartitioning",
            "ForwardDeadLetteredMessagesTo",
            "MaxMessageSizeInKilobytes",
            "EnableExpress");
    /** Reported by the service, echoed back by clients on updates, ignored. */
    private static final Set<String> READ_ONLY = Set.of(
            "SizeInBytes",
            "MessageCount",
            "IsAnonymousAccessible",
            "CreatedAt",
            "UpdatedAt",
            "AccessedAt",
            "SupportOrdering",
            "CountDetails",
            "EntityAvailabilityStatus");

    private QueueXml() {}

    /** The options a create or update asks for: elements left out take the service's defaults. */
    static QueueOptions read(Element description, EntityRefs refs, Tier tier) {
        Fields f = Fields.of(description, WRITABLE, READ_ONLY);
        QueueOptions.Builder b = QueueOptions.builder();
        f.duration("LockDuration", b::lockDuration);
        f.integer("MaxSizeInMegabytes", Long.MIN_VALUE, Long.MAX_VALUE, b::maxSizeInMegabytes);
        f.bool("RequiresDuplicateDetection", b::requiresDuplicateDetection);
        f.bool("RequiresSession", b::requiresSession);
        f.duration("DefaultMessageTimeToLive", b::defaultMessageTimeToLive);
        f.bool("DeadLetteringOnMessageExpiration", b::deadLetteringOnMessageExpiration);
        f.duration("DuplicateDetectionHistoryTimeWindow", b::duplicateDetectionHistoryTimeWindow);
        f.integer("MaxDeliveryCount", Integer.MIN_VALUE, Integer.MAX_VALUE, n -> b.maxDeliveryCount(n.intValue()));
        f.bool("EnableBatchedOperations", b::enableBatchedOperations);
        f.status(b::status);
        f.text("ForwardTo", ref -> b.forwardTo(refs.name("ForwardTo", ref)));
        f.text("UserMetadata", b::userMetadata);
        f.duration("AutoDeleteOnIdle", b::autoDeleteOnIdle);
        f.bool("EnablePartitioning", b::enablePartitioning);
        f.text(
                "ForwardDeadLetteredMessagesTo",
                ref -> b.forwardDeadLetteredMessagesTo(refs.name("ForwardDeadLetteredMessagesTo", ref)));
        f.integer(
                "MaxMessageSizeInKilobytes",
                Long.MIN_VALUE,
                Long.MAX_VALUE,
                kb -> b.maxMessageSizeInKilobytes(Limits.maxMessageKb(kb, tier)));
        b.authorizationRules(AuthorizationRulesXml.read(f.element(AuthorizationRulesXml.ELEMENT)));
        Limits.express(f, tier);
        return b.build();
    }

    /** Writes the description with the queue's counts and timestamps. */
    static void write(XmlOut out, QueueOptions o, EntityRuntimeInfo info, EntityRefs refs, Tier tier) {
        out.startIn(Xml.SB, ELEMENT);
        out.element("LockDuration", o.lockDuration());
        out.element(
                "MaxSizeInMegabytes", Limits.reportedMaxSizeMb(o.maxSizeInMegabytes(), o.enablePartitioning(), tier));
        out.element("RequiresDuplicateDetection", o.requiresDuplicateDetection());
        out.element("RequiresSession", o.requiresSession());
        out.element("DefaultMessageTimeToLive", o.defaultMessageTimeToLive());
        out.element("DeadLetteringOnMessageExpiration", o.deadLetteringOnMessageExpiration());
        out.element("DuplicateDetectionHistoryTimeWindow", o.duplicateDetectionHistoryTimeWindow());
        out.element("MaxDeliveryCount", o.maxDeliveryCount());
        out.element("EnableBatchedOperations", o.enableBatchedOperations());
        out.element("SizeInBytes", info.sizeInBytes());
        out.element("MessageCount", CountsXml.int32(info.totalMessageCount()));
        out.element("IsAnonymousAccessible", false);
        AuthorizationRulesXml.write(out, o.authorizationRules());
        out.element("Status", StatusXml.write(o.status()));
        out.element("ForwardTo", refs.url("ForwardTo", o.forwardTo()));
        out.element("UserMetadata", o.userMetadata());
        out.element("CreatedAt", info.createdAt());
        out.element("UpdatedAt", info.updatedAt());
        out.element("AccessedAt", info.accessedAt());
        out.element("SupportOrdering", true);
        CountsXml.write(out, info);
        out.element("AutoDeleteOnIdle", o.autoDeleteOnIdle());
        out.element("EnablePartitioning", o.enablePartitioning());
        out.element("EntityAvailabilityStatus", "Available");
        out.element(
                "ForwardDeadLetteredMessagesTo",
                refs.url("ForwardDeadLetteredMessagesTo", o.forwardDeadLetteredMessagesTo()));
        out.element("EnableExpress", false);
        out.element("MaxMessageSizeInKilobytes", Limits.reportedMaxMessageKb(o.maxMessageSizeInKilobytes(), tier));
        out.end();
    }
}
