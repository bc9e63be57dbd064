package dev.sbemu.wire.internal.admin;

import dev.sbemu.core.EntityRuntimeInfo;
import dev.sbemu.core.RuleDescription;
import dev.sbemu.core.SubscriptionOptions;
import java.util.Set;
import org.w3c.dom.Element;

/** {@code SubscriptionDescription} to and from {@link SubscriptionOptions}. */
final class SubscriptionXml {
    static final String ELEMENT = "SubscriptionDescription";
    private static final Set<String> WRITABLE = Set.of(
            "LockDuration",
            "RequiresSession",
            "DefaultMessageTimeToLive",
            "DeadLetteringOnMessageExpiration",
            "DeadLetteringOnFilterEvaluationExceptions",
            "DefaultRuleDescription",
            "MaxDeliveryCount",
            "EnableBatchedOperations",
            "Status",
            "ForwardTo",
            "UserMetadata",
            "ForwardDeadLetteredMessagesTo",
            "AutoDeleteOnIdle");
    private static final Set<String> READ_ONLY =
            Set.of("MessageCount", "CreatedAt", "UpdatedAt", "AccessedAt", "CountDetails", "EntityAvailabilityStatus");

    /**
     * What a PUT asks for.
     *
     * @param options the subscription's properties; elements left out take the service's defaults
     * @param rule the rule to create it with instead of {@code $Default}, or null
     */
    record Request(SubscriptionOptions options, RuleDescription rule) {}

    private SubscriptionXml() {}

    static Request read(Element description, EntityRefs refs) {
        Fields f = Fields.of(description, WRITABLE, READ_ONLY);
        SubscriptionOptions.Builder b = SubscriptionOptions.builder();
        f.duration("LockDuration", b::lockDuration);
        f.bool("RequiresSession", b::requiresSession);
        f.duration("DefaultMessageTimeToLive", b::defaultMessageTimeToLive);
        f.bool("DeadLetteringOnMessageExpiration", b::deadLetteringOnMessageExpiration);
        f.bool("DeadLetteringOnFilterEvaluationExceptions", b::deadLetteringOnFilterEvaluationExceptions);
        f.integer("MaxDeliveryCount", Integer.MIN_VALUE, Integer.MAX_VALUE, n -> b.maxDeliveryCount(n.intValue()));
        f.bool("EnableBatchedOperations", b::enableBatchedOperations);
        f.status(b::status);
        f.text("ForwardTo", ref -> b.forwardTo(refs.name("ForwardTo", ref)));
        f.text("UserMetadata", b::userMetadata);
        f.text(
                "ForwardDeadLetteredMessagesTo",
                ref -> b.forwardDeadLetteredMessagesTo(refs.name("ForwardDeadLetteredMessagesTo", ref)));
        f.duration("AutoDeleteOnIdle", b::autoDeleteOnIdle);
        Element rule = f.element("DefaultRuleDescription");
        return new Request(b.build(), rule == null ? null : RuleXml.read(rule, null));
    }

    /** Writes the description with the subscription's counts and timestamps. */
    static void write(XmlOut out, SubscriptionOptions o, EntityRuntimeInfo info, EntityRefs refs) {
        out.startIn(Xml.SB, ELEMENT);
        out.element("LockDuration", o.lockDuration());
        out.element("RequiresSession", o.requiresSession());
        out.element("DefaultMessageTimeToLive", o.defaultMessageTimeToLive());
        out.element("DeadLetteringOnMessageExpiration", o.deadLetteringOnMessageExpiration());
        out.element("DeadLetteringOnFilterEvaluationExceptions", o.deadLetteringOnFilterEvaluationExceptions());
        out.element("MessageCount", CountsXml.int32(info.totalMessageCount()));
        out.element("MaxDeliveryCount", o.maxDeliveryCount());
        out.element("EnableBatchedOperations", o.enableBatchedOperations());
        out.element("Status", StatusXml.write(o.status()));
        out.element("ForwardTo", refs.url("ForwardTo", o.forwardTo()));
        out.element("CreatedAt", info.createdAt());
        out.element("UpdatedAt", info.updatedAt());
        out.element("AccessedAt", info.accessedAt());
        CountsXml.write(out, info);
        out.element("UserMetadata", o.userMetadata());
        out.element(
                "ForwardDeadLetteredMessagesTo",
                refs.url("ForwardDeadLetteredMessagesTo", o.forwardDeadLetteredMessagesTo()));
        out.element("AutoDeleteOnIdle", o.autoDeleteOnIdle());
        out.element("EntityAvailabilityStatus", "Available");
        out.end();
    }
}
