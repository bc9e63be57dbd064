package dev.sbemu.core;

/** Whether a {@link VirtualClock} stands still or follows the wall clock (SPEC CLK-1, CLK-6). */
public enum ClockMode {
    /**
     * The clock moves only when the test calls {@link VirtualClock#advance} or {@link VirtualClock#advanceTo}: for
     * tests that step time. The default.
     */
    FROZEN,
    /**
     * The clock follows the wall clock from where it stands (rate 1), and every timer falls due as real time
     * passes; {@code advance} still jumps ahead. For what runs on the wall clock and cannot move the clock: the
     * SDKs' lock renewal over AMQP, tests of other languages, an application's own timers.
     */
    RUNNING
}
