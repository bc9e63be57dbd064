/**
 * The implementation behind the {@code wire} module's public types ({@code admin}: the management REST API).
 *
 * <p><b>Internal API</b> of the {@code wire} module: its types are public only so that the module's own packages
 * can reach them. Nothing outside {@code wire} may use them (the architecture test fails on such a use), and they
 * change without notice in any release.
 */
package dev.sbemu.wire.internal;
