/**
 * {@code @ServiceBusEmulator}: an emulated Service Bus namespace per test, with injected SDK clients.
 *
 * <p>What the emulator does is specified in {@code docs/spec/} of the sbemu repository, the behaviour
 * contract: the rule ids these sources and their tests cite (such as {@code TTL-9}) are defined there.
 */
package dev.sbemu.junit;
