package dev.autocomplete.server.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.server.store.CatalogStore.Change;
import dev.autocomplete.server.store.CatalogStore.Kind;
import dev.autocomplete.server.store.InvalidRecordsException.Problem;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What every {@link CatalogStore} does, run against a real database by each subclass. */
abstract class CatalogStoreContract {

    /** Runs each task on a thread of its own (the common pool has one thread on two cores). */
    private static final Executor OWN_THREAD = task -> Thread.ofPlatform().start(task);

    static final CatalogRef CITIES = new CatalogRef("acme", "cities");
    static final CatalogRef OTHER = new CatalogRef("acme", "people");

    CatalogStore store;

    /** A new store on a new, empty database. */
    abstract CatalogStore openEmpty() throws Exception;

    /** Another store on the same database as the last {@link #openEmpty}, as another process would open it. */
    abstract CatalogStore openAgain() throws Exception;

    /** A plain connection to the database of the last {@link #openEmpty}, to look at its tables. */
    abstract Connection connect() throws Exception;

    @BeforeEach
    void open() throws Exception {
        store = openEmpty();
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    static OptionRecord record(String id, String text) {
        return new OptionRecord(id, text);
    }

    static List<String> ids(List<OptionRecord> records) {
        return records.stream().map(OptionRecord::id).toList();
    }

    static List<OptionRecord> all(CatalogStore store, CatalogRef catalog) {
        List<OptionRecord> all = new ArrayList<>();
        store.forEach(catalog, all::add);
        return all;
    }

    @Test
    void upserted_records_come_back_whole_ordered_by_id_in_their_catalog_only() {
        OptionRecord paris = new OptionRecord(
                "p", "Paris", List.of("City of Light", "Lutetia"), 12.5, Map.of("de", "Paris", "pt-BR", "Paris"));
        OptionRecord berlin = record("b", "Berlin");
        List<Change> changes = store.upsert(CITIES, List.of(paris, berlin));
        store.upsert(OTHER, List.of(record("z", "Zoe")));

        assertEquals(List.of(berlin, paris), all(store, CITIES));
        assertEquals(List.of("z"), ids(all(store, OTHER)));
        assertEquals(2, changes.size());
        assertEquals(Kind.UPSERT, changes.get(0).kind());
        assertEquals(paris, changes.get(0).record());
        assertNull(changes.get(0).previousText());
        assertTrue(changes.get(1).sequence() > changes.get(0).sequence());
        assertTrue(store.holds(CITIES));
        assertFalse(store.holds(new CatalogRef("acme", "nothing")));
        assertFalse(store.holds(new CatalogRef("other", "cities")));
    }

    @Test
    void an_upsert_by_an_existing_id_replaces_the_record_and_reports_its_previous_text() {
        store.upsert(CITIES, List.of(record("p", "Paris")));
        List<Change> changes = store.upsert(CITIES, List.of(record("p", "Paris, France")));
        assertEquals("Paris", changes.get(0).previousText());
        assertEquals(List.of(record("p", "Paris, France")), all(store, CITIES));
    }

    @Test
    void a_batch_with_bad_records_is_refused_whole_naming_each_index_and_why() {
        store.upsert(CITIES, List.of(record("l", "London")));
        List<OptionRecord> batch = List.of(
                record("p", "Paris"),
                record("x", "  "),
                record("y".repeat(201), "Y"),
                record("p", "Pau"),
                record("q", "PÂRIS"),
                record("m", "london"),
                new OptionRecord("w", "Wien", List.of(), Double.NaN, Map.of()),
                new OptionRecord("t", "Turin", List.of(), 0, Map.of("not a tag", "x")),
                record("ok", "Oslo"));

        InvalidRecordsException refused =
                assertThrows(InvalidRecordsException.class, () -> store.upsert(CITIES, batch));

        List<Problem> problems = refused.problems();
        assertEquals(
                List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L),
                problems.stream().map(Problem::index).toList(),
                problems.toString());
        assertTrue(
                problems.get(0).reason().contains("'text' is blank"),
                problems.get(0).reason());
        assertTrue(
                problems.get(1).reason().contains("longer than 200"),
                problems.get(1).reason());
        assertTrue(
                problems.get(2).reason().contains("also the id of an earlier record"),
                problems.get(2).reason());
        assertTrue(
                problems.get(3).reason().contains("also the text of an earlier record"),
                problems.get(3).reason());
        assertTrue(
                problems.get(4).reason().contains("already the text of id 'l'"),
                problems.get(4).reason());
        assertTrue(problems.get(5).reason().contains("weight"), problems.get(5).reason());
        assertTrue(
                problems.get(6).reason().contains("language tag"),
                problems.get(6).reason());
        assertEquals(List.of("l"), ids(all(store, CITIES)), "nothing of the refused batch applied");
        assertEquals(
                problems.stream().filter(p -> p.index() != 5).toList(),
                OptionRecords.problems(batch),
                "the shared check finds the same, but for the stored text it cannot know");
    }

