package dev.sbemu.wire.internal.admin;

import java.util.LinkedHashMap;
import java.util.Map;
import org.w3c.dom.Element;

/**
 * A list of {@code KeyValueOfstringanyType} pairs: a correlation filter's properties, a SQL filter's
 * or action's parameters. Each value carries an {@code xsi:type} from XML Schema (the Java SDK sends
 * {@code string} for every value).
 */
final class KeyValueXml {
    private static final String PAIR = "KeyValueOfstringanyType";
    private static final String VALUE_PREFIX = "d5p1";

    private KeyValueXml() {}

    /** The pairs of {@code list} (null: none), in order; {@code owner} names the list in errors. */
    static Map<String, Object> read(Element list, String owner) {
        Map<String, Object> pairs = new LinkedHashMap<>();
        if (list == null) {
            return pairs;
        }
        for (Element pair : Xml.children(list)) {
            if (!Xml.is(pair, Xml.SB, PAIR)) {
                throw ManagementException.badRequest("Unknown element " + Xml.name(pair) + " in " + owner + ".");
            }
            Element key = null;
            Element value = null;
            for (Element e : Xml.children(pair)) {
                if (Xml.is(e, Xml.SB, "Key") && key == null) {
                    key = e;
                } else if (Xml.is(e, Xml.SB, "Value") && value == null) {
                    value = e;
                } else {
                    throw ManagementException.badRequest("Unexpected element " + Xml.name(e) + " in " + owner + ".");
                }
            }
            if (key == null || key.getTextContent().isEmpty()) {
                throw ManagementException.badRequest("An entry of " + owner + " has no Key.");
            }
            pairs.put(key.getTextContent(), value == null ? null : TypedValueXml.read(key.getTextContent(), value));
        }
        return pairs;
    }

    /** Writes {@code pairs} as the element {@code name}. */
    static void write(XmlOut out, String name, Map<String, Object> pairs) {
        out.start(name);
        for (Map.Entry<String, Object> p : pairs.entrySet()) {
            out.start(PAIR);
            out.element("Key", p.getKey());
            out.start("Value");
            if (p.getValue() == null) {
                out.xsiNil();
            } else {
                out.namespace(VALUE_PREFIX, TypedValueXml.namespace(p.getValue()))
                        .xsiType(VALUE_PREFIX + ":" + TypedValueXml.type(p.getValue()))
                        .text(TypedValueXml.text(p.getValue()));
            }
            out.end();
            out.end();
        }
        out.end();
    }
}
