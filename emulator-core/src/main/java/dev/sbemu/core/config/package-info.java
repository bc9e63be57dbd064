/**
 * Declared topologies: the topology file ({@code Config.json}) of Microsoft's Service Bus emulator, loaded into
 * an emulated namespace with {@link dev.sbemu.core.config.EmulatorConfig} (no JUnit needed), and the
 * {@link dev.sbemu.core.config.Topology} model that it, the JUnit annotations and the Spring annotations
 * declare entities with.
 *
 * <p>What the emulator does is specified in {@code docs/spec/} of the sbemu repository, the behaviour
 * contract: the rule ids these sources and their tests cite (such as {@code CFG-1}) are defined there.
 */
package dev.sbemu.core.config;
