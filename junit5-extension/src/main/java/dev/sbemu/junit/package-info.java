/**
 * {@code @ServiceBusEmulator}: an emulated Service Bus namespace per test, with injected SDK clients.
 */
package dev.sbemu.junit;
