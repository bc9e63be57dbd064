package dev.sbemu.wire.internal.admin;

import dev.sbemu.core.filter.CorrelationFilter;
import java.util.Map;
import java.util.Set;
import org.w3c.dom.Element;

/**
 * A {@code CorrelationFilter} element. Application property values carry an {@code xsi:type} from XML
 * Schema; the Java SDK sends every value as {@code string}, so a filter on {@code 5} matches the string
 * "5" only, as on the real service.
 */
final class CorrelationXml {
    private static final Set<String> FIELDS = Set.of(
            "CorrelationId",
            "MessageId",
            "To",
            "ReplyTo",
            "Label",
            "SessionId",
            "ReplyToSessionId",
            "ContentType",
            "Properties");

    private CorrelationXml() {}

    static CorrelationFilter read(Element filter) {
        Fields f = Fields.of(filter, FIELDS, Set.of());
        String[] v = new String[8];
        f.text("CorrelationId", t -> v[0] = t);
        f.text("MessageId", t -> v[1] = t);
        f.text("To", t -> v[2] = t);
        f.text("ReplyTo", t -> v[3] = t);
        f.text("Label", t -> v[4] = t);
        f.text("SessionId", t -> v[5] = t);
        f.text("ReplyToSessionId", t -> v[6] = t);
        f.text("ContentType", t -> v[7] = t);
        Map<String, Object> properties = KeyValueXml.read(f.element("Properties"), "CorrelationFilter.Properties");
        return new CorrelationFilter(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], properties);
    }

    static void write(XmlOut out, CorrelationFilter filter) {
        out.element("CorrelationId", filter.correlationId());
        out.element("MessageId", filter.messageId());
        out.element("To", filter.to());
        out.element("ReplyTo", filter.replyTo());
        out.element("Label", filter.subject());
        out.element("SessionId", filter.sessionId());
        out.element("ReplyToSessionId", filter.replyToSessionId());
        out.element("ContentType", filter.contentType());
        KeyValueXml.write(out, "Properties", filter.properties());
    }
}
