/**
 * What the in-process clients (sdk-adapter) and the AMQP endpoint share, so that both ways in behave alike: the
 * wire mapping of core messages and rules to and from AMQP as Service Bus puts them on the wire ({@link
 * dev.sbemu.wire.AmqpMessages}, {@link dev.sbemu.wire.AmqpRules}, {@link dev.sbemu.wire.AmqpConditions}), the
 * management REST API ({@link dev.sbemu.wire.ManagementHandler}, {@link dev.sbemu.wire.InProcessAdministration}),
 * and the hook by which an endpoint tells the in-process adapter that it runs ({@link
 * dev.sbemu.wire.EndpointObserver}). Public only so that the modules use one implementation; not a user API and
 * not stable. Depends on emulator-core and the Service Bus SDK only (no Mockito, no Byte Buddy).
 */
package dev.sbemu.wire;