    @Test
    void control_characters_and_lone_surrogates_are_refused_in_every_field_naming_it() {
        List<OptionRecord> batch = List.of(
                new OptionRecord("n", "Nul\u0000 City"),
                new OptionRecord("e", "Escape\u001b City"),
                new OptionRecord("s", "Bad \ud800 Sur"),
                new OptionRecord("a", "Alias City", List.of("fine", "tab\there"), 0, Map.of()),
                new OptionRecord("t", "Translated City", List.of(), 0, Map.of("fr", "nul\u0000")),
                new OptionRecord("i\u007f", "Del Id"),
                new OptionRecord("ok", "Emoji \ud83d\ude00 City"));

        InvalidRecordsException refused =
                assertThrows(InvalidRecordsException.class, () -> store.upsert(CITIES, batch));

        assertEquals(
                List.of(
                        new Problem(0, "'text' must not contain a control character (U+0000)"),
                        new Problem(1, "'text' must not contain a control character (U+001B)"),
                        new Problem(2, "'text' must not contain a lone surrogate (U+D800)"),
                        new Problem(3, "'aliases[1]' must not contain a control character (U+0009)"),
                        new Problem(4, "'translations.fr' must not contain a control character (U+0000)"),
                        new Problem(5, "'id' must not contain a control character (U+007F)")),
                refused.problems());
        assertEquals(List.of(), all(store, CITIES), "nothing of the refused batch applied");
        assertEquals(1, store.replace(CITIES, List.of(batch.getLast()).iterator()), "a surrogate pair is a character");
    }

    @Test
    void texts_may_move_between_ids_in_one_batch_but_not_onto_an_id_that_keeps_its_own() {
        store.upsert(CITIES, List.of(record("a", "Paris"), record("b", "London"), record("c", "Rome")));
        store.upsert(CITIES, List.of(record("a", "London"), record("b", "Paris")));
        assertEquals(List.of(record("a", "London"), record("b", "Paris"), record("c", "Rome")), all(store, CITIES));

        InvalidRecordsException refused = assertThrows(
                InvalidRecordsException.class,
                () -> store.upsert(CITIES, List.of(record("d", "Berlin"), record("a", "rome"))));
        assertEquals(
                List.of(new Problem(
                        1,
                        "text 'rome' is already the text of id 'c' (texts are compared ignoring "
                                + "case, accents, punctuation and spacing)")),
                refused.problems());
        assertEquals(3, all(store, CITIES).size());
    }

    @Test
    void delete_removes_one_record_and_reports_its_text_or_nothing_when_absent() {
        store.upsert(CITIES, List.of(record("p", "Paris"), record("l", "London")));
        Optional<Change> deleted = store.delete(CITIES, "p");
        assertEquals(Kind.DELETE, deleted.orElseThrow().kind());
        assertEquals("Paris", deleted.orElseThrow().previousText());
        assertEquals(List.of("l"), ids(all(store, CITIES)));
        assertTrue(store.delete(CITIES, "p").isEmpty());
        assertTrue(store.delete(new CatalogRef("acme", "nothing"), "p").isEmpty());
        store.upsert(CITIES, List.of(record("x", "Paris")));
        assertEquals(List.of("l", "x"), ids(all(store, CITIES)), "a deleted text is free again");
    }

    @Test
    void pages_follow_ids_after_the_cursor() {
        store.upsert(
                CITIES,
                IntStream.range(0, 10)
                        .mapToObj(i -> record("id" + i, "City " + i))
                        .toList());
        assertEquals(List.of("id0", "id1", "id2"), ids(store.page(CITIES, null, 3)));
        assertEquals(List.of("id3", "id4", "id5"), ids(store.page(CITIES, "id2", 3)));
        store.upsert(CITIES, List.of(record("id25", "City 25")));
        assertEquals(List.of("id25", "id3", "id4"), ids(store.page(CITIES, "id2", 3)), "a page sees earlier writes");
        assertEquals(List.of("id9"), ids(store.page(CITIES, "id8", 3)));
        assertEquals(List.of(), store.page(CITIES, "id9", 3));
    }

