/**
 * An AMQP 1.0 endpoint for an emulated namespace: {@link dev.sbemu.amqp.ServiceBusEmulatorServer} listens on
 * 127.0.0.1 and speaks the dialect the Azure Service Bus SDKs use (CBS tokens on {@code $cbs}, entity links,
 * settlement outcomes, {@code $management} operations, transactions through the coordinator), so code that
 * builds its own clients with {@code new ServiceBusClientBuilder().connectionString(...)}, Spring Cloud Azure,
 * and SDKs in other languages reach the namespace unchanged. The behaviour contract is
 * {@code docs/spec/amqp.md} in the repository (rules AMQP-*); what the SDKs send and expect on the wire, with the
 * sources of each fact, is {@code docs/amqp.md}.
 *
 * <h2>Why proton-j and nothing else</h2>
 * The endpoint is built on proton-j's protocol engine (frames, links, deliveries, SASL), driven by one NIO
 * selector thread of our own. proton-j is already on every user's class path: the Azure SDK's
 * {@code azure-core-amqp} brings it and runs on it. A framework on top (vertx-proton, Qpid's broker) would
 * bring Netty or another stack in versions that need not agree with the SDK's, onto the user's test class
 * path; the engine alone needs nothing more.
 *
 * <h2>Time</h2>
 * The namespace's virtual clock rules the broker: TTLs, locks, scheduling. The SDK's own timers run on the
 * wall clock: its try-timeout, the max wait of a receive, its automatic lock renewal (which renews on its own
 * wall-clock schedule; a test that advances the virtual clock past a lock's expiry expires the lock whatever
 * the SDK had planned). A session accept waits, on the wall clock, up to the client's timeout.
 *
 * <h2>Threads</h2>
 * One network thread per server, plus worker threads that wait in the broker on a link's behalf (a receive
 * waiting for messages, a session accept); all end when the server closes.
 */
package dev.sbemu.amqp;
