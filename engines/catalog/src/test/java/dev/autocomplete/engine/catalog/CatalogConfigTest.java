package dev.autocomplete.engine.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.autocomplete.spi.ConfigTree;
import dev.autocomplete.spi.EngineConfigException;
import dev.autocomplete.spi.EngineContext;

/** Config errors of the catalog engine name the full key, so the server can point at the line. */
class CatalogConfigTest {

    @TempDir
    Path tenant;

    private EngineConfigException refused(Map<String, Object> config) {
        EngineContext context = new EngineContext("t", "p", "en", tenant, ConfigTree.of(config));
        return assertThrows(EngineConfigException.class, () -> new CatalogEngineFactory().create(context));
    }

    private static Map<String, Object> intentWithParam(Map<String, Object> param) {
        return Map.of("intents", List.of(Map.of("name", "buy", "phrases", List.of("Buy"), "params", List.of(param))));
    }

    @Test
    void an_unknown_key_is_named() {
        EngineConfigException e = refused(Map.of("promt", "Buy", "intents", List.of()));
        assertEquals("promt", e.key());
        assertTrue(e.getMessage().contains("not a known key"), e.getMessage());
    }

    @Test
    void a_missing_intent_list_is_named() {
        assertEquals("intents", refused(Map.of()).key());
    }

    @Test
    void a_param_naming_no_catalog_is_named_with_its_full_path() {
        EngineConfigException e = refused(intentWithParam(Map.of("type", "item", "catalog", "nowhere")));
        assertEquals("intents[0].params[0].catalog", e.key());
    }

    @Test
    void a_type_the_client_cannot_mint_into_a_token_is_refused() {
        EngineConfigException e = refused(intentWithParam(Map.of("type", "item-kind", "options", List.of("a"))));
        assertEquals("intents[0].params[0].type", e.key());
    }

    @Test
    void a_condition_on_a_later_or_unknown_param_is_refused() {
        EngineConfigException e = refused(intentWithParam(Map.of("type", "item", "options", List.of("a"),
                "when", Map.of("colour", "red"))));
        assertEquals("intents[0].params[0].when.colour", e.key());
    }

    @Test
    void a_data_file_outside_the_tenant_directory_is_refused() {
        EngineConfigException e = refused(Map.of("catalogs", Map.of("c", Map.of("file", "../../etc/passwd")),
                "intents", List.of()));
        assertEquals("catalogs.c.file", e.key());
    }

    @Test
    void a_csv_without_a_text_column_is_refused_with_the_file_key() throws Exception {
        Files.createDirectories(tenant.resolve("data"));
        Files.writeString(tenant.resolve("data/c.csv"), "name,weight\nParis,3\n");
        EngineConfigException e = refused(Map.of("catalogs", Map.of("c", Map.of("file", "data/c.csv")),
                "intents", List.of()));
        assertEquals("catalogs.c.file", e.key());
        assertTrue(e.getMessage().contains("text"), e.getMessage());
    }

    @Test
    void a_csv_row_with_a_bad_weight_names_its_line() throws Exception {
        Files.createDirectories(tenant.resolve("data"));
        Files.writeString(tenant.resolve("data/c.csv"), "text,weight\nParis,3\nLyon,many\n");
        EngineConfigException e = refused(Map.of("catalogs", Map.of("c", Map.of("file", "data/c.csv")),
                "intents", List.of()));
        assertTrue(e.getMessage().contains("c.csv line 3"), e.getMessage());
    }
}
