package dev.autocomplete.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.server.storage.MigrationMark;
import dev.autocomplete.server.store.CatalogStore;
import dev.autocomplete.server.store.Database;
import dev.autocomplete.server.store.JdbcCatalogStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code catalog import|export} beside a running server process, as an operator runs them: the server sees an
 * import within two seconds; an export reads back what the store holds; bad files are refused with their lines
 * and change nothing; a later edit of a seed file is reported, not merged, until it is imported.
 */
class CatalogCommandTest {

    private static final String TENANT = TestTenants.paintShop("  colors:\n    file: data/colors.csv\n");

    @TempDir
    Path temp;

    @Test
    void an_import_beside_a_running_server_is_served_and_a_bad_file_changes_nothing() throws Exception {
        Path tenants = temp.resolve("tenants");
        Path data = temp.resolve("data");
        Files.createDirectories(tenants.resolve("shop/data"));
        Files.writeString(tenants.resolve("shop/tenant.yaml"), TENANT);
        Path seed = tenants.resolve("shop/data/colors.csv");
        Files.writeString(seed, "id,text,weight\nred,Crimson Red,3\nblue,Navy Blue,2\n");
        String key = TestTenants.createKey(tenants, "shop", "public", "paint");
        try (ServerProcess server =
                ServerProcess.start(tenants, temp.resolve("server.log"), Map.of(), "--data-dir", data.toString())) {
            server.awaitServing();
            ApiClient api = new ApiClient(server.port());
            assertEquals(List.of("Crimson Red", "Navy Blue"), colors(api, key, "Paint "));

            Path file = temp.resolve("colors.ndjson");
            Files.writeString(file, """
                    {"id": "red", "text": "Crimson Red", "weight": 3}
                    {"id": "green", "text": "Forest Green", "weight": 5}
                    """);
            TestTenants.Cli imported = cli("import", tenants, data, file.toString());
            assertEquals(0, imported.exit(), imported.err());
            assertTrue(imported.out().contains("imported 2 option(s) into shop/colors"), imported.out());
            assertWithin(2_000, () -> colors(api, key, "Paint ").equals(List.of("Forest Green", "Crimson Red")));

            Files.writeString(
                    file,
                    "{\"id\": \"x\", \"text\": \"Ochre\"}\n{\"id\": \"y\"}\n\n{\"id\": \"x\", \"text\": \"Umber\"}\n");
            TestTenants.Cli refused = cli("import", tenants, data, file.toString());
            assertEquals(1, refused.exit());
            assertTrue(refused.err().contains(file + ": line 2: 'text' is required"), refused.err());
            assertTrue(refused.err().contains("nothing was imported"), refused.err());
            Thread.sleep(1_500);
            assertEquals(List.of("Forest Green", "Crimson Red"), colors(api, key, "Paint "), "nothing changed");

            Path exported = temp.resolve("out.json");
            TestTenants.Cli export = cli("export", tenants, data, exported.toString());
            assertEquals(0, export.exit(), export.err());
            String json = Files.readString(exported);
            assertTrue(json.startsWith("[{\"id\":\"green\",\"text\":\"Forest Green\""), json);
            assertEquals(2, ApiClient.JSON.readTree(json).size());

            // The seed file edited: reported at the tenant's reload, not merged; its import brings it in.
            Files.writeString(seed, "id,text,weight\nred,Crimson Red,3\nteal,Deep Teal,9\n");
            assertTrue(server.awaitLog("data/colors.csv changed since it was imported", 10), server.log());
            // The command it prints runs as printed from any directory: the file's path is the tenant's directory's
            // and the file's, not the file's alone (an operator trial's import of data/colors.csv found no file).
            assertTrue(
                    server.log().contains("catalog import --tenant shop --catalog colors " + seed.normalize()),
                    server.log());
            assertFalse(colors(api, key, "Paint ").contains("Deep Teal"));
            TestTenants.Cli seeded = cli("import", tenants, data, seed.toString());
            assertEquals(0, seeded.exit(), seeded.err());
            assertWithin(2_000, () -> colors(api, key, "Paint ").equals(List.of("Deep Teal", "Crimson Red")));

            TestTenants.Cli unknown = TestTenants.cli(
                    "catalog",
                    "import",
                    "--tenants",
                    tenants.toString(),
                    "--data-dir",
                    data.toString(),
                    "--tenant",
                    "shop",
                    "--catalog",
                    "sizes",
                    file.toString());
            assertEquals(2, unknown.exit());
            assertTrue(unknown.err().contains("tenant 'shop' declares no catalog 'sizes'"), unknown.err());
        }
    }

