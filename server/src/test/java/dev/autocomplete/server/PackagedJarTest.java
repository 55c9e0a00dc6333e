package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The single runnable JAR the build packages: copied alone into an empty directory beside a tenants folder,
 * {@code java -jar autocomplete.jar serve --tenants tenants} serves suggestions, reads
 * {@code autocomplete.yaml} and environment overrides, and its {@code keys} command works too.
 */
class PackagedJarTest {

    @TempDir
    Path temp;

    @Test
    void the_single_jar_serves_suggestions_from_a_directory_holding_only_the_jar_and_tenants() throws Exception {
        Path jar = Files.copy(PackagedServer.serverJar(), temp.resolve("autocomplete.jar"));
        TestTenants.copyOfDemo(temp);
        try (PackagedServer server = PackagedServer.start(
                temp, jar, Map.of(), "serve", "--tenants", "tenants", "--port", "0", "--management-port", "0")) {
            String url = server.awaitUrl();
            ApiClient api = new ApiClient(server.port(url));
            ApiClient.Reply reply = api.suggest(server.demoKey("travel"), envelope("Book a flight from Par"));
            assertEquals(200, reply.status(), reply.raw());
            assertTrue(reply.options("origin").contains("Paris"), reply.raw());
            // The bundled files come from inside the JAR, each with an ETag a browser revalidates with.
            ApiClient.Reply script = api.get("/assets/demo.js");
            assertEquals(200, script.status());
            String etag = script.header("ETag");
            assertTrue(etag != null && !etag.isEmpty(), script.headers().toString());
            ApiClient.Reply unchanged =
                    api.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(api.base() + "/assets/demo.js"))
                            .header("If-None-Match", etag)
                            .build());
            assertEquals(304, unchanged.status());
            assertEquals("", unchanged.raw());
        }
        try (var files = Files.list(temp)) {
            // data/ holds the token signing secret the first start generated, beside the tenants.
            assertEquals(
                    List.of("autocomplete.jar", "data", "tenants"),
                    files.map(p -> p.getFileName().toString()).sorted().toList());
        }
    }

    @Test
    void the_single_jar_keeps_the_notices_and_licences_of_the_libraries_it_bundles() throws Exception {
        // Each library ships META-INF/NOTICE(.txt) and LICENSE(.txt) under the same names: all of them are merged,
        // not only the first one found (PostgreSQL's BSD licence and the Checker Framework's MIT licence among them).
        try (JarFile jar = new JarFile(PackagedServer.serverJar().toFile())) {
            String notices = entry(jar, "META-INF/NOTICE");
            for (String library : List.of("Project Helidon", "Jackson JSON processor", "Apache Commons CSV")) {
                assertTrue(notices.contains(library), library + " is missing from META-INF/NOTICE");
            }
            assertTrue(entry(jar, "META-INF/LICENSE").contains("PostgreSQL Global Development Group"));
            assertTrue(entry(jar, "META-INF/LICENSE.txt").contains("Checker Framework"));
        }
    }

    private static String entry(JarFile jar, String name) throws IOException {
        var entry = jar.getJarEntry(name);
        assertTrue(entry != null, name + " is missing from the JAR");
        try (var in = jar.getInputStream(entry)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void settings_come_from_autocomplete_yaml_and_environment_variables_override_them() throws Exception {
        Path jar = Files.copy(PackagedServer.serverJar(), temp.resolve("autocomplete.jar"));
        TestTenants.copyOfDemo(temp);
        Files.move(temp.resolve("tenants"), temp.resolve("my-tenants"));
        Files.writeString(temp.resolve("autocomplete.yaml"), """
                server:
                  host: 127.0.0.1
                  port: 1
                tenants:
                  dir: my-tenants
                """);
        try (PackagedServer server = PackagedServer.start(
                temp, jar, Map.of("AUTOCOMPLETE_SERVER_PORT", "0", "AUTOCOMPLETE_MANAGEMENT_PORT", "0"), "serve")) {
            String url = server.awaitUrl();
            assertTrue(server.output().contains("from my-tenants on"), server.output());
            ApiClient.Reply reply = new ApiClient(server.port(url)).suggest(server.demoKey("travel"), envelope(""));
            assertEquals(200, reply.status(), reply.raw());
        }
    }
}
