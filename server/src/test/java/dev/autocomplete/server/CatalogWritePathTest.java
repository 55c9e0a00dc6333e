package dev.autocomplete.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.autocomplete.server.config.ServerSettings;
import dev.autocomplete.server.http.CatalogService;
import dev.autocomplete.server.store.Database;
import dev.autocomplete.server.store.PostgresServer;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The write path of the records API over HTTP on a real port, on SQLite and on PostgreSQL: a body is read and
 * checked whole before the store's transaction starts, so a client trickling a PUT holds no other tenant's writes;
 * malformed JSON, control characters and lone surrogates are 400s naming what is wrong, every bad record of a
 * batch in one answer; a full disk is a logged 503 with Retry-After.
 */
class CatalogWritePathTest {

    private static final String ALPHA = """
            display_name: Alpha
            catalogs:
              contacts: {}
            products:
              - id: 6d1e2f3a-4b5c-4d6e-8f7a-9b0c1d2e3f01
                slug: people
                prompt: Call
                intents:
                  - name: call
                    phrases: [Call]
                    params:
                      - {type: contact, label: Contact, required: true, catalog: contacts}
            """;

    private static final String BETA = """
            display_name: Beta
            catalogs:
              cities: {}
            products:
              - id: 6d1e2f3a-4b5c-4d6e-8f7a-9b0c1d2e3f02
                slug: trips
                prompt: Go
                intents:
                  - name: go
                    phrases: [Go to]
                    params:
                      - {type: city, label: City, required: true, catalog: cities}
            """;

    private static final String CONTACTS = "/api/catalogs/contacts/options";
    private static final String CITIES = "/api/catalogs/cities/options";
    private static final String JSON = "application/json";
    private static final String NDJSON = "application/x-ndjson";

    @TempDir
    Path temp;

    /** Two tenants, alpha and beta, each with a secret key; {@code config} names the store for the keys command. */
    private record Tenants(Path directory, String alpha, String beta) {
        static Tenants create(Path temp, String... keyOptions) throws IOException {
            Path tenants = temp.resolve("tenants");
            Files.createDirectories(tenants.resolve("alpha"));
            Files.createDirectories(tenants.resolve("beta"));
            Files.writeString(tenants.resolve("alpha/tenant.yaml"), ALPHA);
            Files.writeString(tenants.resolve("beta/tenant.yaml"), BETA);
            return new Tenants(
                    tenants,
                    TestTenants.createKey(tenants, "alpha", "secret", null, keyOptions),
                    TestTenants.createKey(tenants, "beta", "secret", null, keyOptions));
        }
    }

    private static AutocompleteServer sqlite(Tenants tenants, Path data) throws IOException {
        return AutocompleteServer.start(
                TestServers.settings(tenants.directory()).withDataDir(data));
    }

    @Test
    void a_trickling_put_holds_no_other_tenants_writes_on_sqlite() throws Exception {
        Tenants tenants = Tenants.create(temp);
        try (AutocompleteServer server = sqlite(tenants, temp.resolve("data"))) {
            slowPutLeavesOtherWritesAlone(new ApiClient(server.port()), tenants);
        }
    }

    @Test
    void a_trickling_put_holds_no_other_tenants_writes_on_postgresql() throws Exception {
        onPostgres(CatalogWritePathTest::slowPutLeavesOtherWritesAlone);
    }

    @Test
    void bad_strings_and_every_bad_record_of_a_batch_are_refused_on_sqlite() throws Exception {
        Tenants tenants = Tenants.create(temp);
        try (AutocompleteServer server = sqlite(tenants, temp.resolve("data"))) {
            badRecordsAreRefusedNamingEach(new ApiClient(server.port()), tenants.beta());
        }
    }

    @Test
    void bad_strings_and_every_bad_record_of_a_batch_are_refused_on_postgresql() throws Exception {
        onPostgres((api, tenants) -> badRecordsAreRefusedNamingEach(api, tenants.beta()));
    }

    @FunctionalInterface
    private interface Scenario {
        void run(ApiClient api, Tenants tenants) throws Exception;
    }

