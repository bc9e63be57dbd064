/** Internals of the JUnit extension and the Config.json loader; not an API. */
package dev.sbemu.junit.internal;