    @Test
    void replace_swaps_the_whole_catalog_and_refuses_repeats_applying_nothing() {
        store.upsert(CITIES, List.of(record("old", "Old town")));
        long count = store.replace(
                CITIES, List.of(record("a", "Amsterdam"), record("b", "Bern")).iterator());
        assertEquals(2, count);
        assertEquals(List.of("a", "b"), ids(all(store, CITIES)));

        InvalidRecordsException refused = assertThrows(
                InvalidRecordsException.class,
                () -> store.replace(
                        CITIES,
                        List.of(record("c", "Cork"), record("c", "Cadiz"), record("d", "CORK"), record("e", ""))
                                .iterator()));
        assertEquals(
                List.of(3L),
                refused.problems().stream().map(Problem::index).toList(),
                "a bad shape is reported before repeats are looked for");
        refused = assertThrows(
                InvalidRecordsException.class,
                () -> store.replace(
                        CITIES,
                        List.of(record("c", "Cork"), record("c", "Cadiz"), record("d", "CORK"), record("e", "Evora"))
                                .iterator()));
        assertEquals(
                List.of(
                        new Problem(1, "id 'c' is also the id of an earlier record of this write"),
                        new Problem(
                                2,
                                "text 'CORK' is also the text of an earlier record of this write (texts are compared ignoring"
                                        + " case, accents, punctuation and spacing)")),
                refused.problems());
        assertEquals(List.of("a", "b"), ids(all(store, CITIES)), "nothing of the refused replace applied");

        assertEquals(0, store.replace(CITIES, Collections.emptyIterator()));
        assertTrue(store.holds(CITIES), "an emptied catalog is still held");
    }

    @Test
    void seeding_happens_once_and_keeps_the_files_digest() {
        assertTrue(store.seed(CITIES, List.of(record("p", "Paris")).iterator(), "sha256:one"));
        assertFalse(store.seed(CITIES, List.of(record("x", "Xanten")).iterator(), "sha256:two"));
        assertEquals(List.of("p"), ids(all(store, CITIES)));
        assertEquals(Optional.of("sha256:one"), store.seedDigest(CITIES));
        store.replace(CITIES, List.of(record("r", "Rome")).iterator());
        assertEquals(Optional.of("sha256:one"), store.seedDigest(CITIES), "a replace keeps the seed's digest");
        assertEquals(Optional.empty(), store.seedDigest(OTHER));
        store.upsert(OTHER, List.of(record("z", "Zoe")));
        assertEquals(Optional.empty(), store.seedDigest(OTHER), "held without a seed file");
        assertFalse(
                store.seed(OTHER, List.of(record("y", "Yan")).iterator(), "sha256:three"),
                "a catalog filled through the API is not seeded");
    }

    @Test
    void changes_since_a_sequence_list_every_later_write_with_the_records_stored_now() {
        long start = store.lastSequence();
        store.upsert(CITIES, List.of(record("p", "Paris"), record("l", "London")));
        store.upsert(CITIES, List.of(record("p", "Paris, France")));
        store.delete(CITIES, "l");
        store.replace(OTHER, List.of(record("z", "Zoe")).iterator());

        List<Change> changes = store.changesSince(start, 100);
        assertEquals(
                List.of(Kind.UPSERT, Kind.UPSERT, Kind.UPSERT, Kind.DELETE, Kind.REPLACE),
                changes.stream().map(Change::kind).toList());
        assertEquals(record("p", "Paris, France"), changes.get(0).record(), "joined to the record stored now");
        assertNull(changes.get(1).record(), "London was deleted since");
        assertEquals("Paris", changes.get(2).previousText());
        assertEquals("London", changes.get(3).previousText());
        assertEquals(OTHER, changes.get(4).catalog());
        assertEquals(store.lastSequence(), changes.get(4).sequence());
        for (int i = 1; i < changes.size(); i++) {
            assertTrue(changes.get(i).sequence() > changes.get(i - 1).sequence());
        }
        assertEquals(changes.subList(3, 5), store.changesSince(changes.get(2).sequence(), 100));
        assertEquals(changes.subList(0, 2), store.changesSince(start, 2));
        assertEquals(List.of(), store.changesSince(store.lastSequence(), 100));
    }

    @Test
    void a_reader_during_replaces_sees_the_old_catalog_or_the_new_never_a_mix() throws Exception {
        readersDuringReplaces(2000); // replaced in place
    }

    @Test
    void a_reader_during_replaces_written_as_new_versions_sees_the_old_catalog_or_the_new() throws Exception {
        readersDuringReplaces(JdbcCatalogStore.BUILD_CHUNK + 500);
    }

