package dev.sbemu.wire.internal.admin;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.TemporalAccessor;
import java.util.UUID;
import org.w3c.dom.Element;

/** Values typed with XML Schema's {@code xsi:type}, as data-contract serialisation writes them. */
final class TypedValueXml {
    /** The data contract serializer's namespace, where {@code guid} and {@code char} live. */
    static final String SERIALIZATION = "http://schemas.microsoft.com/2003/10/Serialization/";

    private TypedValueXml() {}

    /** The value of a typed element; no {@code xsi:type} means string, {@code xsi:nil} means null. */
    static Object read(String name, Element value) {
        if ("true".equals(value.getAttributeNS(Xml.XSI, "nil"))) {
            return null;
        }
        String type = Xml.xsiType(value);
        String text = value.getTextContent();
        try {
            return switch (type == null ? "string" : type) {
                case "string" -> text;
                case "int" -> Integer.valueOf(text.trim());
                case "long" -> Long.valueOf(text.trim());
                case "short" -> Short.valueOf(text.trim());
                case "byte" -> Byte.valueOf(text.trim());
                case "double" -> Double.valueOf(text.trim());
                case "float" -> Float.valueOf(text.trim());
                case "boolean" -> XmlValues.bool("property '" + name + "'", text);
                case "unsignedByte", "unsignedShort", "unsignedInt" -> Long.valueOf(text.trim());
                case "unsignedLong" -> new BigInteger(text.trim());
                case "decimal" -> new BigDecimal(text.trim());
                case "dateTime" -> dateTime(text.trim());
                case "duration" -> Duration.parse(text.trim());
                case "guid" -> UUID.fromString(text.trim());
                case "char" -> (char) Integer.parseInt(text.trim());
                default ->
                    throw ManagementException.badRequest(
                            "Property '" + name + "' has the unknown xsi:type '" + type + "'.");
            };
        } catch (DateTimeParseException | IllegalArgumentException e) {
            throw ManagementException.badRequest(
                    "Property '" + name + "': '" + text + "' is not a valid " + type + ".");
        }
    }

    /** An {@code xs:dateTime}; one without an offset is UTC, as the service reads it. */
    private static OffsetDateTime dateTime(String text) {
        TemporalAccessor parsed =
                DateTimeFormatter.ISO_DATE_TIME.parseBest(text, OffsetDateTime::from, LocalDateTime::from);
        return parsed instanceof OffsetDateTime offset ? offset : ((LocalDateTime) parsed).atOffset(ZoneOffset.UTC);
    }

    /** The namespace of {@link #type}'s name: XML Schema, or the data contract serializer's for guid and char. */
    static String namespace(Object value) {
        return value instanceof UUID || value instanceof Character ? SERIALIZATION : Xml.XSD;
    }

    /** The XML Schema (or data contract) type name of a value. */
    static String type(Object value) {
        if (value instanceof Integer) {
            return "int";
        } else if (value instanceof Long) {
            return "long";
        } else if (value instanceof Short) {
            return "short";
        } else if (value instanceof Byte) {
            return "byte";
        } else if (value instanceof Double) {
            return "double";
        } else if (value instanceof Float) {
            return "float";
        } else if (value instanceof Boolean) {
            return "boolean";
        } else if (value instanceof BigInteger) {
            return "unsignedLong";
        } else if (value instanceof BigDecimal) {
            return "decimal";
        } else if (value instanceof OffsetDateTime || value instanceof Instant) {
            return "dateTime";
        } else if (value instanceof Duration) {
            return "duration";
        } else if (value instanceof UUID) {
            return "guid";
        } else if (value instanceof Character) {
            return "char";
        }
        return "string";
    }

    static String text(Object value) {
        if (value instanceof Character c) {
            return String.valueOf((int) c); // the data contract serializer writes a char as its code
        }
        if (value instanceof OffsetDateTime t) {
            return DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(t); // always with seconds, as xs:dateTime wants
        }
        return String.valueOf(value);
    }
}
