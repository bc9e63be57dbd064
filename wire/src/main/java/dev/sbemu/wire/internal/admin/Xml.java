package dev.sbemu.wire.internal.admin;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

/** XML namespaces of the management protocol and a hardened, namespace-aware DOM parser. */
final class Xml {
    static final String ATOM = "http://www.w3.org/2005/Atom";
    static final String SB = "http://schemas.microsoft.com/netservices/2010/10/servicebus/connect";
    static final String SB_COUNTS = "http://schemas.microsoft.com/netservices/2011/06/servicebus";
    static final String XSI = XMLConstants.W3C_XML_SCHEMA_INSTANCE_NS_URI;
    static final String XSD = XMLConstants.W3C_XML_SCHEMA_NS_URI;

    private static final DocumentBuilderFactory FACTORY = newFactory();

    private Xml() {}

    private static DocumentBuilderFactory newFactory() {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setXIncludeAware(false);
        f.setExpandEntityReferences(false);
        try {
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("The JDK's XML parser cannot be hardened", e);
        }
        return f;
    }

    /** Parses a request body; malformed XML is a 400. */
    static Element parse(String text) {
        try {
            DocumentBuilder builder;
            synchronized (FACTORY) {
                builder = FACTORY.newDocumentBuilder();
            }
            builder.setErrorHandler(null);
            return builder.parse(new InputSource(new StringReader(text))).getDocumentElement();
        } catch (SAXException e) {
            throw ManagementException.badRequest("The request body is not well-formed XML: " + e.getMessage());
        } catch (IOException | ParserConfigurationException e) {
            throw new IllegalStateException("Cannot parse the request body", e);
        }
    }

    /** The element children of {@code parent}, in document order. */
    static List<Element> children(Element parent) {
        List<Element> out = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n.getNodeType() == Node.ELEMENT_NODE) {
                out.add((Element) n);
            }
        }
        return out;
    }

    /** Whether {@code e} is {@code {namespace}localName}. */
    static boolean is(Element e, String namespace, String localName) {
        return namespace.equals(e.getNamespaceURI()) && localName.equals(e.getLocalName());
    }

    /** {@code {namespace}localName} for messages. */
    static String name(Element e) {
        return e.getNamespaceURI() == null ? e.getLocalName() : "{" + e.getNamespaceURI() + "}" + e.getLocalName();
    }

    /** The local part of the element's {@code xsi:type}, or null. */
    static String xsiType(Element e) {
        String type = e.getAttributeNS(XSI, "type");
        if (type == null || type.isEmpty()) {
            return null;
        }
        int colon = type.indexOf(':');
        return colon < 0 ? type : type.substring(colon + 1);
    }
}