    /**
     * An operator trial: a first tenant.yaml with a misspelt engine was refused, yet its catalog's seed was imported;
     * the fix of the engine's name, with a row added to the file in the same edit, then loaded the store's two options
     * and reported the file as changed since its import, not merged. A refused load now imports nothing.
     */
    @Test
    void a_tenant_refused_at_its_first_load_imports_nothing_and_its_fixed_files_are_imported_whole() throws Exception {
        Path tenants = temp.resolve("tenants");
        Path data = temp.resolve("data");
        Files.createDirectories(tenants.resolve("shop/data"));
        String broken =
                TENANT.replace("catalog: colors}\n", "catalog: colors}\n          - {type: day, engine: dates}\n");
        assertNotEquals(TENANT, broken);
        Files.writeString(tenants.resolve("shop/tenant.yaml"), broken);
        Path seed = tenants.resolve("shop/data/colors.csv");
        Files.writeString(seed, "id,text,weight\nred,Crimson Red,3\nblue,Navy Blue,2\n");
        String key = TestTenants.createKey(tenants, "shop", "public", "paint");
        try (ServerProcess server =
                ServerProcess.start(tenants, temp.resolve("server.log"), Map.of(), "--data-dir", data.toString())) {
            server.awaitServing();
            assertTrue(server.awaitLog("names no engine 'dates'", 20), server.log());
            assertFalse(server.log().contains("into the store"), server.log());

            Files.writeString(seed, "id,text,weight\nred,Crimson Red,3\nblue,Navy Blue,2\nteal,Deep Teal,9\n");
            Files.writeString(tenants.resolve("shop/tenant.yaml"), TENANT);
            ApiClient api = new ApiClient(server.port());
            assertWithin(20_000, () -> {
                ApiClient.Reply reply = api.suggest(key, ApiClient.envelope("Paint "));
                return reply.status() == 200
                        && reply.options("color").equals(List.of("Deep Teal", "Crimson Red", "Navy Blue"));
            });
            assertTrue(server.log().contains("imported 3 options from"), server.log());
            assertFalse(server.log().contains("changed since it was imported"), server.log());
        }
    }

    @Test
    void an_export_to_csv_of_an_alias_holding_the_alias_separator_is_refused_before_the_file_is_written()
            throws Exception {
        Path tenants = shopWithEmptyColors();
        Path data = temp.resolve("data");
        Path file = Files.writeString(
                temp.resolve("colors.ndjson"), "{\"id\": \"red\", \"text\": \"Red\", \"aliases\": [\"rouge|rot\"]}\n");
        TestTenants.Cli imported = cli("import", tenants, data, file.toString());
        assertEquals(0, imported.exit(), imported.err());
        // NDJSON in a file named .json: told in the command line's terms, not the records API's Content-Type.
        Path misnamed = Files.copy(file, temp.resolve("colors.json"));
        TestTenants.Cli notArray = cli("import", tenants, data, misnamed.toString());
        assertEquals(1, notArray.exit(), notArray.out());
        assertEquals(
                List.of("error: " + misnamed + ": not a JSON array of records (for one record a line, name the file"
                        + " .ndjson or pass --format ndjson). Nothing was imported."),
                notArray.err().lines().toList());

        Path csv = temp.resolve("colors.csv");
        TestTenants.Cli refused = cli("export", tenants, data, csv.toString());
        assertEquals(2, refused.exit(), refused.out());
        assertTrue(
                refused.err()
                        .contains("option 'red' has an alias with '|' ('rouge|rot'), which separates aliases"
                                + " in CSV; export it as NDJSON instead"),
                refused.err());
        assertFalse(Files.exists(csv), "no half-written file");
    }

