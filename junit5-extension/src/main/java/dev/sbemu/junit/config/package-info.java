/**
 * Loading the topology file ({@code Config.json}) of Microsoft's Service Bus emulator into an emulated namespace,
 * with or without JUnit: {@link dev.sbemu.junit.config.EmulatorConfig}.
 */
package dev.sbemu.junit.config;
