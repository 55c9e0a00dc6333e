package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.autocomplete.server.config.ServerSettings;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code server.tls.certificate} and {@code server.tls.private-key} (PEM) make the server speak HTTPS. */
class TlsTest {

    @TempDir
    Path temp;

    @Test
    void pem_certificate_and_key_from_the_settings_serve_https() throws Exception {
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
        Path keyPem = Files.writeString(
                temp.resolve("key.pem"),
                pem(
                        "PRIVATE KEY",
                        keyStore.getKey("server", "changeit".toCharArray()).getEncoded()));

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

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der) + "\n-----END " + type + "-----\n";
    }
}
