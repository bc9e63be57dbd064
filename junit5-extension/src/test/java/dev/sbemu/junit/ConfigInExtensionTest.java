package dev.sbemu.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.sbemu.junit.fixtures.ConfigFixtures;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.platform.testkit.engine.EngineExecutionResults;

class ConfigInExtensionTest {

    @Test
    @DisplayName("CFG-1 @ServiceBusEmulator(config = ...) creates the file's entities next to the annotated ones")
    void configAndAnnotations() {
        EngineExecutionResults results = Kit.run(ConfigFixtures.ConfigAndAnnotations.class);

        results.testEvents().assertStatistics(s -> s.succeeded(2).failed(0));
        String expected = "queues=[extra, orders] topics=[events] events=[audit, billing] extra->orders rules=1";
        assertEquals(List.of(expected, expected), Kit.reported(results, "topology"));
    }

    @Test
    @DisplayName("CFG-3 a config file that cannot be found fails the test, naming it")
    void missingConfig() {
        Throwable failure = Kit.failure(Kit.run(ConfigFixtures.MissingConfig.class));

        assertInstanceOf(ExtensionConfigurationException.class, failure);
        assertEquals(
                "classpath:config/missing.json: not found on the class path (looked for resource "
                        + "'config/missing.json')",
                failure.getMessage());
    }
}
