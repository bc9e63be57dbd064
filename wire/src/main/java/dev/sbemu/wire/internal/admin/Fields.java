package dev.sbemu.wire.internal.admin;

import dev.sbemu.core.EntityStatus;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.w3c.dom.Element;

/**
 * The child elements of an entity description, checked against what the service knows: a writable
 * property is applied, a read-only one (counts, timestamps the client echoes back on updates) is
 * ignored, and anything else is a 400 naming the element, never a silent success.
 */
final class Fields {
    private final String kind;
    private final Map<String, Element> byName = new LinkedHashMap<>();

    private Fields(String kind) {
        this.kind = kind;
    }

    /**
     * Reads {@code description}'s children.
     *
     * @param writable the elements a client may set
     * @param readOnly the elements the service reports and ignores on input
     */
    static Fields of(Element description, Set<String> writable, Set<String> readOnly) {
        String kind = description.getLocalName();
        Fields fields = new Fields(kind);
        for (Element child : Xml.children(description)) {
            String name = child.getLocalName();
            if (!Xml.SB.equals(child.getNamespaceURI()) || !(writable.contains(name) || readOnly.contains(name))) {
                throw ManagementException.badRequest("Unknown element " + Xml.name(child) + " in " + kind + ".");
            }
            if (fields.byName.put(name, child) != null) {
                throw ManagementException.badRequest("Element " + name + " appears twice in " + kind + ".");
            }
            if (readOnly.contains(name)) {
                fields.byName.remove(name);
            }
        }
        return fields;
    }

    /** The element, or null. */
    Element element(String name) {
        return byName.get(name);
    }

    /** Calls {@code setter} with the element's text when it is present; an empty element reads as null. */
    void text(String name, Consumer<String> setter) {
        Element e = byName.get(name);
        if (e != null) {
            String text = e.getTextContent();
            setter.accept(text.isEmpty() ? null : text);
        }
    }

    void duration(String name, Consumer<Duration> setter) {
        text(name, t -> setter.accept(XmlValues.duration(kind + "." + name, required(name, t))));
    }

    void bool(String name, Consumer<Boolean> setter) {
        text(name, t -> setter.accept(XmlValues.bool(kind + "." + name, required(name, t))));
    }

    void integer(String name, long min, long max, Consumer<Long> setter) {
        text(name, t -> setter.accept(XmlValues.integer(kind + "." + name, required(name, t), min, max)));
    }

    void status(Consumer<EntityStatus> setter) {
        text("Status", t -> setter.accept(StatusXml.read(kind + ".Status", required("Status", t))));
    }

    private String required(String name, String text) {
        if (text == null) {
            throw ManagementException.badRequest("Element " + name + " of " + kind + " is empty.");
        }
        return text;
    }
}
