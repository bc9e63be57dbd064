package dev.sbemu.junit.internal;

import dev.sbemu.core.config.Origin;

/**
 * An entity declared by an annotation, e.g. {@code @Queue(name = "orders")} in
 * {@code @ServiceBusEmulator on com.example.OrderTest}.
 *
 * @param element the annotation that declares the entity
 * @param declaredOn where that annotation sits
 */
record AnnotationOrigin(String element, String declaredOn) implements Origin {

    @Override
    public String describe(String property) {
        return element + (property == null ? "" : "." + attributeOf(property)) + " in " + declaredOn;
    }

    private static String attributeOf(String property) {
        return property.endsWith(" name") ? "name" : property;
    }
}