    private void readersDuringReplaces(int size) throws Exception {
        store.replace(CITIES, generation("g0", size));
        AtomicBoolean writing = new AtomicBoolean(true);
        ConcurrentLinkedQueue<String> mixes = new ConcurrentLinkedQueue<>();
        CountDownLatch reading = new CountDownLatch(1);
        Set<String> seen = Collections.synchronizedSet(new HashSet<>());
        Thread reader = Thread.ofPlatform().start(() -> {
            reading.countDown();
            while (writing.get()) {
                Set<String> generations = new HashSet<>();
                int[] count = {0};
                store.forEach(CITIES, r -> {
                    generations.add(r.text().substring(0, r.text().indexOf(' ')));
                    count[0]++;
                });
                List<OptionRecord> page = store.page(CITIES, null, size);
                page.forEach(r ->
                        generations.add("page-" + r.text().substring(0, r.text().indexOf(' '))));
                if (generations.size() != 2 || count[0] != size || page.size() != size) {
                    mixes.add(generations + " in " + count[0] + " records");
                }
                seen.addAll(generations);
            }
        });
        reading.await();
        for (int g = 1; g <= 12; g++) {
            store.replace(CITIES, generation("g" + g, size));
        }
        writing.set(false);
        reader.join(TimeUnit.SECONDS.toMillis(60));
        assertTrue(mixes.isEmpty(), mixes.toString());
        assertTrue(seen.size() > 2, "the reader saw more than one generation: " + seen);
    }

    /** Records i of a generation: ids shared by every generation (so old and new overlap), texts not. */
    static Iterator<OptionRecord> generation(String name, int size) {
        return IntStream.range(0, size)
                .mapToObj(i -> record("id" + i, name + " item " + i))
                .iterator();
    }

    @Test
    void another_store_on_the_same_database_hears_of_a_write_within_two_seconds() throws Exception {
        try (CatalogStore other = openAgain()) {
            long before = other.lastSequence();
            CountDownLatch heard = new CountDownLatch(1);
            other.onExternalChange(heard::countDown);
            CountDownLatch echoed = new CountDownLatch(1);
            store.onExternalChange(echoed::countDown);
            store.upsert(CITIES, List.of(record("p", "Paris")));
            assertTrue(heard.await(2, TimeUnit.SECONDS), "no change heard within two seconds");
            List<Change> changes = other.changesSince(before, 10);
            assertEquals(record("p", "Paris"), changes.get(0).record());
            assertFalse(echoed.await(1500, TimeUnit.MILLISECONDS), "a store's own write is not external");
        }
    }

    @Test
    void a_patch_merges_into_the_stored_record_and_logs_an_upsert_with_the_previous_text() {
        store.upsert(
                CITIES,
                List.of(
                        new OptionRecord("p-1", "Porto", List.of("opo"), 3, Map.of("fr", "Porto")),
                        record("p-2", "Lisbon")));
        long before = store.lastSequence();
        List<Change> changes = store.patch(CITIES, List.of(new OptionPatch("p-1", "Oporto", null, 9.0, null)));
        OptionRecord patched = store.get(CITIES, "p-1").orElseThrow();
        assertEquals(new OptionRecord("p-1", "Oporto", List.of("opo"), 9, Map.of("fr", "Porto")), patched);
        assertEquals(1, changes.size());
        assertEquals(Kind.UPSERT, changes.getFirst().kind());
        assertEquals("Porto", changes.getFirst().previousText());
        assertEquals(
                List.of("p-1"),
                store.changesSince(before, 10).stream().map(Change::id).toList(),
                "in the change log, for other replicas");
        assertEquals(2, store.count(CITIES));
        assertEquals(Optional.empty(), store.get(CITIES, "p-3"));
    }

    @Test
    void a_patch_of_an_absent_id_or_to_a_taken_text_applies_nothing() {
        store.upsert(CITIES, List.of(record("p-1", "Porto"), record("p-2", "Lisbon")));
        InvalidRecordsException refused = assertThrows(
                InvalidRecordsException.class,
                () -> store.patch(
                        CITIES,
                        List.of(
                                new OptionPatch("p-1", null, null, 5.0, null),
                                new OptionPatch("p-9", null, null, 1.0, null),
                                new OptionPatch("p-2", "PORTO!", null, null, null))));
        assertEquals(
                List.of(1L, 2L),
                refused.problems().stream().map(Problem::index).toList(),
                refused.problems().toString());
        assertEquals(0, store.get(CITIES, "p-1").orElseThrow().weight(), "nothing applied");
    }

