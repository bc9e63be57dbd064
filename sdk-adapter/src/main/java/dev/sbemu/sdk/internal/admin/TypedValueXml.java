package dev.sbemu.sdk.internal.admin;

import org.w3c.dom.Element;

/** Values typed with XML Schema's {@code xsi:type}, as data-contract serialisation writes them. */
final class TypedValueXml {
    private TypedValueXml() {
    }

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
                default -> throw ManagementException.notImplemented("Property '" + name + "' has type xsi:type '"
                        + type + "'; the emulator takes string, int, long, short, byte, double, float and boolean.");
            };
        } catch (NumberFormatException e) {
            throw ManagementException.badRequest("Property '" + name + "': '" + text + "' is not a valid " + type
                    + ".");
        }
    }

    /** The XML Schema type name of a value. */
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
        }
        return "string";
    }

    static String text(Object value) {
        return String.valueOf(value);
    }
}
