/**
 * The HTTP side: the front on the JDK's HTTP server, which listens on a hidden loopback port only the splice joins
 * ({@link dev.sbemu.amqp.internal.http.HttpFront}), the splice that joins HTTP connections of the AMQP and HTTP ports to
 * it ({@link dev.sbemu.amqp.internal.http.HttpSplice}), {@code /health}, the management REST API and the control API
 * under {@code /__admin/}.
 *
 * <p><b>Internal API</b> of {@code amqp-endpoint}: public only so that the module's own packages can reach it. Nothing
 * outside {@code amqp-endpoint} may use it (the architecture test fails on such a use), and it changes without notice.
 */
package dev.sbemu.amqp.internal.http;
