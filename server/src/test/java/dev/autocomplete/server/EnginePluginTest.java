package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.autocomplete.server.wiring.AutocompleteServer;
import dev.autocomplete.server.tenant.Problem;

/**
 * An engine JAR built by another module, dropped into a tenant's {@code engines/}, serves over HTTP through
 * the tenant's own class loader; a broken tenant is reported while the others serve.
 */
class EnginePluginTest {

    private static final String AGENDA_YAML = """
            display_name: Agenda
            products:
              - id: 2a4b6c8d-1e3f-4a5b-9c7d-0e1f2a3b4c5d
                slug: reminders
                engine: date
                config:
                  prompt: Remind me
                  time_zone: Europe/Paris
            """;

    @TempDir
    Path temp;

    static Path dateEngineJar() {
        String path = System.getProperty("autocomplete.test.dateEngineJar");
        assertTrue(path != null && path.endsWith(".jar") && Files.isRegularFile(Path.of(path)),
                "the date engine JAR must be built first; run the tests with 'mvn verify' (got " + path + ")");
        return Path.of(path);
    }

    @Test
    void the_date_engine_is_not_on_the_server_class_path() {
        assertThrows(ClassNotFoundException.class,
                () -> Class.forName("dev.autocomplete.engine.date.DateEngineFactory"));
    }

    @Test
    void an_engine_jar_in_a_tenant_directory_serves_suggestions_over_http() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        Path agenda = Files.createDirectories(tenants.resolve("agenda/engines"));
        Files.copy(dateEngineJar(), agenda.resolve("engine-date.jar"));
        Files.writeString(tenants.resolve("agenda/tenant.yaml"), AGENDA_YAML);
        String key = TestTenants.createKey(tenants, "agenda", "public", "reminders");

        try (AutocompleteServer server = TestServers.start(tenants)) {
            assertEquals(java.util.List.of(), server.tenants().problems());
            ApiClient api = new ApiClient(server.port());
            ApiClient.Reply empty = api.suggest(key, envelope(""));
            assertEquals(200, empty.status(), empty.raw());
            assertEquals("Remind me", empty.data().path("suggestions").get(0).path("text").asText());
            assertEquals("date", empty.suggestionTypes().get(1));

            ApiClient.Reply typed = api.suggest(key, envelope("Remind me tomorrow"));
            assertEquals(200, typed.status(), typed.raw());
            assertTrue(typed.data().path("is_ready").asBoolean(), typed.raw());

            ApiClient.Reply partial = api.suggest(key, envelope("Remind me on tomo"));
            assertTrue(partial.options("date").getFirst().startsWith("Tomorrow"), partial.raw());

            // The built-in engine still serves the other tenant in the same process.
            String travelKey = TestTenants.createKey(tenants, "demo", "public", "travel");
            Thread.sleep(1200);
            assertEquals(200, api.suggest(travelKey, envelope("")).status());
        }
    }

    @Test
    void a_tenant_with_a_broken_tenant_yaml_is_reported_and_the_others_serve() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        Files.createDirectories(tenants.resolve("broken"));
        Files.writeString(tenants.resolve("broken/tenant.yaml"), """
                display_name: Broken
                products:
                  - id: 3b5c7d9e-2f4a-4b6c-8d0e-1f2a3b4c5d6e
                    slug: shop
                    engine: catalog
                    config:
                      intents:
                        - name: buy
                          phrases: [Buy]
                          params:
                            - type: item
                              catalog: nowhere
                """);
        String travelKey = TestTenants.createKey(tenants, "demo", "public", "travel");
        try (AutocompleteServer server = TestServers.start(tenants)) {
            assertEquals(1, server.tenants().problems().size());
            Problem problem = server.tenants().problems().getFirst();
            assertTrue(problem.file().endsWith("broken/tenant.yaml"), problem.toString());
            assertEquals(12, problem.line(), problem.toString());
            assertTrue(problem.message().contains("catalog"), problem.toString());
            assertFalse(server.tenants().tenant("broken").isPresent());

            JsonNode ok = new ApiClient(server.port()).suggest(travelKey, envelope("")).json();
            assertEquals("Book a flight from", ok.path("data").path("suggestions").get(0).path("text").asText());
        }
    }

    @Test
    void a_tenant_whose_jar_has_no_engine_factory_is_reported_with_the_jars_it_searched() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        Path engines = Files.createDirectories(tenants.resolve("empty/engines"));
        try (var zip = new java.util.zip.ZipOutputStream(Files.newOutputStream(engines.resolve("nothing.jar")))) {
            zip.putNextEntry(new java.util.zip.ZipEntry("README.txt"));
            zip.write("no engine here".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        Files.writeString(tenants.resolve("empty/tenant.yaml"), AGENDA_YAML);
        try (AutocompleteServer server = TestServers.start(tenants)) {
            String messages = server.tenants().problems().toString();
            assertTrue(messages.contains("nothing.jar"), messages);
            assertTrue(server.tenants().tenant("demo").isPresent());
        }
    }
}
