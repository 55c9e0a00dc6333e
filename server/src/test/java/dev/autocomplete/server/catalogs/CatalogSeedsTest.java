package dev.autocomplete.server.catalogs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.autocomplete.index.CatalogEntry;
import dev.autocomplete.spi.ConfigTree;
import dev.autocomplete.spi.EngineConfigException;
import dev.autocomplete.spi.Option;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A declared catalog read as the seed of a live catalog: its options, with the ids of an id column. */
class CatalogSeedsTest {

    @TempDir
    Path temp;

    private List<SeedOption> read(Map<String, ?> declaration) throws EngineConfigException {
        return CatalogSeeds.read(ConfigTree.at("catalogs.cities", declaration), temp, "en");
    }

    @Test
    void a_file_with_an_id_column_gives_each_option_its_id_and_its_translations() throws Exception {
        Files.writeString(
                temp.resolve("cities.csv"),
                "id,text,weight,aliases,text_fr\n" + "c1,London,9,LHR|City,Londres\nc2,Lyon,1,,\n");
        Files.writeString(temp.resolve("more.csv"), "text,text_de\nLyon,Lyon an der Rhone\n");
        assertEquals(
                List.of(
                        new SeedOption(
                                "c1", new CatalogEntry("London", List.of("LHR", "City"), 9, Map.of("fr", "Londres"))),
                        new SeedOption(
                                "c2", new CatalogEntry("Lyon", List.of(), 1, Map.of("de", "Lyon an der Rhone")))),
                read(Map.of("file", "cities.csv", "translations", "more.csv")));
    }

    @Test
    void columns_are_read_in_any_order_and_a_short_row_has_no_values_in_the_columns_it_lacks() throws Exception {
        // A row may stop before the last columns (commons-csv keeps it short).
        Files.writeString(
                temp.resolve("cities.csv"),
                "attr.region,text_fr,aliases,text,weight,attr.team\n"
                        + "EU| west |,Londres,LHR| |City,London,9,a|b\n"
                        + ",,,Lyon\n"
                        + "\"E,U\",,,Oslo,2\n");
        assertEquals(
                List.of(
                        new SeedOption(
                                null,
                                new CatalogEntry(
                                        "London",
                                        List.of("LHR", "City"),
                                        9,
                                        Map.of("fr", "Londres"),
                                        Map.of("region", List.of("EU", "west"), "team", List.of("a", "b")))),
                        new SeedOption(null, new CatalogEntry("Lyon", 0)),
                        new SeedOption(
                                null,
                                new CatalogEntry("Oslo", List.of(), 2, Map.of(), Map.of("region", List.of("E,U"))))),
                read(Map.of("file", "cities.csv")));
        Files.writeString(temp.resolve("cities.csv"), "weight,text\n3\n");
        EngineConfigException empty =
                assertThrows(EngineConfigException.class, () -> read(Map.of("file", "cities.csv")));
        assertEquals("cities.csv line 2: empty text", empty.getMessage());
    }

    @Test
    void without_an_id_column_or_from_an_inline_list_the_ids_are_left_to_the_importer() throws Exception {
        Files.writeString(temp.resolve("cities.csv"), "text,weight\nLondon,9\n");
        assertEquals(List.of(new SeedOption(null, new CatalogEntry("London", 9))), read(Map.of("file", "cities.csv")));
        assertEquals(
                List.of(new SeedOption(null, new CatalogEntry("Paris", 1))), read(Map.of("options", List.of("Paris"))));
    }

    @Test
    void a_catalog_declared_with_neither_a_file_nor_options_has_no_seed() throws Exception {
        assertEquals(List.of(), read(Map.of()));
        EngineConfigException unknown = assertThrows(EngineConfigException.class, () -> read(Map.of("fil", "x.csv")));
        assertEquals("catalogs.cities.fil", unknown.key());
    }

    @Test
    void an_empty_a_repeated_or_a_too_long_id_is_a_config_error_naming_its_line() throws Exception {
        Files.writeString(temp.resolve("cities.csv"), "id,text\nc1,London\nc1,Lyon\n");
        EngineConfigException repeated =
                assertThrows(EngineConfigException.class, () -> read(Map.of("file", "cities.csv")));
        assertEquals("cities.csv line 3: id 'c1' is already the id of line 2", repeated.getMessage());
        assertEquals("catalogs.cities.file", repeated.key());
        Files.writeString(temp.resolve("cities.csv"), "id,text\n,London\n");
        assertEquals(
                "cities.csv line 2: empty id",
                assertThrows(EngineConfigException.class, () -> read(Map.of("file", "cities.csv")))
                        .getMessage());
        Files.writeString(temp.resolve("cities.csv"), "id,text\n" + "x".repeat(201) + ",London\n");
        assertEquals(
                "cities.csv line 2: id longer than 200 characters",
                assertThrows(EngineConfigException.class, () -> read(Map.of("file", "cities.csv")))
                        .getMessage());
    }

    @Test
    void a_file_outside_the_tenant_directory_is_refused() {
        EngineConfigException outside =
                assertThrows(EngineConfigException.class, () -> read(Map.of("file", "../cities.csv")));
        assertEquals("catalogs.cities.file", outside.key());
    }

    @Test
    void the_engine_still_serves_a_catalog_whose_file_has_an_id_column() throws Exception {
        Files.writeString(temp.resolve("cities.csv"), "id,text\nc1,London\n");
        assertEquals(
                List.of("London"),
                new TestTenant(temp, Map.of("cities", Map.of("file", "cities.csv")))
                        .engine("origin", Map.of("catalog", "cities")).options(TestTenant.ask("origin"), "lon").stream()
                                .map(Option::text)
                                .toList());
    }
}
