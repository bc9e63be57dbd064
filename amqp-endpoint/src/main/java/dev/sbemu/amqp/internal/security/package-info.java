/**
 * Who may connect: SASL ANONYMOUS and PLAIN ({@link dev.sbemu.amqp.internal.security.SaslAuthenticator}, with the
 * JMS connection string workaround), the one check of shared access signature tokens and keys used by {@code $cbs},
 * SASL PLAIN and HTTP ({@link dev.sbemu.amqp.internal.security.Credentials}), and the TLS port's material.
 *
 * <p><b>Internal API</b> of {@code amqp-endpoint}: public only so that the module's own packages can reach it. Nothing
 * outside {@code amqp-endpoint} may use it (the architecture test fails on such a use), and it changes without notice.
 */
package dev.sbemu.amqp.internal.security;
