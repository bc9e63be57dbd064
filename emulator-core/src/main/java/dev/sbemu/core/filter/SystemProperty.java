package dev.sbemu.core.filter;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The system properties a filter or action addresses as {@code sys.<Name>} (case-insensitive), under
 * the service's filter names, which are the old {@code BrokeredMessage} names ({@code sys.Label} is
 * the message's subject). Referring to any other {@code sys.} name is an error (SPEC RUL-2, RUL-6).
 */
public enum SystemProperty {
    MESSAGE_ID("MessageId", true),
    CORRELATION_ID("CorrelationId", true),
    TO("To", true),
    REPLY_TO("ReplyTo", true),
    /** The subject. */
    LABEL("Label", true),
    SESSION_ID("SessionId", true),
    REPLY_TO_SESSION_ID("ReplyToSessionId", true),
    CONTENT_TYPE("ContentType", true),
    DELIVERY_COUNT("DeliveryCount", false),
    SEQUENCE_NUMBER("SequenceNumber", false),
    ENQUEUED_TIME_UTC("EnqueuedTimeUtc", false),
    SCHEDULED_ENQUEUE_TIME_UTC("ScheduledEnqueueTimeUtc", false),
    EXPIRES_AT_UTC("ExpiresAtUtc", false),
    TIME_TO_LIVE("TimeToLive", false),
    SIZE("Size", false),
    ENQUEUED_SEQUENCE_NUMBER("EnqueuedSequenceNumber", false),
    LOCK_TOKEN("LockToken", false),
    LOCKED_UNTIL_UTC("LockedUntilUtc", false),
    DEAD_LETTER_SOURCE("DeadLetterSource", false),
    PARTITION_KEY("PartitionKey", false),
    VIA_PARTITION_KEY("ViaPartitionKey", false),
    STATE("State", false);

    private static final Map<String, SystemProperty> BY_NAME = Stream.of(values())
            .collect(Collectors.toUnmodifiableMap(p -> p.filterName.toLowerCase(Locale.ROOT), Function.identity()));

    private final String filterName;
    private final boolean settable;

    SystemProperty(String filterName, boolean settable) {
        this.filterName = filterName;
        this.settable = settable;
    }

    /**
     * Returns the name used after {@code sys.} in filters and actions, e.g. {@code "Label"}.
     *
     * @return the filter name
     */
    public String filterName() {
        return filterName;
    }

    /**
     * Tells whether a SQL action may {@code SET} (or {@code REMOVE}) this property; these are the
     * string-valued properties a sender sets: MessageId, CorrelationId, To, ReplyTo, Label, SessionId,
     * ReplyToSessionId and ContentType.
     *
     * @return true when a SQL action may change it
     */
    public boolean settable() {
        return settable;
    }

    /**
     * Finds a system property by its filter name, ignoring case.
     *
     * @param name a name such as {@code "label"} or {@code "MessageId"}
     * @return the property, or empty when there is none by that name
     */
    public static Optional<SystemProperty> byFilterName(String name) {
        return name == null ? Optional.empty() : Optional.ofNullable(BY_NAME.get(name.toLowerCase(Locale.ROOT)));
    }
}
