package dev.sbemu.core.config;

/** Where an entity was declared, so that an error can point at the offending attribute or JSON key. */
@FunctionalInterface
public interface Origin {

    /** An entity built in code: errors name the property only. */
    Origin UNDECLARED = property -> property == null ? "(built in code)" : property;

    /**
     * Where a property of the entity is declared, e.g. {@code UserConfig.Namespaces[0].Queues[2].Properties.LockDuration
     * in /x/Config.json} or {@code @Queue(name = "orders").lockDuration in @ServiceBusEmulator on OrderTest}.
     *
     * @param property the core's property name ({@code lockDuration}, {@code queue name}, ...), or null for the entity
     */
    String describe(String property);
}
