/**
 * Loading the topology file ({@code Config.json}) of Microsoft's Service Bus emulator into an emulated namespace,
 * with or without JUnit: {@link dev.sbemu.junit.config.EmulatorConfig}.
 *
 * <p>What the emulator does is specified in {@code docs/spec.md} of the sbemu repository, the behaviour
 * contract: the rule ids these sources and their tests cite (such as {@code TTL-9}) are defined there.
 */
package dev.sbemu.junit.config;