    @Test
    void a_batch_delete_removes_the_ids_present_in_one_transaction() {
        store.upsert(CITIES, List.of(record("d-1", "Delft"), record("d-2", "Dublin"), record("d-3", "Dakar")));
        List<Change> changes = store.delete(CITIES, List.of("d-1", "d-404", "d-3", "d-1"));
        assertEquals(List.of("d-1", "d-3"), changes.stream().map(Change::id).toList());
        assertEquals(
                List.of("Delft", "Dakar"),
                changes.stream().map(Change::previousText).toList());
        assertEquals(List.of("d-2"), ids(store.page(CITIES, null, 10)));
    }

    @Test
    void a_page_filtered_by_a_folded_prefix_keeps_texts_with_a_word_so_starting() {
        store.upsert(
                CITIES,
                List.of(
                        record("c-1", "São Paulo"),
                        record("c-2", "Saint-Louis"),
                        record("c-3", "Apaulo"),
                        record("c-4", "Santa Paula"),
                        record("c-5", "Oslo")));
        assertEquals(List.of("c-1", "c-4"), ids(store.page(CITIES, null, 10, "paul")));
        assertEquals(List.of("c-2"), ids(store.page(CITIES, null, 10, "saint lo")));
        assertEquals(List.of("c-4"), ids(store.page(CITIES, "c-1", 10, "paul")), "after a cursor");
        assertEquals(List.of("c-1"), ids(store.page(CITIES, null, 1, "s")));
        assertEquals(5, store.page(CITIES, null, 10, null).size());
        assertThrows(IllegalArgumentException.class, () -> store.page(CITIES, null, 10, "50%"));
    }

    @Test
    void a_replace_lets_other_writes_through_between_its_chunks_and_readers_see_the_old_records_until_it_switches()
            throws Exception {
        store.replace(CITIES, generation("g0", 100));
        int size = 3 * JdbcCatalogStore.BUILD_CHUNK + 10;
        Iterator<OptionRecord> g1 = generation("g1", size);
        List<String> during = new ArrayList<>();
        Iterator<OptionRecord> watched = new Iterator<>() {
            int given;

            @Override
            public boolean hasNext() {
                return g1.hasNext();
            }

            @Override
            public OptionRecord next() {
                if (given++ == 2 * JdbcCatalogStore.BUILD_CHUNK + 5) {
                    // Two chunks are written: another catalog's write goes through now, not after the replace
                    // (one transaction for the whole replace kept it waiting, and this call with it: a deadlock).
                    try {
                        CompletableFuture.runAsync(() -> store.upsert(OTHER, List.of(record("z", "Zoe"))), OWN_THREAD)
                                .get(10, TimeUnit.SECONDS);
                    } catch (Exception e) {
                        throw new AssertionError("another catalog's write waited for the replace", e);
                    }
                    during.add(store.count(CITIES) + " "
                            + all(store, CITIES).getFirst().text());
                }
                return g1.next();
            }
        };
        assertEquals(size, store.replace(CITIES, watched));
        assertEquals(List.of("100 g0 item 0"), during, "readers saw the old records while the new were written");
        assertEquals(size, store.count(CITIES));
        assertEquals("g1 item 0", all(store, CITIES).getFirst().text());
        assertEquals(List.of("z"), ids(all(store, OTHER)));
        assertEquals(size + 1, rows("SELECT COUNT(*) FROM catalog_options"), "the old records were dropped");
        assertEquals(0, rows("SELECT COUNT(*) FROM catalog_builds"));
        assertEquals(
                List.of(Kind.UPSERT, Kind.REPLACE),
                store.changesSince(store.lastSequence() - 2, 10).stream()
                        .map(Change::kind)
                        .toList(),
                "the replace is logged when it switches, after the write that went in meanwhile");
    }

    @Test
    void a_small_replace_of_a_large_catalog_drops_the_old_records_a_chunk_at_a_time() throws Exception {
        store.replace(CITIES, generation("g0", 3 * JdbcCatalogStore.BUILD_CHUNK));
        List<String> versions = new ArrayList<>();
        ((JdbcCatalogStore) store).beforeSwitch = () -> versions.add("written as a version");
        store.replace(OTHER, List.of(record("z", "Zoe")).iterator());
        assertEquals(List.of(), versions, "a small catalog is replaced in place");
        assertEquals(1, store.replace(CITIES, List.of(record("a", "Amsterdam")).iterator()));
        assertEquals(List.of("written as a version"), versions, "deleting the large one is no short write");
        assertEquals(List.of("a"), ids(all(store, CITIES)));
        assertEquals(2, rows("SELECT COUNT(*) FROM catalog_options"));
        assertEquals(0, rows("SELECT COUNT(*) FROM catalog_builds"));
    }

