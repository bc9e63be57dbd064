package dev.sbemu.spring.internal;

import java.util.List;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;

/**
 * Registered in {@code META-INF/spring.factories}: a test class with {@code @SpringServiceBusEmulator} gets a
 * context customizer that starts its emulated Service Bus; its declaration is part of the context cache key.
 */
public final class EmulatorContextCustomizerFactory implements ContextCustomizerFactory {
    @Override
    public ContextCustomizer createContextCustomizer(
            Class<?> testClass, List<ContextConfigurationAttributes> configAttributes) {
        Declarations declarations = Declarations.of(testClass);
        return declarations.isEmpty() ? null : new EmulatorContextCustomizer(declarations);
    }
}
