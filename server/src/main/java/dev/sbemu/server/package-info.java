/**
 * The emulator as a standalone server: {@code java -jar sbemu-server.jar [options]} serves one emulated namespace
 * over AMQP (port 5672) and HTTP (port 5300: the management REST API, {@code /health}, the control API under
 * {@code /__admin/}) with the defaults of Microsoft's Service Bus emulator, so that docker-compose files,
 * Testcontainers set-ups and connection strings written for that emulator work unchanged. {@link
 * dev.sbemu.server.Main} is the entry point; {@link dev.sbemu.server.CommandLineOptions} lists the options.
 */
package dev.sbemu.server;
