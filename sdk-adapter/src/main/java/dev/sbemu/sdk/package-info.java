/**
 * Real Azure SDK client types backed by an emulated {@code Namespace}.
 */
package dev.sbemu.sdk;