    @Test
    void a_csv_import_reports_every_refused_row_by_its_line_as_ndjson_does_and_imports_nothing() throws Exception {
        Path tenants = shopWithEmptyColors();
        Path data = temp.resolve("data");
        Path csv = Files.writeString(temp.resolve("colors.csv"), "id,text\nred,Red\n");
        TestTenants.Cli imported = cli("import", tenants, data, csv.toString());
        assertTrue(imported.out().contains("imported 1 option(s)"), imported.err());
        Files.writeString(csv, """
                id,text,weight,aliases
                blue,Navy Blue,2,
                grey,,1,
                blue,Sky Blue,1,
                teal,Teal,heavy,
                navy,navy blue,1,
                sand,Sand,1,=
                ,Ochre,1,
                """);

        TestTenants.Cli refused = cli("import", tenants, data, csv.toString());

        assertEquals(1, refused.exit(), refused.out());
        assertEquals(
                List.of(
                        csv + ": line 3: empty text",
                        csv + ": line 4: id 'blue' is already the id of line 2",
                        csv + ": line 5: weight is not a number",
                        csv + ": line 6: lines 2 and 6 are one option ('Navy Blue' and 'navy blue' differ only in"
                                + " case, accents or punctuation): keep one, or tell them apart",
                        csv + ": line 7: alias '=' "
                                + dev.autocomplete.index.AliasCodes.problem("=").orElseThrow(),
                        csv + ": line 8: empty id",
                        "6 invalid record(s); nothing was imported"),
                refused.err().lines().toList());
        Path exported = temp.resolve("out.ndjson");
        assertEquals(0, cli("export", tenants, data, exported.toString()).exit());
        List<String> kept = Files.readAllLines(exported);
        assertEquals(1, kept.size(), "nothing changed: " + kept);
        assertTrue(kept.getFirst().startsWith("{\"id\":\"red\",\"text\":\"Red\""), kept.toString());

        // A file saved as Excel's "CSV UTF-8" starts with a byte order mark: its first column is still `text`.
        Files.writeString(csv, "\uFEFFtext,id\nMarked Teal,teal\n");
        TestTenants.Cli marked = cli("import", tenants, data, csv.toString());
        assertEquals(0, marked.exit(), marked.err());
        assertTrue(marked.out().contains("imported 1 option(s)"), marked.out());

        // What only the store checks (lengths, characters) is named by its line too, not by its place among records.
        Files.writeString(csv, "id,text\nred,Red\nlong,L" + "o".repeat(1_000) + "ng\nbell,Bell\u0007\n");
        TestTenants.Cli stored = cli("import", tenants, data, csv.toString());
        assertEquals(1, stored.exit(), stored.out());
        assertEquals(
                List.of(
                        csv + ": line 3: 'text' is longer than 1000 characters",
                        csv + ": line 4: 'text' must not contain a control character (U+0007)",
                        "2 invalid record(s); nothing was imported"),
                stored.err().lines().toList());
        // Without an id column the id is derived from the text once stored: the row is told what is wrong with its
        // text, not that its derived id is blank.
        Files.writeString(csv, "text\nRed\n!!!\n");
        TestTenants.Cli derived = cli("import", tenants, data, csv.toString());
        assertEquals(
                List.of(csv + ": line 3: 'text' has no letter or digit", "1 invalid record(s); nothing was imported"),
                derived.err().lines().toList());

        // As for NDJSON, the first thousand are listed, and all counted.
        StringBuilder many = new StringBuilder("id,text\n");
        for (int row = 0; row < 1_005; row++) {
            many.append("c").append(row).append(",\n");
        }
        Files.writeString(csv, many);
        TestTenants.Cli capped = cli("import", tenants, data, csv.toString());
        List<String> lines = capped.err().lines().toList();
        assertEquals(1_001, lines.size());
        assertEquals(csv + ": line 1001: empty text", lines.get(999));
        assertEquals("1005 invalid record(s) (the first 1000 listed); nothing was imported", lines.getLast());
    }

    @Test
    void a_csv_import_names_each_row_by_the_line_it_starts_on_after_a_quoted_value_with_a_line_break()
            throws Exception {
        Path tenants = shopWithEmptyColors();
        Path data = temp.resolve("data");
        // Row 1 spans lines 2 and 3 (a quoted line break); the rows after it are on lines 4, 5 and 6 of the file, the
        // lines an editor shows, not on lines 3, 4 and 5 (their record numbers).
        Path csv = Files.writeString(temp.resolve("colors.csv"), """
                id,text,weight
                sea,"Sea
                Green",1
                teal,Teal,heavy
                navy,Navy,2
                navy,Navy Blue,3
                """);

        TestTenants.Cli refused = cli("import", tenants, data, csv.toString());

        assertEquals(1, refused.exit(), refused.out());
        assertEquals(
                List.of(
                        csv + ": line 2: 'text' must not contain a control character (U+000A)",
                        csv + ": line 4: weight is not a number",
                        csv + ": line 6: id 'navy' is already the id of line 5",
                        "3 invalid record(s); nothing was imported"),
                refused.err().lines().toList());
    }

