/**
 * The emulated Service Bus broker: namespace, entities, messages and the virtual clock.
 *
 * <p>What the emulator does is specified in {@code docs/spec/} of the sbemu repository, the behaviour
 * contract: the rule ids these sources and their tests cite (such as {@code TTL-9}) are defined there.
 */
package dev.sbemu.core;
