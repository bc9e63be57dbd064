/**
 * The implementations behind the Azure SDK client types that {@code dev.sbemu.sdk.EmulatorClients} hands out, and
 * the one place that instantiates the SDK's final classes ({@code SdkInstances}).
 *
 * <p><b>Internal API</b> of {@code sdk-adapter}: its types are public only so that the module's own packages can
 * reach them. Nothing outside {@code sdk-adapter} may use them (the architecture test fails on such a use), and
 * they change without notice in any release.
 */
package dev.sbemu.sdk.internal;
