/**
 * The in-process management endpoint behind {@code dev.sbemu.sdk.AdministrationClients}: an azure-core
 * {@code HttpClient} that answers the Service Bus management protocol (Atom XML entity descriptions over
 * REST) from an emulated {@code Namespace}. Internal: no compatibility promises.
 */
package dev.sbemu.sdk.internal.admin;