    @Test
    void a_version_a_sweep_took_for_abandoned_is_never_switched_to() throws Exception {
        store.replace(CITIES, List.of(record("a", "Amsterdam")).iterator());
        // The writer paused past the abandonment delay (a stopped process) and another process swept meanwhile.
        ((JdbcCatalogStore) store).beforeSwitch = () -> runNow(() -> {
            try (Connection connection = connect();
                    Statement statement = connection.createStatement()) {
                statement.executeUpdate("UPDATE catalog_builds SET started_millis = 0");
            } catch (Exception e) {
                throw new AssertionError(e);
            }
            store.dropAbandoned();
        });
        StorageUnavailableException refused = assertThrows(
                StorageUnavailableException.class,
                () -> store.replace(CITIES, generation("g1", JdbcCatalogStore.BUILD_CHUNK + 10)));
        assertTrue(refused.getMessage().contains("taken for abandoned"), refused.getMessage());
        assertOnlyAmsterdamAndNoVersionLeft();
    }

    @Test
    void repeats_across_a_replaces_chunks_are_refused_and_a_failed_replace_leaves_no_rows_behind() throws Exception {
        store.replace(CITIES, List.of(record("a", "Amsterdam")).iterator());
        int chunk = JdbcCatalogStore.BUILD_CHUNK;
        List<OptionRecord> records = new ArrayList<>();
        generation("g1", 2 * chunk + 10).forEachRemaining(records::add);
        records.set(chunk + 3, record("id1", "Elsewhere"));
        records.set(2 * chunk + 7, record("other", "G1 ITEM 2"));
        InvalidRecordsException refused =
                assertThrows(InvalidRecordsException.class, () -> store.replace(CITIES, records.iterator()));
        assertEquals(
                List.of(
                        new Problem(chunk + 3, "id 'id1' is also the id of an earlier record of this write"),
                        new Problem(
                                2L * chunk + 7,
                                "text 'G1 ITEM 2' is also the text of an earlier record of this write (texts are"
                                        + " compared ignoring case, accents, punctuation and spacing)")),
                refused.problems());

        Iterator<OptionRecord> failing = IntStream.range(0, 2 * chunk)
                .mapToObj(i -> {
                    if (i == chunk + 1) {
                        throw new IllegalStateException("the file went away");
                    }
                    return record("f" + i, "F " + i);
                })
                .iterator();
        assertThrows(IllegalStateException.class, () -> store.replace(CITIES, failing));

        assertOnlyAmsterdamAndNoVersionLeft();
    }

    @Test
    void rows_a_dead_writer_left_behind_are_dropped_and_a_build_under_way_is_not() throws Exception {
        store.replace(CITIES, List.of(record("a", "Amsterdam")).iterator());
        try (Connection connection = connect()) {
            for (String key : List.of("cities\u0001dead", "cities\u0001live")) {
                try (PreparedStatement build = connection.prepareStatement(
                        "INSERT INTO catalog_builds (tenant, rows_key, started_millis, dropping) VALUES (?, ?, ?, 0)")) {
                    build.setString(1, CITIES.tenant());
                    build.setString(2, key);
                    build.setLong(3, key.endsWith("dead") ? 0 : System.currentTimeMillis());
                    build.executeUpdate();
                }
                try (PreparedStatement row = connection.prepareStatement("INSERT INTO catalog_options (tenant, "
                        + "catalog, id, text, folded, aliases, weight, translations) VALUES (?, ?, 'x', 'X', 'x', "
                        + "'[]', 0, '{}')")) {
                    row.setString(1, CITIES.tenant());
                    row.setString(2, key);
                    row.executeUpdate();
                }
            }
        }
        try (CatalogStore again = openAgain()) {
            again.dropAbandoned(); // as another process would
            assertEquals(List.of("a"), ids(all(again, CITIES)));
        }
        assertEquals(2, rows("SELECT COUNT(*) FROM catalog_options"), "the abandoned build's row is gone");
        assertEquals(1, rows("SELECT COUNT(*) FROM catalog_builds WHERE rows_key LIKE '%live'"));
    }

