/**
 * The emulated Service Bus broker: namespace, entities, messages and the virtual clock.
 */
package dev.sbemu.core;
