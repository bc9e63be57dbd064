package dev.sbemu.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.sbemu.amqp.EndpointSettings;
import dev.sbemu.core.Namespace;
import dev.sbemu.core.config.EmulatorConfig;
import dev.sbemu.core.config.NamespaceSettings;
import dev.sbemu.junit.internal.EmulatorDeclaration;
import dev.sbemu.junit.internal.EmulatorDeclaration.Declared;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * The namespace that one or more {@link ServiceBusEmulator} declarations describe (settings, annotated entities
 * and Config.json files), merged as the extension merges a test class's declaration with its enclosing classes':
 * a factory of fresh namespaces. For test frameworks that declare the emulator with an annotation of their own and
 * start it outside JUnit's extension model (sbemu's Spring support reads {@code @SpringServiceBusEmulator} into a
 * {@code ServiceBusEmulator} and starts its namespaces here); tests under {@code @ServiceBusEmulator} need none of it.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class DeclaredNamespace {
    private final EmulatorDeclaration declaration;

    private DeclaredNamespace(EmulatorDeclaration declaration) {
        this.declaration = declaration;
    }

    /**
     * Merges declarations, outermost class first: inner ones add entities and config files, and override the
     * settings they set to non-default values. Config.json locations are resolved through each declaring class's
     * class loader.
     *
     * @param declarations the declarations (an annotation of another framework as a synthesized instance)
     * @param declaringClasses the class each declaration sits on, in the same order
     * @param annotationName how errors name the annotation, e.g. {@code "@SpringServiceBusEmulator"}
     * @return the merged declaration
     * @throws IllegalArgumentException naming the attribute, the value and the declaring class, for a declaration
     *     the service would reject, or naming the file and the JSON path for a Config.json that cannot be loaded
     */
    public static DeclaredNamespace merge(
            List<ServiceBusEmulator> declarations, List<Class<?>> declaringClasses, String annotationName) {
        Objects.requireNonNull(declarations, "declarations");
        Objects.requireNonNull(declaringClasses, "declaringClasses");
        Objects.requireNonNull(annotationName, "annotationName");
        if (declarations.size() != declaringClasses.size()) {
            throw new IllegalArgumentException(declarations.size() + " declarations but " + declaringClasses.size()
                    + " declaring classes: give the class each declaration sits on");
        }
        List<Declared> declared = new ArrayList<>();
        for (int i = 0; i < declarations.size(); i++) {
            declared.add(new Declared(declarations.get(i), declaringClasses.get(i), annotationName));
        }
        try {
            return new DeclaredNamespace(EmulatorDeclaration.merge(
                    declared,
                    (location, on) ->
                            EmulatorConfig.load(location, on.getClassLoader()).topology()));
        } catch (RuntimeException e) {
            throw asIllegalArgument(e);
        }
    }

    /**
     * A fresh namespace with the declared settings and entities, no messages, its clock at the declared start.
     *
     * @throws IllegalArgumentException when the emulator rejects a declared entity (the message names it)
     */
    public Namespace start() {
        try {
            return declaration.start();
        } catch (RuntimeException e) {
            throw asIllegalArgument(e);
        }
    }

    /**
     * The declared namespace's settings: clock, tier, expiry mode, journal capacity and the entities (the annotated
     * ones and those of the Config.json files). {@link #start()} starts them.
     */
    public NamespaceSettings namespaceSettings() {
        return declaration.namespace();
    }

    /** The settings of the declared namespace's endpoint (the declared {@link ServiceBusEmulator#tlsPort()}). */
    public EndpointSettings endpointSettings() {
        return declaration.endpoint();
    }

    /**
     * The declared {@link ServiceBusEmulator#tlsPort()}: the port for AMQP over TLS on the namespace's endpoint
     * (0 for an ephemeral one), or -1 for none.
     */
    public int tlsPort() {
        return declaration.tlsPort();
    }

    private static RuntimeException asIllegalArgument(RuntimeException e) {
        return e instanceof IllegalArgumentException ? e : new IllegalArgumentException(e.getMessage(), e);
    }
}
