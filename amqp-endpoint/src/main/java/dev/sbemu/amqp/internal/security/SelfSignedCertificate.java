package dev.sbemu.amqp.internal.security;

import java.math.BigInteger;
import java.net.InetAddress;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The one class that touches BouncyCastle ({@code org.bouncycastle:bcpkix-jdk18on}, an optional dependency of the
 * endpoint): it builds the TLS port's self-signed certificate. {@link TlsMaterial} loads it only when TLS is asked for
 * and BouncyCastle is on the class path. The key and the signature are the JDK's own (no BouncyCastle provider is
 * registered); BouncyCastle only writes the certificate's structure.
 */
final class SelfSignedCertificate {
    private SelfSignedCertificate() {}

    /**
     * A certificate for {@code keys}, signed with its own private key (SHA256withECDSA), valid from a minute ago for
     * {@code validity}, with the subject alternative names {@code dnsNames} and {@code addresses}, usable for a TLS
     * server only (not a CA).
     */
    static X509Certificate create(KeyPair keys, List<String> dnsNames, List<InetAddress> addresses, Duration validity)
            throws GeneralSecurityException {
        X500Name name = new X500Name("CN=sbemu endpoint,O=sbemu");
        long now = System.currentTimeMillis();
        BigInteger serial = new BigInteger(64, new SecureRandom()).setBit(63);
        X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                name, serial, new Date(now - 60_000), new Date(now + validity.toMillis()), name, keys.getPublic());
        List<GeneralName> sans = new ArrayList<>();
        for (String dns : dnsNames) {
            sans.add(new GeneralName(GeneralName.dNSName, dns));
        }
        for (InetAddress address : addresses) {
            sans.add(new GeneralName(GeneralName.iPAddress, address.getHostAddress()));
        }
        try {
            builder.addExtension(
                    Extension.subjectAlternativeName, false, new GeneralNames(sans.toArray(new GeneralName[0])));
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
            builder.addExtension(
                    Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
            return new JcaX509CertificateConverter()
                    .getCertificate(
                            builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
        } catch (CertIOException | OperatorCreationException e) {
            throw new GeneralSecurityException("Cannot build the TLS port's certificate: " + e.getMessage(), e);
        }
    }
}
