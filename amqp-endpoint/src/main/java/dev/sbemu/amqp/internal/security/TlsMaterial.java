package dev.sbemu.amqp.internal.security;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.qpid.proton.engine.SslDomain;

/**
 * The TLS port's key and certificate, made when the endpoint starts (JMS-30): an EC P-256 key (a few milliseconds)
 * and a self-signed certificate for {@code localhost}, {@code 127.0.0.1}, {@code ::1} and the bind address, valid
 * for a year; the server's {@link SSLContext}, one for clients that trusts this certificate only, and a PKCS12 trust
 * store file written on first use and deleted on {@link #close}. The certificate is built with BouncyCastle, an
 * optional dependency: without it, {@link #create} fails with a message that names it.
 */
public final class TlsMaterial implements AutoCloseable {
    /** The trust store file's password (it holds a public certificate only). */
    public static final String TRUST_STORE_PASSWORD = "sbemu-trust";
    /** The Maven coordinates named when BouncyCastle is missing. */
    static final String BOUNCY_CASTLE = "org.bouncycastle:bcpkix-jdk18on";

    private static final char[] KEY_PASSWORD = "sbemu".toCharArray();

    private final X509Certificate certificate;
    private final SSLContext serverContext;
    private final SslDomain domain;
    private SSLContext clientContext;
    private Path trustStore;
    private boolean closed;

    private TlsMaterial(X509Certificate certificate, SSLContext serverContext) {
        this.certificate = certificate;
        this.serverContext = serverContext;
        SslDomain d = SslDomain.Factory.create();
        d.init(SslDomain.Mode.SERVER);
        d.setSslContext(serverContext);
        // the server asks for no client certificate (SslDomain's default for a server); the JDK's default protocols
        // and cipher suites (TLS 1.2 and 1.3) apply, anonymous suites being disabled by the JDK's security properties
        d.setPeerAuthentication(SslDomain.VerifyMode.ANONYMOUS_PEER);
        this.domain = d;
    }

    /**
     * Generates the key and the certificate for an endpoint bound to {@code bindAddress}.
     *
     * @throws IllegalStateException when BouncyCastle is not on the class path, naming the dependency to add
     */
    public static TlsMaterial create(InetAddress bindAddress) {
        try {
            Class.forName(
                    "org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder",
                    false,
                    TlsMaterial.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalStateException(
                    "The sbemu endpoint's TLS port needs BouncyCastle to make its certificate: " + "add "
                            + BOUNCY_CASTLE + " (test scope) to the class path, or do not ask for a TLS port",
                    e);
        }
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            KeyPair keys = generator.generateKeyPair();
            List<InetAddress> addresses =
                    new ArrayList<>(List.of(InetAddress.getByName("127.0.0.1"), InetAddress.getByName("::1")));
            if (!bindAddress.isAnyLocalAddress() && !addresses.contains(bindAddress)) {
                addresses.add(bindAddress);
            }
            List<String> names = new ArrayList<>(List.of("localhost"));
            X509Certificate certificate = SelfSignedCertificate.create(keys, names, addresses, Duration.ofDays(365));
            // an in-memory store for the key manager only: JKS, whose key protection is cheap (PKCS12's derives a key
            // with 10,000 PBKDF2 rounds per entry)
            KeyStore store = KeyStore.getInstance("JKS");
            store.load(null, null);
            store.setKeyEntry("sbemu", keys.getPrivate(), KEY_PASSWORD, new Certificate[] {certificate});
            KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keyManagers.init(store, KEY_PASSWORD);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keyManagers.getKeyManagers(), null, null);
            return new TlsMaterial(certificate, context);
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("Cannot make the sbemu endpoint's TLS certificate: " + e, e);
        }
    }

    /** The proton-j SSL domain of the TLS port's connections (server mode, this certificate). */
    public SslDomain domain() {
        return domain;
    }

    public X509Certificate certificate() {
        return certificate;
    }

    public SSLContext serverContext() {
        return serverContext;
    }

    private KeyStore trustStoreOf() throws GeneralSecurityException, IOException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setCertificateEntry("sbemu", certificate);
        return store;
    }

    /** An {@link SSLContext} for clients that trusts this certificate only. */
    public synchronized SSLContext clientContext() {
        if (clientContext == null) {
            try {
                TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                trust.init(trustStoreOf());
                SSLContext context = SSLContext.getInstance("TLS");
                context.init(null, trust.getTrustManagers(), null);
                clientContext = context;
            } catch (GeneralSecurityException | IOException e) {
                throw new IllegalStateException(
                        "Cannot make an SSLContext trusting the endpoint's certificate: " + e, e);
            }
        }
        return clientContext;
    }

    /**
     * A PKCS12 trust store holding this certificate (password {@link #TRUST_STORE_PASSWORD}), written to a temporary
     * file on the first call and deleted on {@link #close}.
     */
    public synchronized Path trustStore() {
        if (closed) {
            throw new IllegalStateException("The endpoint is closed: its trust store file was deleted");
        }
        if (trustStore == null) {
            try {
                Path file = Files.createTempFile("sbemu-trust-", ".p12");
                try (OutputStream out = Files.newOutputStream(file)) {
                    trustStoreOf().store(out, TRUST_STORE_PASSWORD.toCharArray());
                } catch (IOException | GeneralSecurityException | RuntimeException e) {
                    Files.deleteIfExists(file);
                    throw e;
                }
                file.toFile().deleteOnExit();
                trustStore = file;
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot write the endpoint's trust store: " + e.getMessage(), e);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("Cannot write the endpoint's trust store: " + e, e);
            }
        }
        return trustStore;
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (trustStore != null) {
            try {
                Files.deleteIfExists(trustStore);
            } catch (IOException ignored) {
                // a temporary file: deleteOnExit has it too
            }
            trustStore = null;
        }
    }
}
