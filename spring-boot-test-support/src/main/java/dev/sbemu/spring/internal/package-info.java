/**
 * The Spring test support's internals: the context customizer and the test execution listener.
 *
 * <p><b>Internal API</b> of {@code spring-boot-test-support}: its types are public only so that the module's own
 * packages can reach them. Nothing outside {@code spring-boot-test-support} may use them (the architecture test
 * fails on such a use), and they change without notice in any release.
 */
package dev.sbemu.spring.internal;
