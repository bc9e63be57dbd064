/** The Config.json reader (a lenient JSON parser of its own, so that no JSON library is forced on users) and the
 * topology applier behind {@link dev.sbemu.core.config}; not an API. */
package dev.sbemu.core.internal.config;
