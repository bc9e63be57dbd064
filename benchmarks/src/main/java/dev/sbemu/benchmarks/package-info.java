/**
 * JMH benchmarks of the emulator core, the SDK adapter and the AMQP endpoint.
 */
package dev.sbemu.benchmarks;
