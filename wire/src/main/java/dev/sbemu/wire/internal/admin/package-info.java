/**
 * The management REST API behind {@code dev.sbemu.wire.ManagementHandler} and {@code
 * dev.sbemu.wire.InProcessAdministration}: the Service Bus management protocol (Atom XML entity descriptions over
 * REST) answered from an emulated {@code Namespace}, and an azure-core {@code HttpClient} that carries it in process.
 *
 * <p><b>Internal API</b> of the {@code wire} module: its types are public only so that the module's own packages
 * can reach them. Nothing outside {@code wire} may use them (the architecture test fails on such a use), and they
 * change without notice in any release.
 */
package dev.sbemu.wire.internal.admin;