    @Test
    void a_large_upsert_lets_other_writes_through_and_keeps_those_made_meanwhile() throws Exception {
        store.replace(CITIES, generation("g0", 100));
        List<OptionRecord> upsert = new ArrayList<>();
        for (int i = 0; i < JdbcCatalogStore.VERSIONED_UPSERT; i++) {
            upsert.add(record("u" + i, "Upserted " + i));
        }
        upsert.add(record("id0", "Zero again"));
        List<String> meanwhile = new ArrayList<>();
        ((JdbcCatalogStore) store).beforeSwitch = () -> meanwhile.add("written "
                + runNow(() -> {
                    store.upsert(CITIES, List.of(record("id1", "Changed one"), record("n", "Newcomer")));
                    store.delete(CITIES, "id2");
                    store.upsert(OTHER, List.of(record("z", "Zoe")));
                }));
        List<Change> changes = store.upsert(CITIES, upsert);
        assertEquals(List.of("written true"), meanwhile, "other writes went through while the upsert was written");
        assertEquals(List.of(Kind.REPLACE), changes.stream().map(Change::kind).toList());
        assertEquals(100 - 1 + 1 + upsert.size() - 1, store.count(CITIES));
        assertEquals("Changed one", store.get(CITIES, "id1").orElseThrow().text(), "a write meanwhile is kept");
        assertEquals(Optional.empty(), store.get(CITIES, "id2"), "so is a delete");
        assertEquals("Zero again", store.get(CITIES, "id0").orElseThrow().text());
        assertEquals("Upserted 7", store.get(CITIES, "u7").orElseThrow().text());
        assertTrue(store.get(CITIES, "n").isPresent());
        assertEquals(store.count(CITIES) + 1, rows("SELECT COUNT(*) FROM catalog_options"));
        assertEquals(0, rows("SELECT COUNT(*) FROM catalog_builds"));

        // A write meanwhile that takes a text of the upsert: the upsert is then refused as one transaction would.
        List<OptionRecord> again =
                upsert.stream().map(r -> record(r.id(), r.text() + " (2)")).toList();
        ((JdbcCatalogStore) store).beforeSwitch =
                () -> runNow(() -> store.upsert(CITIES, List.of(record("x", "Upserted 5 (2)"))));
        InvalidRecordsException refused =
                assertThrows(InvalidRecordsException.class, () -> store.upsert(CITIES, again));
        assertEquals(
                List.of(5L), refused.problems().stream().map(Problem::index).toList());
        assertEquals("Upserted 5", store.get(CITIES, "u5").orElseThrow().text(), "nothing of it applied");
        assertTrue(store.get(CITIES, "x").isPresent());
        assertEquals(store.count(CITIES) + 1, rows("SELECT COUNT(*) FROM catalog_options"));
        assertEquals(0, rows("SELECT COUNT(*) FROM catalog_builds"));

        // A replace meanwhile: the upsert is written again on the replaced catalog, still as a new version (one
        // transaction for it all would hold every catalog's writes).
        List<OptionRecord> third = upsert.stream()
                .limit(JdbcCatalogStore.VERSIONED_UPSERT)
                .map(r -> record(r.id(), r.text() + " (3)"))
                .toList();
        AtomicBoolean once = new AtomicBoolean();
        ((JdbcCatalogStore) store).beforeSwitch = () -> {
            if (once.compareAndSet(false, true)) {
                runNow(() -> store.replace(
                        CITIES, List.of(record("r", "Replaced meanwhile")).iterator()));
            }
        };
        List<Change> onReplaced = store.upsert(CITIES, third);
        assertEquals(
                List.of(Kind.REPLACE), onReplaced.stream().map(Change::kind).toList());
        assertEquals(JdbcCatalogStore.VERSIONED_UPSERT + 1, store.count(CITIES), "the replace, then the upsert");
        assertTrue(store.get(CITIES, "r").isPresent());
        assertEquals(store.count(CITIES) + 1, rows("SELECT COUNT(*) FROM catalog_options"));
        assertEquals(0, rows("SELECT COUNT(*) FROM catalog_builds"));
    }

    /**
     * A replace meanwhile on every try (a storm of them): the large upsert is refused, nothing of it written, rather
     * than written in one transaction, which would hold every other catalog's writes for as long as it takes. (A large
     * patch meets the same refusal; a replace meanwhile that drops its ids refuses it as records of absent ids.)
     */
    @Test
    void a_large_upsert_that_meets_a_replace_on_every_try_is_refused_with_nothing_written() throws Exception {
        List<OptionRecord> upsert = IntStream.range(0, JdbcCatalogStore.VERSIONED_UPSERT)
                .mapToObj(i -> record("u" + i, "Upserted " + i))
                .toList();
        store.replace(CITIES, List.of(record("a", "Amsterdam")).iterator());
        AtomicInteger replaces = new AtomicInteger();
        ((JdbcCatalogStore) store).beforeSwitch = () -> runNow(() -> store.replace(
                CITIES,
                List.of(record("r" + replaces.incrementAndGet(), "Replaced meanwhile"))
                        .iterator()));
        CatalogChangedException refused =
                assertThrows(CatalogChangedException.class, () -> store.upsert(CITIES, upsert));
        assertEquals(JdbcCatalogStore.VERSION_ATTEMPTS, refused.tries());
        assertEquals(JdbcCatalogStore.VERSION_ATTEMPTS, replaces.get(), "a replace met each try");
        assertEquals(
                List.of("r" + JdbcCatalogStore.VERSION_ATTEMPTS),
                ids(all(store, CITIES)),
                "the last replace, and nothing of the upsert");
        assertEquals(1, rows("SELECT COUNT(*) FROM catalog_options"), "no version's rows are left");
        assertEquals(0, rows("SELECT COUNT(*) FROM catalog_builds"));
    }

