package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.autocomplete.server.tenant.Problem;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An engine JAR built by another module, dropped into a tenant's {@code engines/}, serves over HTTP through
 * the tenant's own class loader; a broken tenant is reported while the others serve.
 */
class EnginePluginTest {

    /** A product whose required {@code fruit} is served by the faulty engine's JAR, its {@code date} built in. */
    private static final String ORCHARD_YAML = """
            display_name: Orchard
            products:
              - id: 2a4b6c8d-1e3f-4a5b-9c7d-0e1f2a3b4c5d
                slug: picking
                prompt: Pick
                intents:
                  - name: pick
                    phrases: [Pick]
                    params:
                      - type: fruit
                        required: true
                        engine: faulty
                      - type: date
                        cues: [on]
                        engine: date
            """;

    @TempDir
    Path temp;

    @Test
    void the_fixture_engines_are_not_on_the_server_class_path() {
        // Else a tenant's JAR could be served by the server's own copy of its classes.
        for (String factory : List.of(
                "dev.autocomplete.engine.faulty.FaultyEngineFactory",
                "dev.autocomplete.engine.testlib.LibraryProbeFactory")) {
            assertThrows(ClassNotFoundException.class, () -> Class.forName(factory), factory);
        }
    }

    @Test
    void an_engine_jar_in_a_tenant_directory_serves_suggestions_over_http() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        Path orchard = Files.createDirectories(tenants.resolve("orchard/engines"));
        Files.copy(
                EngineIsolationTest.engineJar("autocomplete.test.faultyEngineJar"),
                orchard.resolve("engine-test-faulty.jar"));
        Files.writeString(tenants.resolve("orchard/tenant.yaml"), ORCHARD_YAML);
        String key = TestTenants.createKey(tenants, "orchard", "public", "picking");
        String travelKey = TestTenants.createKey(tenants, "demo", "public", "travel");

        try (AutocompleteServer server = TestServers.start(tenants)) {
            assertEquals(List.of(), server.tenants().problems());
            ApiClient api = new ApiClient(server.port());
            ApiClient.Reply empty = api.suggest(key, envelope(""));
            assertEquals(200, empty.status(), empty.raw());
            assertEquals(
                    "Pick", empty.data().path("suggestions").get(0).path("text").asText());
            assertEquals(List.of("placeholder", "fruit"), empty.suggestionTypes(), empty.raw());
            assertEquals(List.of("Apple", "Banana"), empty.options("fruit"), empty.raw());

            ApiClient.Reply partial = api.suggest(key, envelope("Pick Ban"));
            assertEquals(200, partial.status(), partial.raw());
            assertEquals(List.of("Banana"), partial.options("fruit"), partial.raw());
            assertFalse(partial.data().path("is_ready").asBoolean(), partial.raw());

            ApiClient.Reply typed = api.suggest(key, envelope("Pick Banana"));
            assertEquals(200, typed.status(), typed.raw());
            assertTrue(typed.data().path("is_ready").asBoolean(), typed.raw());
            // Once ready, the optional date of the built-in engine is offered beside the JAR's param.
            assertTrue(typed.suggestionTypes().contains("date"), typed.raw());

            // The built-in engines still serve the other tenant in the same process.
            ApiClient.Reply travel = api.suggest(travelKey, envelope("Book a flight from Par"));
            assertEquals(200, travel.status(), travel.raw());
            assertTrue(travel.options("origin").contains("Paris"), travel.raw());
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
            assertEquals(10, problem.line(), problem.toString());
            assertTrue(problem.message().contains("names no catalog under 'catalogs': 'nowhere'"), problem.toString());
            assertFalse(server.tenants().tenant("broken").isPresent());

            JsonNode ok = new ApiClient(server.port())
                    .suggest(travelKey, envelope(""))
                    .json();
            assertEquals(
                    "Book a flight from",
                    ok.path("data").path("suggestions").get(0).path("text").asText());
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
        Files.writeString(tenants.resolve("empty/tenant.yaml"), ORCHARD_YAML);
        try (AutocompleteServer server = TestServers.start(tenants)) {
            String messages = server.tenants().problems().toString();
            // A library, as any JAR without the service file; the param naming the engine is told of it.
            assertTrue(
                    messages.contains("names no engine 'faulty'")
                            && messages.contains("loaded as libraries, with no META-INF/services/"
                                    + "dev.autocomplete.spi.EngineFactory and no class naming"
                                    + " dev.autocomplete.spi.EngineFactory: nothing.jar"),
                    messages);
            assertTrue(server.tenants().tenant("demo").isPresent());
        }
    }
}
