/**
 * How an administration client that the application builds itself reaches an emulated namespace in process: the
 * weaving of azure-core's {@code HttpClient.createDefault} that routes a running endpoint's requests to the
 * management REST API of the {@code wire} module (spec ADM-1).
 *
 * <p><b>Internal API</b> of {@code sdk-adapter}: its types are public only so that the module's own packages can
 * reach them. Nothing outside {@code sdk-adapter} may use them (the architecture test fails on such a use), and
 * they change without notice in any release.
 */
package dev.sbemu.sdk.internal.admin;