    @Test
    void after_a_migration_writes_to_the_old_sqlite_store_are_refused_until_it_is_unmarked() throws Exception {
        Path tenants = shopWithEmptyColors();
        Path data = temp.resolve("data");
        Path file = Files.writeString(temp.resolve("colors.ndjson"), "{\"id\": \"red\", \"text\": \"Red\"}\n");
        assertEquals(0, cli("import", tenants, data, file.toString()).exit());
        // What `storage migrate` leaves behind (StorageMigrateTest runs the real one against PostgreSQL).
        try (Database sqlite = Database.sqlite(data.resolve(Database.SQLITE_FILE))) {
            MigrationMark.write(sqlite, "PostgreSQL jdbc:postgresql://db.internal:5432/autocomplete", Instant.EPOCH);
        }
        Path store = data.resolve(Database.SQLITE_FILE);
        long sequence = sequence(store);

        Files.writeString(file, "{\"id\": \"blue\", \"text\": \"Blue\"}\n");
        TestTenants.Cli refused = cli("import", tenants, data, file.toString());
        assertEquals(2, refused.exit(), refused.out());
        assertTrue(
                refused.err()
                                .contains(store
                                        + " was migrated into PostgreSQL jdbc:postgresql://db.internal:5432/autocomplete"
                                        + " on 1970-01-01T00:00:00Z")
                        && refused.err().contains("Give this command the servers' storage URL")
                        && refused.err().contains("'storage unmark'"),
                refused.err());
        TestTenants.Cli reset = TestTenants.cli(
                "learning",
                "reset",
                "--tenants",
                tenants.toString(),
                "--data-dir",
                data.toString(),
                "--tenant",
                "shop");
        assertEquals(2, reset.exit(), reset.out());
        assertTrue(reset.err().contains("was migrated into"), reset.err());
        assertEquals(sequence, sequence(store), "nothing written");

        Path exported = temp.resolve("out.ndjson");
        TestTenants.Cli export = cli("export", tenants, data, exported.toString());
        assertEquals(0, export.exit(), export.err());
        assertTrue(export.err().startsWith("note: " + store + " was migrated into"), export.err());
        assertTrue(Files.readString(exported).contains("\"Red\""));

        try (ServerProcess server =
                ServerProcess.start(tenants, temp.resolve("server.log"), Map.of(), "--data-dir", data.toString())) {
            server.awaitServing();
            assertTrue(server.awaitLog("do not see what this server writes", 10), server.log());
        }

        TestTenants.Cli unmarked =
                TestTenants.cli("storage", "unmark", "--tenants", tenants.toString(), "--data-dir", data.toString());
        assertEquals(0, unmarked.exit(), unmarked.err());
        assertTrue(unmarked.out().contains("is no longer marked as migrated"), unmarked.out());
        TestTenants.Cli imported = cli("import", tenants, data, file.toString());
        assertEquals(0, imported.exit(), imported.err());
        assertTrue(sequence(store) > sequence);
        TestTenants.Cli again =
                TestTenants.cli("storage", "unmark", "--tenants", tenants.toString(), "--data-dir", data.toString());
        assertEquals(0, again.exit(), again.err());
        assertTrue(again.out().contains("was not marked as migrated; nothing was changed"), again.out());
    }

    /** A tenants directory whose shop declares catalog {@code colors} with neither a file nor options. */
    private Path shopWithEmptyColors() throws java.io.IOException {
        Path tenants = temp.resolve("tenants");
        Files.createDirectories(tenants.resolve("shop"));
        Files.writeString(tenants.resolve("shop/tenant.yaml"), TestTenants.paintShop("  colors: {}\n"));
        return tenants;
    }

    private static long sequence(Path store) {
        try (CatalogStore catalogs = JdbcCatalogStore.sqlite(store)) {
            return catalogs.lastSequence();
        }
    }

    private static TestTenants.Cli cli(String command, Path tenants, Path data, String file) {
        return TestTenants.cli(
                "catalog",
                command,
                "--tenants",
                tenants.toString(),
                "--data-dir",
                data.toString(),
                "--tenant",
                "shop",
                "--catalog",
                "colors",
                file);
    }

    private static List<String> colors(ApiClient api, String key, String query) {
        ApiClient.Reply reply = api.suggest(key, ApiClient.envelope(query));
        assertEquals(200, reply.status(), reply.raw());
        return reply.options("color");
    }

    private static void assertWithin(long millis, java.util.function.BooleanSupplier condition)
            throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + millis + " ms");
            }
            Thread.sleep(50);
        }
    }
}