    /** Runs {@code scenario} against a server whose keys and catalogs are in a new PostgreSQL database. */
    private void onPostgres(Scenario scenario) throws Exception {
        try (PostgresServer postgres = PostgresServer.start()) {
            String url = postgres.newDatabase();
            Path config = Files.writeString(temp.resolve("autocomplete.yaml"), "storage:\n  url: \"" + url + "\"\n");
            Tenants tenants = Tenants.create(temp, "--config", config.toString());
            ServerSettings settings = TestServers.settings(tenants.directory())
                    .withStorageUrl(url)
                    .withTokenSecret(AccessTokenTest.SECRET)
                    .withDataDir(Files.createDirectories(temp.resolve("replica-data")));
            try (AutocompleteServer server = AutocompleteServer.start(settings)) {
                scenario.run(new ApiClient(server.port()), tenants);
            }
        }
    }

    /**
     * While a PUT to alpha's catalog trickles in for 20 s (50 records every half second, chunked NDJSON), 20 POSTs
     * to beta's catalog each answer 200 within a second; then the PUT is applied whole.
     */
    private static void slowPutLeavesOtherWritesAlone(ApiClient api, Tenants tenants) throws Exception {
        PipedInputStream body = new PipedInputStream(1 << 16);
        PipedOutputStream feed = new PipedOutputStream(body);
        HttpRequest put = HttpRequest.newBuilder(URI.create(api.base() + CONTACTS))
                .timeout(Duration.ofSeconds(90))
                .header("Content-Type", NDJSON)
                .header("Authorization", "Bearer " + tenants.alpha())
                .PUT(HttpRequest.BodyPublishers.ofInputStream(() -> body))
                .build();
        // One write to beta first: its catalog's first open and the store's first statements are not what is timed.
        ApiClient.Reply first =
                api.call("POST", CITIES, tenants.beta(), "[{\"id\": \"c-0\", \"text\": \"City number 0\"}]", JSON);
        assertEquals(200, first.status(), first.raw());
        long started = System.nanoTime();
        // Threads of their own: the common pool may have one thread on a small machine, and these two block.
        ExecutorService threads = Executors.newFixedThreadPool(2);
        CompletableFuture<ApiClient.Reply> replaced = CompletableFuture.supplyAsync(() -> api.send(put), threads);
        CompletableFuture<Void> trickle = CompletableFuture.runAsync(() -> trickle(feed, 40, 50, 500), threads);
        threads.shutdown();

        List<Long> waits = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Thread.sleep(500);
            long before = System.nanoTime();
            ApiClient.Reply reply = api.call(
                    "POST",
                    CITIES,
                    tenants.beta(),
                    "[{\"id\": \"c-" + i + "\", \"text\": " + "\"City number " + i + "\"}]",
                    JSON);
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - before);
            assertEquals(200, reply.status(), "POST " + i + " while the PUT trickles: " + reply.raw());
            waits.add(millis);
        }
        assertTrue(waits.stream().allMatch(millis -> millis < 1000), "each POST within a second: " + waits);
        assertTrue(!replaced.isDone(), "the PUT was still arriving while the POSTs were answered");

        trickle.get(60, TimeUnit.SECONDS);
        ApiClient.Reply reply = replaced.get(60, TimeUnit.SECONDS);
        assertTrue(System.nanoTime() - started >= TimeUnit.SECONDS.toNanos(19), "the PUT took its 20 s");
        assertEquals(200, reply.status(), reply.raw());
        assertEquals(2000, reply.data().path("options").asLong(), reply.raw());
        assertEquals(2000, count(api, tenants.alpha(), CONTACTS));
        assertEquals(20, count(api, tenants.beta(), CITIES));
    }

    /** Writes {@code rounds} rounds of {@code perRound} NDJSON records, one round every {@code pauseMillis}. */
    private static void trickle(OutputStream out, int rounds, int perRound, long pauseMillis) {
        try (out) {
            for (int round = 0; round < rounds; round++) {
                StringBuilder lines = new StringBuilder();
                for (int i = 0; i < perRound; i++) {
                    int n = round * perRound + i;
                    lines.append("{\"id\": \"p-")
                            .append(n)
                            .append("\", \"text\": \"Person ")
                            .append(n)
                            .append("\"}\n");
                }
                out.write(lines.toString().getBytes(StandardCharsets.UTF_8));
                out.flush();
                Thread.sleep(pauseMillis);
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static long count(ApiClient api, String key, String path) {
        long count = 0;
        String cursor = null;
        do {
            ApiClient.Reply page = api.call(
                    "GET", path + "?limit=1000" + (cursor == null ? "" : "&cursor=" + cursor), key, null, null);
            assertEquals(200, page.status(), page.raw());
            count += page.data().path("options").size();
            JsonNode next = page.data().path("next_cursor");
            cursor = next.isNull() ? null : next.asText();
        } while (cursor != null);
        return count;
    }

    private static void badRecordsAreRefusedNamingEach(ApiClient api, String key) {
        // Control characters and lone surrogates, in every field: 400 naming the record and the field.
        ApiClient.Reply refused = api.call("POST", CITIES, key, """
                [{"id": "nul", "text": "Nul\\u0000City"},
                 {"id": "esc", "text": "Escape\\u001b City"},
                 {"id": "sur", "text": "Bad \\ud800 Sur"},
                 {"id": "ali", "text": "Alias City", "aliases": ["ok", "tab\\there"]},
                 {"id": "tra", "text": "Translated City", "translations": {"fr": "nul\\u0000", "de": "gut"}},
                 {"id": "tsu", "text": "Other City", "translations": {"fr": "\\udc00"}},
                 {"id": "fine", "text": "Fine City"}]""", JSON);
        assertEquals(400, refused.status(), refused.raw());
        assertEquals("INVALID_RECORDS", refused.errorCode());
        assertEquals(
                List.of(
                        "0: 'text' must not contain a control character (U+0000)",
                        "1: 'text' must not contain a control character (U+001B)",
                        "2: 'text' must not contain a lone surrogate (U+D800)",
                        "3: 'aliases[1]' must not contain a control character (U+0009)",
                        "4: 'translations.fr' must not contain a control character (U+0000)",
                        "5: 'translations.fr' must not contain a lone surrogate (U+DC00)"),
                details(refused, "index"));
        ApiClient.Reply put = api.call("PUT", CITIES, key, "{\"id\": \"n\", \"text\": \"Nul\\u0000City\"}\n", NDJSON);
        assertEquals(400, put.status(), put.raw());
        assertEquals(List.of("1: 'text' must not contain a control character (U+0000)"), details(put, "line"));

        // Every bad record of one batch in one answer: a bad weight, a control character, texts that fold alike,
        // a text a stored id keeps.
        assertEquals(
                200,
                api.call("POST", CITIES, key, "[{\"id\": \"stored\", \"text\": \"Lyon\"}]", JSON)
                        .status());
        ApiClient.Reply several = api.call("POST", CITIES, key, """
                {"id": "w", "text": "Weighty", "weight": "high"}
                {"id": "a", "text": "Saint-Étienne"}
                {"id": "c", "text": "Ctrl\\u0007 City"}
                {"id": "b", "text": "saint etienne"}
                {"id": "d", "text": "Fine Town"}
                {"id": "a", "text": "Again Town"}
                {"id": "l", "text": "LYON"}
                """, NDJSON);
        assertEquals(400, several.status(), several.raw());
        assertEquals(
                List.of(
                        "1: 'weight' must be a number",
                        "3: 'text' must not contain a control character (U+0007)",
                        "4: text 'saint etienne' is also the text of the record at line 2 of this write (texts are"
                                + " compared ignoring case, accents, punctuation and spacing)",
                        "6: id 'a' is also the id of the record at line 2 of this write",
                        "7: text 'LYON' is already the text of id 'stored' (texts are compared ignoring case, accents,"
                                + " punctuation and spacing)"),
                details(several, "line"));
        assertTrue(
                several.json().path("error").path("message").asText().startsWith("5 records are invalid"),
                several.raw());
        assertEquals(1, count(api, key, CITIES), "nothing of the refused writes was applied");

        // A translation in the tenant's default language (en), whose text is the record's own: it showed users asking
        // in English another text than those asking in no language, and `catalog export` wrote a text_en column that
        // `catalog import` refuses. Refused by POST, PUT and PATCH alike.
        for (String method : List.of("POST", "PUT", "PATCH")) {
            ApiClient.Reply english = api.call(
                    method,
                    CITIES,
                    key,
                    "[{\"id\": \"stored\", \"text\": \"Lyon\", \"translations\": {\"fr\": \"Lyon\", \"en\":"
                            + " \"Lyons\"}}]",
                    JSON);
            assertEquals(400, english.status(), method + ": " + english.raw());
            assertEquals(
                    List.of("0: 'translations.en': 'en' is the tenant's default language, whose text is the record's"
                            + " 'text'"),
                    details(english, "index"),
                    method);
        }
        ApiClient.Reply stored = api.call("GET", "/api/catalogs/cities/options/stored", key, null, null);
        assertEquals(
                0, stored.data().path("translations").size(), "nothing of the writes was applied: " + stored.raw());

        // A surrogate pair is one character, not a lone surrogate.
        ApiClient.Reply emoji =
                api.call("POST", CITIES, key, "[{\"id\": \"e\", \"text\": \"Smile \\ud83d\\ude00 City\"}]", JSON);
        assertEquals(200, emoji.status(), emoji.raw());
    }

    @Test
    void malformed_json_in_a_post_or_a_put_is_400_invalid_json_and_applies_nothing() throws Exception {
        Tenants tenants = Tenants.create(temp);
        try (AutocompleteServer server = sqlite(tenants, temp.resolve("data"))) {
            ApiClient api = new ApiClient(server.port());
            // Malformed JSON in a POST is 400 INVALID_JSON, as in a PUT, and nothing is applied.
            String record = "{\"id\":\"a\",\"text\":\"b\"";
            List<String> malformed = List.of(
                    "[" + record,
                    "[" + record + "}] xx",
                    "[][]",
                    "[" + record + ",\"weight\":NaN}]",
                    "[".repeat(100_000),
                    "[" + record + ",\"aliases\":" + "[".repeat(5000) + "]".repeat(5000) + "}]",
                    "[{\"id\":\"a\",\"text\":\"" + "x".repeat(10_000_000) + "\"}]",
                    record + "}",
                    "nul");
            for (String body : malformed) {
                for (String method : List.of("POST", "PUT")) {
                    ApiClient.Reply reply = api.call(method, CITIES, tenants.beta(), body, JSON);
                    String shown = body.length() > 60 ? body.substring(0, 60) + "…" : body;
                    assertEquals(400, reply.status(), method + " " + shown + ": " + reply.raw());
                    assertEquals("INVALID_JSON", reply.errorCode(), method + " " + shown + ": " + reply.raw());
                }
            }
            assertEquals(0, count(api, tenants.beta(), CITIES), "nothing of the malformed writes was applied");
        }
    }

    /**
     * Past a thousand pending changes a live catalog folds them into one index in the background; the management
     * port's metrics count each catalog's folds and their seconds, so that an operator sees what writes cost.
     */
    @Test
    void folds_of_a_live_catalog_are_counted_in_the_metrics_per_catalog() throws Exception {
        Tenants tenants = Tenants.create(temp);
        try (AutocompleteServer server = sqlite(tenants, temp.resolve("data"))) {
            ApiClient api = new ApiClient(server.port());
            ApiClient management = ApiClient.management(server.managementPort());
            String folds = "autocomplete_catalog_folds_total{catalog=\"cities\",tenant=\"beta\"}";
            String seconds = "autocomplete_catalog_fold_seconds_total{catalog=\"cities\",tenant=\"beta\"}";
            assertEquals(0.0, metric(management, folds), "no fold before any write");
            // Batches of 400 until a fold: past 1,000 pending changes (the store's first catch-up may build the first
            // batch into the main index, so the count of records written before it varies).
            int written = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (metric(management, folds) < 1 && System.nanoTime() < deadline) {
                if (written < 4000) {
                    ApiClient.Reply reply = api.call("POST", CITIES, tenants.beta(), batch("c" + written, 400), JSON);
                    assertEquals(200, reply.status(), reply.raw());
                    written += 400;
                }
                Thread.sleep(50);
            }
            // Writes sent while the fold ran may reach the threshold again: one fold at least.
            assertTrue(metric(management, folds) >= 1, "a fold after " + written + " records");
            assertTrue(written > 1000, "no fold before a thousand pending changes: " + written);
            assertTrue(metric(management, seconds) > 0, "the fold's time is counted");
            assertEquals(0.0, metric(management, folds.replace("beta", "alpha").replace("cities", "contacts")));
            assertEquals(written, count(api, tenants.beta(), CITIES));
        }
    }

    /** The value of one series in the management port's metrics, -1 when it is missing. */
    private static double metric(ApiClient management, String series) {
        return EngineMetricsTest.value(management.get("/observe/metrics").raw(), series);
    }

    /** The refused records as {@code position: reason}. */
    private static List<String> details(ApiClient.Reply reply, String at) {
        List<String> details = new ArrayList<>();
        reply.json()
                .path("error")
                .path("details")
                .forEach(d -> details.add(
                        d.path(at).asLong() + ": " + d.path("reason").asText()));
        return details;
    }

    /**
     * A full data directory: first with room for a write's body in the spool but not for the store's pages
     * ({@code SQLITE_FULL}), then with no room for the body either. Each is a 503 with {@code Retry-After}, said once
     * in the log, not once per write; writes resume once there is room.
     */
    @Test
    void a_full_disk_is_a_logged_503_with_retry_after_and_writes_resume_once_there_is_room() throws Exception {
        Path data = Files.createDirectories(temp.resolve("small-disk"));
        Assumptions.assumeTrue(
                run("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", data.toString()),
                "mounting a small tmpfs needs root: skipped");
        List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue()) {
                    warnings.add(record.getMessage());
                }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        List<Logger> loggers =
                List.of(Logger.getLogger(Database.class.getName()), Logger.getLogger(CatalogService.class.getName()));
        loggers.forEach(logger -> logger.addHandler(capture));
        try {
            Tenants tenants = Tenants.create(temp);
            try (AutocompleteServer server = sqlite(tenants, data)) {
                ApiClient api = new ApiClient(server.port());
                assertEquals(
                        200,
                        api.call("POST", CITIES, tenants.beta(), batch("before", 10), JSON)
                                .status());
                Path filler = data.resolve("filler");
                fill(filler);
                // Room for a body of 2,000 records in the spool, not for the store's pages of them.
                int bodyBytes = batch("full0", 2000).getBytes(StandardCharsets.UTF_8).length;
                try (FileChannel channel = FileChannel.open(filler, StandardOpenOption.WRITE)) {
                    channel.truncate(channel.size() - bodyBytes - 64 * 1024);
                }
                assertFullDisk(api, tenants, warnings, "SQLITE_FULL");

                warnings.clear();
                fill(data.resolve("filler-2"));
                assertFullDisk(api, tenants, warnings, "could not be copied to " + data.resolve("spool"));

                Files.delete(filler);
                Files.delete(data.resolve("filler-2"));
                ApiClient.Reply again = api.call("POST", CITIES, tenants.beta(), batch("after", 2000), JSON);
                assertEquals(200, again.status(), again.raw());
                assertEquals(2010, count(api, tenants.beta(), CITIES));
            }
        } finally {
            loggers.forEach(logger -> logger.removeHandler(capture));
            run("umount", data.toString());
        }
    }

    /** Three writes of 2,000 records answer 503 with {@code Retry-After}, and the log has one disk-full warning. */
    private static void assertFullDisk(ApiClient api, Tenants tenants, List<String> warnings, String saying) {
        for (int i = 0; i < 3; i++) {
            ApiClient.Reply full = api.call("POST", CITIES, tenants.beta(), batch("full" + i, 2000), JSON);
            assertEquals(503, full.status(), full.raw());
            assertEquals("STORAGE_UNAVAILABLE", full.errorCode());
            assertEquals("2", full.header("Retry-After"), full.headers().toString());
        }
        List<String> diskWarnings =
                warnings.stream().filter(w -> w.contains("the disk is full")).toList();
        assertEquals(1, diskWarnings.size(), "one warning, not one per failure: " + warnings);
        assertTrue(diskWarnings.getFirst().contains(saying), diskWarnings.getFirst());
    }

    /** A JSON array of {@code size} records with long texts, ids starting with {@code prefix}. */
    private static String batch(String prefix, int size) {
        StringBuilder body = new StringBuilder("[");
        for (int i = 0; i < size; i++) {
            body.append(i == 0 ? "" : ",")
                    .append("{\"id\": \"")
                    .append(prefix)
                    .append('-')
                    .append(i)
                    .append("\", \"text\": \"")
                    .append(prefix)
                    .append(' ')
                    .append(i)
                    .append(' ')
                    .append("lorem ipsum ".repeat(20))
                    .append("\"}");
        }
        return body.append(']').toString();
    }

    /** Writes {@code file} until the file system is full. */
    private static void fill(Path file) throws IOException {
        byte[] chunk = new byte[64 * 1024];
        try (OutputStream out = Files.newOutputStream(file)) {
            while (true) {
                out.write(chunk);
            }
        } catch (IOException e) {
            if (!String.valueOf(e.getMessage()).contains("No space left")) {
                throw e;
            }
        }
    }

    private static boolean run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getInputStream().readAllBytes();
        return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
    }
}
