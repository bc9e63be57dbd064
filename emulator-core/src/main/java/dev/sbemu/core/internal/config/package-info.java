/**
 * The Config.json reader (a lenient JSON parser of its own, so that no JSON library is forced on users) and the
 * topology applier behind {@link dev.sbemu.core.config}.
 *
 * <p><b>Internal API</b> of {@code emulator-core}: its types are public only so that the module's own packages can
 * reach them. Nothing outside {@code emulator-core} may use them (the architecture test fails on such a use), and
 * they change without notice in any release.
 */
package dev.sbemu.core.internal.config;
