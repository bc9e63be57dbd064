/**
 * Spring Boot test support: {@link dev.sbemu.spring.SpringServiceBusEmulator} gives a Spring test's
 * application context an emulated Service Bus that Spring Cloud Azure's auto-configuration connects to.
 */
package dev.sbemu.spring;
