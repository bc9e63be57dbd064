/**
 * The wire mapping shared by the in-process clients and the AMQP endpoint: core messages and rules to and
 * from AMQP as Service Bus puts them on the wire. Public only so that both ways in use one codec; not a
 * user API and not stable.
 */
package dev.sbemu.sdk.wire;
