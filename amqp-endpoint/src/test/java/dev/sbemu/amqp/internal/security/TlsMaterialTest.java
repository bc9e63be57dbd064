package dev.sbemu.amqp.internal.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.InetAddress;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;
import org.apache.qpid.proton.engine.SslDomain;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TlsMaterialTest {

    @Test
    @DisplayName("JMS-30 the certificate names localhost, 127.0.0.1 and ::1, is self-signed with an EC P-256 key, "
            + "and the trust store file is deleted on close")
    void certificate() throws Exception {
        long started = System.nanoTime();
        TlsMaterial tls = TlsMaterial.create(InetAddress.getLoopbackAddress());
        long millis = (System.nanoTime() - started) / 1_000_000;
        X509Certificate certificate = tls.certificate();
        certificate.checkValidity();
        certificate.verify(certificate.getPublicKey());
        assertEquals("EC", certificate.getPublicKey().getAlgorithm());
        List<String> names = certificate.getSubjectAlternativeNames().stream()
                .map(n -> String.valueOf(n.get(1)))
                .toList();
        assertTrue(names.contains("localhost") && names.contains("127.0.0.1"), "names: " + names);
        assertTrue(names.stream().anyMatch(n -> n.startsWith("0:0:0:0:0:0:0:1")), "::1 in " + names);
        assertEquals(-1, certificate.getBasicConstraints(), "not a CA");
        Path store = tls.trustStore();
        assertTrue(Files.exists(store));
        tls.close();
        assertTrue(Files.notExists(store), "deleted on close");
        long again = System.nanoTime();
        TlsMaterial.create(InetAddress.getLoopbackAddress()).close();
        System.out.println("TlsMaterial.create took " + millis + " ms the first time in the JVM, then "
                + (System.nanoTime() - again) / 1_000_000 + " ms");
    }

    @Test
    @DisplayName("JMS-30 without BouncyCastle on the class path, asking for TLS fails naming the dependency")
    void withoutBouncyCastle() throws Exception {
        URL classes = TlsMaterial.class.getProtectionDomain().getCodeSource().getLocation();
        URL proton = SslDomain.class.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader loader =
                new URLClassLoader(new URL[] {classes, proton}, ClassLoader.getPlatformClassLoader())) {
            Class<?> isolated = loader.loadClass(TlsMaterial.class.getName());
            Method create = isolated.getDeclaredMethod("create", InetAddress.class);
            create.setAccessible(true);
            InvocationTargetException e = assertThrows(
                    InvocationTargetException.class, () -> create.invoke(null, InetAddress.getLoopbackAddress()));
            IllegalStateException missing = assertInstanceOf(IllegalStateException.class, e.getCause());
            assertTrue(missing.getMessage().contains("org.bouncycastle:bcpkix-jdk18on"), missing.getMessage());
        }
    }
}
