package dev.autocomplete.server.catalogs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.spi.EngineConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Config errors of the catalog engine name the full key in tenant.yaml, so the server can point at the line. */
class CatalogConfigTest {

    private static final String PARAM = "products[0].intents[0].params[0]";

    @TempDir
    Path tenant;

    private EngineConfigException refused(Map<String, ?> catalogs, Object... typesAndConfigs) {
        return assertThrows(
                EngineConfigException.class, () -> new TestTenant(tenant, catalogs).engine(typesAndConfigs));
    }

    private EngineConfigException refusedFile(String csv) throws Exception {
        Files.createDirectories(tenant.resolve("data"));
        Files.writeString(tenant.resolve("data/c.csv"), csv);
        return refused(Map.of("c", Map.of("file", "data/c.csv")), "item", Map.of("catalog", "c"));
    }

    @Test
    void an_unknown_key_of_a_param_is_named_with_its_full_path() {
        EngineConfigException e = refused(Map.of(), "item", Map.of("optoins", List.of("a")));
        assertEquals(PARAM + ".optoins", e.key());
        assertTrue(e.getMessage().contains("not a known key"), e.getMessage());
    }

    @Test
    void a_param_takes_exactly_one_of_catalog_and_options() {
        assertEquals(PARAM, refused(Map.of(), "item", Map.of()).key());
        assertEquals(
                PARAM + ".options",
                refused(
                                Map.of("c", Map.of("options", List.of("a"))),
                                "item",
                                Map.of("catalog", "c", "options", List.of("a")))
                        .key());
    }

    @Test
    void a_param_naming_no_catalog_is_named_with_the_catalogs_declared() {
        EngineConfigException e =
                refused(Map.of("cities", Map.of("options", List.of("Paris"))), "item", Map.of("catalog", "nowhere"));
        assertEquals(PARAM + ".catalog", e.key());
        assertTrue(e.getMessage().contains("'nowhere'") && e.getMessage().contains("cities"), e.getMessage());
    }

    @Test
    void an_unknown_key_of_a_catalog_is_named_under_catalogs() {
        EngineConfigException e = refused(Map.of("c", Map.of("fiel", "data/c.csv")), "item", Map.of("catalog", "c"));
        assertEquals("catalogs.c.fiel", e.key());
    }

    @Test
    void one_param_type_takes_one_option_list() throws Exception {
        Map<String, ?> catalogs = Map.of("a", Map.of("options", List.of("x")), "b", Map.of("options", List.of("y")));
        EngineConfigException e = refused(catalogs, "item", Map.of("catalog", "a"), "item", Map.of("catalog", "b"));
        assertEquals("products[0].intents[0].params[1].catalog", e.key());
        new TestTenant(tenant, catalogs).engine("item", Map.of("catalog", "a"), "item", Map.of("catalog", "a"));
    }

    @Test
    void a_data_file_outside_the_tenant_directory_is_refused() {
        EngineConfigException e =
                refused(Map.of("c", Map.of("file", "../../etc/passwd")), "item", Map.of("catalog", "c"));
        assertEquals("catalogs.c.file", e.key());
    }

    @Test
    void a_missing_data_file_is_not_found() {
        EngineConfigException e = refused(Map.of("c", Map.of("file", "data/x.csv")), "item", Map.of("catalog", "c"));
        assertEquals("catalogs.c.file", e.key());
        assertEquals("not found: data/x.csv", e.getMessage());
    }

    @Test
    void a_csv_without_a_text_column_is_refused_with_the_file_key() throws Exception {
        EngineConfigException e = refusedFile("name,weight\nParis,3\n");
        assertEquals("catalogs.c.file", e.key());
        assertTrue(e.getMessage().contains("'text' column"), e.getMessage());
    }

    @Test
    void a_csv_row_with_a_bad_weight_names_its_line() throws Exception {
        EngineConfigException e = refusedFile("text,weight\nParis,3\nLyon,many\n");
        assertEquals("data/c.csv line 3: weight is not a number", e.getMessage());
    }

    @Test
    void a_weight_that_is_not_finite_is_refused_in_a_csv_and_inline() throws Exception {
        for (String weight : List.of("NaN", "Infinity", "-Infinity", "1e999")) {
            EngineConfigException csv = refusedFile("text,weight\nParis,3\nLyon," + weight + "\n");
            assertEquals("data/c.csv line 3: weight is not a finite number", csv.getMessage(), weight);
        }
        EngineConfigException inline = refused(
                Map.of("c", Map.of("options", List.of(Map.of("text", "Paris", "weight", "NaN")))),
                "item",
                Map.of("catalog", "c"));
        assertTrue(inline.getMessage().contains("must be a finite number"), inline.getMessage());
    }

    @Test
    void a_code_alias_with_nothing_after_its_mark_is_refused_in_a_csv_and_inline() throws Exception {
        EngineConfigException csv = refusedFile("text,aliases\nParis,=PAR\nLyon,LYS|=\n");
        assertEquals("catalogs.c.file", csv.key());
        assertTrue(csv.getMessage().startsWith("data/c.csv line 3: alias '=' is a code"), csv.getMessage());
        EngineConfigException inline = refused(
                Map.of("c", Map.of("options", List.of(Map.of("text", "Paris", "aliases", List.of("=-"))))),
                "item",
                Map.of("catalog", "c"));
        assertTrue(inline.key().endsWith("aliases"), inline.key());
        assertTrue(inline.getMessage().contains("alias '=-' is a code"), inline.getMessage());
    }

    @Test
    void a_malformed_csv_is_described_without_java_class_names() throws Exception {
        EngineConfigException e = refusedFile("text,weight\nParis,3\n\"Lyon\"x,2\n");
        assertEquals("catalogs.c.file", e.key());
        assertTrue(e.getMessage().startsWith("cannot read data/c.csv: "), e.getMessage());
        assertTrue(e.getMessage().contains("line"), e.getMessage());
        assertFalse(e.getMessage().contains("Exception"), e.getMessage());
        assertFalse(e.getMessage().contains("org.apache"), e.getMessage());
    }

    @Test
    void an_option_row_repeated_in_a_csv_names_both_lines() throws Exception {
        EngineConfigException e = refusedFile("text,weight\nSan Jose,3\nLyon,2\nSan José,1\n");
        assertEquals("catalogs.c.file", e.key());
        assertTrue(e.getMessage().startsWith("data/c.csv lines 2 and 4 are one option"), e.getMessage());
        assertEquals(
                "data/c.csv lines 2 and 3 are one option ('Lyon' twice): keep one, or tell them apart",
                refusedFile("text\nLyon\nLyon\n").getMessage());
    }

    @Test
    void an_option_repeated_in_an_inline_list_names_both_items() {
        EngineConfigException e =
                refused(Map.of(), "cabin", Map.of("options", List.of("Economy", "Business", "economy")));
        assertEquals(PARAM + ".options", e.key());
        assertTrue(e.getMessage().startsWith("options[0] and options[2] are one option"), e.getMessage());
    }

    @Test
    void inline_options_must_be_a_non_empty_list() {
        assertEquals(
                PARAM + ".options",
                refused(Map.of(), "cabin", Map.of("options", "Economy")).key());
        assertEquals(
                PARAM + ".options",
                refused(Map.of(), "cabin", Map.of("options", List.of())).key());
    }
}
