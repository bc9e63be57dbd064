package dev.sbemu.junit.internal;

/** Where an entity was declared, so that an error can point at the offending attribute or JSON key. */
public interface Origin {

    /**
     * Where a property of the entity is declared, e.g. {@code UserConfig.Namespaces[0].Queues[2].Properties.LockDuration
     * in /x/Config.json} or {@code @Queue(name = "orders").lockDuration in @ServiceBusEmulator on OrderTest}.
     *
     * @param property the core's property name ({@code lockDuration}, {@code queue name}, ...), or null for the entity
     */
    String describe(String property);
}
