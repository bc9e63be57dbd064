package dev.sbemu.wire.internal.admin;

import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * Writes one response document with the JDK's StAX writer; one instance per response, not thread-safe. Elements are written in the current default
 * namespace (set by {@link #startIn}); null values are left out, as the service leaves out unset ones.
 */
final class XmlOut {
    private static final XMLOutputFactory FACTORY = XMLOutputFactory.newInstance();

    private final StringWriter buffer = new StringWriter();
    private final XMLStreamWriter out;
    private int depth;

    XmlOut() {
        try {
            synchronized (FACTORY) {
                out = FACTORY.createXMLStreamWriter(buffer);
            }
            out.writeStartDocument("UTF-8", "1.0");
        } catch (XMLStreamException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Starts an element that declares {@code namespace} as the default namespace (and {@code xmlns:i} for xsi). */
    XmlOut startIn(String namespace, String localName) {
        depth++;
        if (namespace.isEmpty()) {
            return run(() -> out.writeStartElement(localName));
        }
        return run(() -> {
            out.setDefaultNamespace(namespace);
            out.writeStartElement(namespace, localName);
            out.writeDefaultNamespace(namespace);
            if (Xml.SB.equals(namespace)) {
                out.setPrefix("i", Xml.XSI);
                out.writeNamespace("i", Xml.XSI);
            }
        });
    }

    /** Starts an element in the current default namespace. */
    XmlOut start(String localName) {
        depth++;
        return run(() -> {
            String namespace = out.getNamespaceContext().getNamespaceURI("");
            if (namespace == null || namespace.isEmpty()) {
                out.writeStartElement(localName);
            } else {
                out.writeStartElement(namespace, localName);
            }
        });
    }

    /** Starts an element in {@code namespace}, bound to {@code prefix} on this element. */
    XmlOut start(String prefix, String namespace, String localName) {
        depth++;
        return run(() -> {
            out.writeStartElement(prefix, localName, namespace);
            out.writeNamespace(prefix, namespace);
        });
    }

    XmlOut attribute(String name, String value) {
        return run(() -> out.writeAttribute(name, value));
    }

    /** Writes {@code i:type="type"} (prefix {@code i} for xsi, bound by {@link #startIn}). */
    XmlOut xsiType(String type) {
        return run(() -> out.writeAttribute("i", Xml.XSI, "type", type));
    }

    /** Writes {@code i:nil="true"}. */
    XmlOut xsiNil() {
        return run(() -> out.writeAttribute("i", Xml.XSI, "nil", "true"));
    }

    XmlOut namespace(String prefix, String namespace) {
        return run(() -> out.writeNamespace(prefix, namespace));
    }

    XmlOut text(String text) {
        return run(() -> out.writeCharacters(text));
    }

    XmlOut end() {
        depth--;
        return run(out::writeEndElement);
    }

    /** Whether no element is open: the next one is the document element. */
    boolean depthIsZero() {
        return depth == 0;
    }

    /** {@code <localName>value</localName>}, or nothing when {@code value} is null. */
    XmlOut element(String localName, Object value) {
        if (value == null) {
            return this;
        }
        return start(localName).text(String.valueOf(value)).end();
    }

    XmlOut element(String localName, Duration value) {
        return element(localName, value == null ? null : XmlValues.duration(value));
    }

    XmlOut element(String localName, Instant value) {
        return element(localName, value == null ? null : XmlValues.instant(value));
    }

    /** An element in {@code namespace} under an already bound {@code prefix}. */
    XmlOut prefixed(String prefix, String namespace, String localName, Object value) {
        return run(() -> {
            out.writeStartElement(prefix, localName, namespace);
            out.writeCharacters(String.valueOf(value));
            out.writeEndElement();
        });
    }

    /** Ends the document and returns its text. */
    String finish() {
        run(() -> {
            out.writeEndDocument();
            out.close();
        });
        return buffer.toString();
    }

    private XmlOut run(XmlAction action) {
        try {
            action.run();
            return this;
        } catch (XMLStreamException e) {
            throw new IllegalStateException("Cannot write the response", e);
        }
    }

    @FunctionalInterface
    private interface XmlAction {
        void run() throws XMLStreamException;
    }
}
