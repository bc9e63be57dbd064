/**
 * The in-process management endpoint behind {@code dev.sbemu.sdk.AdministrationClients}: an azure-core {@code
 * HttpClient} that answers the Service Bus management protocol (Atom XML entity descriptions over REST) from an
 * emulated {@code Namespace}.
 *
 * <p><b>Internal API</b> of {@code sdk-adapter}: its types are public only so that the module's own packages can
 * reach them. Nothing outside {@code sdk-adapter} may use them (the architecture test fails on such a use), and
 * they change without notice in any release.
 */
package dev.sbemu.sdk.internal.admin;
