/**
 * The JUnit extension's internals: declarations, namespaces per test, injection.
 *
 * <p><b>Internal API</b> of {@code junit5-extension}: its types are public only so that the module's own packages
 * can reach them. Nothing outside {@code junit5-extension} may use them (the architecture test fails on such a
 * use), and they change without notice in any release.
 */
package dev.sbemu.junit.internal;
