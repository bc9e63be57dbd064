/** Internals of the Spring test support; not an API. */
package dev.sbemu.spring.internal;
