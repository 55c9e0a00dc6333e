package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.autocomplete.server.config.ServerSettings;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code server.tls.certificate} and {@code server.tls.private-key} (PEM) make the server speak HTTPS. */
class TlsTest {

    @TempDir
    Path temp;

    @ParameterizedTest
    @ValueSource(strings = {"PKCS#8", "PKCS#1"})
    void pem_certificate_and_key_from_the_settings_serve_https(String keyFormat) throws Exception {
        // A self-signed certificate made with the JDK's keytool, written out as PEM files.
        Path store = temp.resolve("server.p12");
        String keytool =
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        Process process = new ProcessBuilder(
                        keytool,
                        "-genkeypair",
                        "-alias",
                        "server",
                        "-keyalg",
                        "RSA",
                        "-keysize",
                        "2048",
                        "-validity",
                        "2",
                        "-dname",
                        "CN=127.0.0.1",
                        "-ext",
                        "san=ip:127.0.0.1",
                        "-storetype",
                        "PKCS12",
                        "-keystore",
                        store.toString(),
                        "-storepass",
                        "changeit")
                .redirectErrorStream(true)
                .start();
        assertEquals(0, process.waitFor(), new String(process.getInputStream().readAllBytes()));
        KeyStore keyStore = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keyStore.load(in, "changeit".toCharArray());
        }
        Certificate certificate = keyStore.getCertificate("server");
        Path certificatePem = Files.writeString(temp.resolve("cert.pem"), pem("CERTIFICATE", certificate.getEncoded()));
        byte[] pkcs8 = keyStore.getKey("server", "changeit".toCharArray()).getEncoded();
        // `openssl req` writes PKCS#8 (BEGIN PRIVATE KEY); older tools and `openssl genrsa -traditional` write
        // PKCS#1 (BEGIN RSA PRIVATE KEY), the RSAPrivateKey that PKCS#8 wraps in an octet string.
        Path keyPem = Files.writeString(
                temp.resolve("key.pem"),
                keyFormat.equals("PKCS#8") ? pem("PRIVATE KEY", pkcs8) : pem("RSA PRIVATE KEY", pkcs1(pkcs8)));

        Path tenants = TestTenants.copyOfDemo(temp);
        String key = TestTenants.createKey(tenants, "demo", "public", "travel");
        ServerSettings settings = ServerSettings.read(
                        null,
                        Map.of(
                                "AUTOCOMPLETE_SERVER_TLS_CERTIFICATE", certificatePem.toString(),
                                "AUTOCOMPLETE_SERVER_TLS_PRIVATE_KEY", keyPem.toString()))
                .with("127.0.0.1", 0, tenants)
                .withManagement("127.0.0.1", 0);
        try (AutocompleteServer server = AutocompleteServer.start(settings)) {
            // Plain HTTP to the TLS port: the connection is closed without an answer (docs/deployment.md, TLS).
            try (Socket plain = new Socket("127.0.0.1", server.port())) {
                plain.setSoTimeout(10_000);
                plain.getOutputStream()
                        .write("GET /ready HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                byte[] answer;
                try {
                    answer = plain.getInputStream().readAllBytes();
                } catch (SocketException reset) {
                    answer = new byte[0];
                }
                assertFalse(new String(answer, StandardCharsets.ISO_8859_1).startsWith("HTTP/"), "no HTTP answer");
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(keyStore);
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(null, trust.getTrustManagers(), null);
            HttpClient client = HttpClient.newBuilder().sslContext(tls).build();
            HttpResponse<String> response = client.send(
                    HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + "/api/suggest"))
                            .header("Authorization", "Bearer " + key)
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(
                                    envelope("").toString()))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), response.body());
            // The management listener stays plain HTTP: it is for loopback or a private network.
            assertEquals(
                    200,
                    ApiClient.management(server.managementPort())
                            .get("/observe/health/live")
                            .status());
        }
    }

    /**
     * The RSAPrivateKey inside an RSA key's PKCS#8 encoding: SEQUENCE { version, AlgorithmIdentifier, OCTET STRING
     * { RSAPrivateKey } }, each with a long-form length as a 2048-bit key has them.
     */
    private static byte[] pkcs1(byte[] pkcs8) {
        int octets = 4 + 3 + 2 + (pkcs8[8] & 0xff); // outer header, INTEGER 0, then the AlgorithmIdentifier
        assertEquals(0x04, pkcs8[octets] & 0xff, "an OCTET STRING after the algorithm");
        int lengthBytes = pkcs8[octets + 1] & 0x7f;
        return Arrays.copyOfRange(pkcs8, octets + 2 + lengthBytes, pkcs8.length);
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der) + "\n-----END " + type + "-----\n";
    }
}
