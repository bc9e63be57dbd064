/** Internals of the JUnit extension; not an API. */
package dev.sbemu.junit.internal;
