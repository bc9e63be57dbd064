/**
 * JMH benchmarks of the emulator core and the SDK adapter.
 */
package dev.sbemu.benchmarks;