    @Test
    void a_large_patch_is_written_as_a_new_version_unless_a_patched_id_changes_meanwhile() throws Exception {
        int size = JdbcCatalogStore.VERSIONED_UPSERT + 10;
        store.replace(CITIES, generation("g0", size));
        List<OptionPatch> heavier = IntStream.range(0, JdbcCatalogStore.VERSIONED_UPSERT)
                .mapToObj(i -> new OptionPatch("id" + i, null, null, 5.0, null, null))
                .toList();
        ((JdbcCatalogStore) store).beforeSwitch =
                () -> runNow(() -> store.upsert(CITIES, List.of(record("id" + (size - 1), "Written meanwhile"))));
        assertEquals(
                List.of(Kind.REPLACE),
                store.patch(CITIES, heavier).stream().map(Change::kind).toList());
        assertEquals(5.0, store.get(CITIES, "id7").orElseThrow().weight());
        assertEquals("g0 item 7", store.get(CITIES, "id7").orElseThrow().text());
        assertEquals(
                "Written meanwhile",
                store.get(CITIES, "id" + (size - 1)).orElseThrow().text());
        assertEquals(size, store.count(CITIES));

        // A write meanwhile to a patched id: the patch is merged again into it, still written as a version.
        List<OptionPatch> lighter = IntStream.range(0, JdbcCatalogStore.VERSIONED_UPSERT)
                .mapToObj(i -> new OptionPatch("id" + i, null, null, 1.0, null, null))
                .toList();
        ((JdbcCatalogStore) store).beforeSwitch =
                () -> runNow(() -> store.upsert(CITIES, List.of(record("id3", "Renamed meanwhile"))));
        assertEquals(
                List.of(Kind.REPLACE),
                store.patch(CITIES, lighter).stream().map(Change::kind).toList(),
                "merged again, not left to one transaction");
        OptionRecord id3 = store.get(CITIES, "id3").orElseThrow();
        assertEquals("Renamed meanwhile", id3.text(), "the write meanwhile is not lost");
        assertEquals(1.0, id3.weight());

        // Refused without a transaction, by patch index: an absent id, a text another id keeps.
        List<OptionPatch> bad = new ArrayList<>(lighter);
        bad.set(4, new OptionPatch("absent", null, null, 1.0, null, null));
        bad.set(9, new OptionPatch("id9", "g0 item " + (size - 2), null, null, null, null));
        ((JdbcCatalogStore) store).beforeSwitch = () -> {
            throw new AssertionError("a refused patch is not written");
        };
        InvalidRecordsException refused = assertThrows(InvalidRecordsException.class, () -> store.patch(CITIES, bad));
        assertEquals(
                List.of(4L, 9L), refused.problems().stream().map(Problem::index).toList());
        assertEquals("g0 item 9", store.get(CITIES, "id9").orElseThrow().text());
        assertEquals(store.count(CITIES), rows("SELECT COUNT(*) FROM catalog_options"));
        assertEquals(0, rows("SELECT COUNT(*) FROM catalog_builds"));
    }

    /** Runs {@code writes} on another thread and waits for them (at most 10 s): true when they are done. */
    private static boolean runNow(Runnable writes) {
        try {
            CompletableFuture.runAsync(writes, OWN_THREAD).get(10, TimeUnit.SECONDS);
            return true;
        } catch (Exception e) {
            throw new AssertionError("a write waited", e);
        }
    }

    /** CITIES holds its one record "a" as before a refused or failed write, and nothing of that write is left. */
    private void assertOnlyAmsterdamAndNoVersionLeft() throws Exception {
        assertEquals(List.of("a"), ids(all(store, CITIES)), "the catalog is as it was");
        assertEquals(1, rows("SELECT COUNT(*) FROM catalog_options"), "no rows of the write are left");
        assertEquals(0, rows("SELECT COUNT(*) FROM catalog_builds"));
    }

    /** The one number a query of the raw tables answers. */
    private long rows(String sql) throws Exception {
        try (Connection connection = connect();
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        }
    }
}
