package dev.autocomplete.server.catalogs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.index.CatalogEntry;
import dev.autocomplete.index.LiveOptions;
import dev.autocomplete.spi.AdditionalContext;
import dev.autocomplete.spi.Ask;
import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.Option;
import dev.autocomplete.spi.SpanMatch;
import dev.autocomplete.spi.toolkit.TextFolding;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** A catalog that takes writes: a main index, a delta and deletions answer as one index of the same options. */
class LiveOptionsTest {

    private static final List<CatalogEntry> CITIES = List.of(
            new CatalogEntry("London", List.of("LHR"), 9_000_000, Map.of("fr", "Londres")),
            new CatalogEntry("Lyon", 500_000),
            new CatalogEntry("Paris", 2_100_000),
            new CatalogEntry("Londrina", 400_000));

    private static final List<String> SYLLABLES =
            List.of("lon", "don", "par", "is", "san", "ta", "bo", "go", "ber", "lin", "mar", "sei", "lle", "ro", "ma");

    /** An engine with two params on one list, so that a pick of one is not offered for the other. */
    private static Engine engine(Supplier<LiveOptions> options) {
        return CatalogSources.engine(
                "test/travel",
                Map.of(
                        "origin",
                        new CatalogSources.Source("catalog:cities", options),
                        "destination",
                        new CatalogSources.Source("catalog:cities", options)));
    }

    private static Ask ask(String type, List<String> languages, int limit, Map<String, String> filled) {
        return new Ask(
                type,
                languages,
                AdditionalContext.NONE,
                filled,
                LocalDate.of(2026, 3, 12),
                limit,
                System.nanoTime() + 1_000_000_000L);
    }

    private static List<String> texts(LiveOptions options, String typed) {
        return engine(() -> options).options(ask("origin", List.of(), 10, Map.of()), typed).stream()
                .map(Option::text)
                .toList();
    }

    private static SpanMatch match(LiveOptions options, String span) {
        return engine(() -> options)
                .match(ask("origin", List.of(), 10, Map.of()), List.of(span))
                .getFirst();
    }

    @Test
    void an_upsert_is_found_and_ranked_among_the_main_options_by_weight() {
        LiveOptions options =
                LiveOptions.of(CITIES).with(List.of(new CatalogEntry("Lonely Island", 1_000_000)), List.of());
        assertEquals(List.of("London", "Lonely Island", "Londrina"), texts(options, "lon"));
        assertEquals(List.of("London", "Paris", "Lonely Island", "Lyon", "Londrina"), texts(options, ""));
        assertEquals(SpanMatch.exact("Lonely Island"), match(options, "lonely island"));
        assertEquals(5, options.size());
    }

    @Test
    void an_upsert_of_a_text_that_folds_like_an_option_replaces_it() {
        LiveOptions options =
                LiveOptions.of(CITIES).with(List.of(new CatalogEntry("LONDON", List.of(), 1, Map.of())), List.of());
        assertEquals(List.of("Londrina", "LONDON"), texts(options, "lon"), "the new weight ranks it last");
        assertEquals(SpanMatch.NONE, match(options, "lhr"), "the old alias is gone with the old option");
        assertEquals(
                List.of("London"),
                texts(
                        options.with(List.of(new CatalogEntry("london", 3)), List.of())
                                .with(List.of(new CatalogEntry("London", 5)), List.of()),
                        "london"));
        assertEquals(4, options.size());
    }

    @Test
    void a_removed_text_is_gone_from_every_answer_whatever_its_case_or_accents() {
        LiveOptions options = LiveOptions.of(CITIES).with(List.of(), List.of("LONDON", "Nowhere"));
        assertEquals(List.of("Londrina"), texts(options, "lon"));
        assertEquals(SpanMatch.NONE, match(options, "lhr"));
        assertEquals(SpanMatch.NONE, match(options, "londres"));
        assertEquals(List.of("Paris", "Lyon", "Londrina"), texts(options, ""));
        assertEquals(3, options.size());
        LiveOptions added = options.with(List.of(new CatalogEntry("Lóndon", 7)), List.of());
        assertEquals(
                List.of("Lóndon", "Londrina"),
                texts(
                        added.with(List.of(), List.of("londrina"))
                                .with(List.of(new CatalogEntry("Londrina", 1)), List.of()),
                        "lon"),
                "removed, then upserted again");
        assertEquals(
                List.of("Londrina"),
                texts(added.with(List.of(), List.of("london")), "lon"),
                "an option of the delta is removed too");
    }

    @Test
    void a_snapshot_answers_the_same_after_later_writes_and_folds() {
        LiveOptions before = LiveOptions.of(CITIES);
        LiveOptions after = before.with(List.of(new CatalogEntry("Longyearbyen", 10_000_000)), List.of("Londrina"));
        LiveOptions folded = after.folded();
        assertEquals(List.of("London", "Londrina"), texts(before, "lon"));
        assertEquals(List.of("Longyearbyen", "London"), texts(after, "lon"));
        assertEquals(List.of("Longyearbyen", "London"), texts(folded, "lon"));
        assertEquals(List.of("London", "Londrina"), texts(before, "lon"));
        assertEquals(0, before.version());
        assertEquals(1, after.version());
        assertEquals(1, folded.version(), "a fold changes no option");
        assertSame(folded, folded.folded());
        assertSame(after, after.with(List.of(), List.of()));
    }

    @Test
    void a_fold_is_wanted_once_pending_changes_pass_one_percent_or_a_thousand() {
        List<CatalogEntry> many = new ArrayList<>();
        for (int i = 0; i < 200_000; i++) {
            many.add(new CatalogEntry("Place " + i, i));
        }
        LiveOptions options = LiveOptions.of(many);
        List<CatalogEntry> updates = many.subList(0, 1_000);
        assertFalse(options.with(updates, List.of()).wantsFold(), "1,000 in the delta and 1,000 replaced");
        LiveOptions pending = options.with(updates, List.of("Place 5000"));
        assertTrue(pending.wantsFold());
        assertFalse(pending.folded().wantsFold());
        assertEquals(199_999, pending.folded().size());
        assertTrue(pending.heapBytes() > options.heapBytes());
    }

    @Test
    void translations_of_upserts_are_shown_and_matched() {
        LiveOptions options = LiveOptions.of(CITIES)
                .with(
                        List.of(new CatalogEntry(
                                "Munich", List.of(), 1_500_000, Map.of("de", "München", "FR", "Munich"))),
                        List.of());
        Engine engine = engine(() -> options);
        assertEquals(
                SpanMatch.exact("München"),
                engine.match(ask("origin", List.of("de"), 10, Map.of()), List.of("munchen"))
                        .getFirst());
        assertEquals(
                List.of("Londres", "Paris", "Munich", "Lyon", "Londrina"),
                engine.options(ask("origin", List.of("fr"), 10, Map.of()), "").stream()
                        .map(Option::text)
                        .toList());
        assertEquals(
                List.of("Paris", "München", "Lyon", "Londrina"),
                engine.options(ask("destination", List.of("de"), 10, Map.of("origin", "London")), "").stream()
                        .map(Option::text)
                        .toList(),
                "a pick is not offered again");
    }

    @Test
    void a_catalog_with_no_options_yet_answers_nothing_and_takes_writes() {
        LiveOptions empty = LiveOptions.of(List.of());
        assertEquals(List.of(), texts(empty, ""));
        assertEquals(List.of(), texts(empty, "lodnon"));
        assertEquals(SpanMatch.NONE, match(empty, "london"));
        LiveOptions filled = empty.with(CITIES, List.of());
        assertEquals(List.of("London", "Londrina"), texts(filled, "lon"));
        assertEquals(List.of("London", "Londrina"), texts(filled.folded(), "lon"));
        assertEquals(
                0,
                filled.with(List.of(), List.of("London", "Lyon", "Paris", "Londrina"))
                        .size());
    }

    @Test
    void the_engine_reads_the_current_snapshot_at_every_call() {
        LiveOptions[] current = {LiveOptions.of(CITIES)};
        Engine engine = engine(() -> current[0]);
        Ask ask = ask("origin", List.of(), 10, Map.of());
        assertEquals(SpanMatch.NONE, engine.match(ask, List.of("tokyo")).getFirst());
        current[0] = current[0].with(List.of(new CatalogEntry("Tokyo", 1)), List.of());
        assertEquals(
                SpanMatch.exact("Tokyo"), engine.match(ask, List.of("tokyo")).getFirst());
        assertTrue(engine.cacheable());
    }

    /**
     * Random upserts (new texts, new weights, aliases and translations, the same text in another case) and
     * removals, with and without folds, against a snapshot built at once from the same options in the same order:
     * every match and every option list, in every language, must be the same.
     */
    @Test
    void after_random_writes_every_answer_is_the_answer_of_a_full_build_of_the_same_options() {
        for (long seed = 1; seed <= 6; seed++) {
            Random random = new Random(seed);
            Map<String, CatalogEntry> model = new LinkedHashMap<>();
            while (model.size() < 400) {
                CatalogEntry entry = entry(random);
                model.put(TextFolding.fold(entry.text()), entry);
            }
            List<String> seen = new ArrayList<>(model.keySet());
            LiveOptions live = LiveOptions.of(List.copyOf(model.values()));
            for (int batch = 0; batch < 25; batch++) {
                List<String> removed = new ArrayList<>();
                List<CatalogEntry> upserts = new ArrayList<>();
                for (int i = random.nextInt(8); i > 0; i--) {
                    String text = random.nextInt(5) == 0 ? text(random) : seen.get(random.nextInt(seen.size()));
                    removed.add(random.nextBoolean() ? text.toUpperCase(Locale.ROOT) : text);
                }
                for (int i = random.nextInt(30); i > 0; i--) {
                    CatalogEntry entry = entry(random);
                    if (random.nextInt(3) == 0) {
                        // The same option again, in another case: it replaces the one it folds like.
                        String old = seen.get(random.nextInt(seen.size()));
                        entry = new CatalogEntry(
                                old.toUpperCase(Locale.ROOT), entry.aliases(), entry.weight(), entry.translations());
                    }
                    upserts.add(entry);
                    seen.add(TextFolding.fold(entry.text()));
                }
                removed.forEach(text -> model.remove(TextFolding.fold(text)));
                for (CatalogEntry entry : upserts) {
                    model.remove(TextFolding.fold(entry.text()));
                    model.put(TextFolding.fold(entry.text()), entry);
                }
                live = live.with(upserts, removed);
                if (random.nextInt(8) == 0) {
                    live = live.folded();
                }
                if (batch % 5 == 4) {
                    LiveOptions whole = LiveOptions.of(List.copyOf(model.values()));
                    assertEquals(whole.size(), live.size());
                    assertSameAnswers(whole, live, seen, random, "seed " + seed + " batch " + batch);
                }
            }
        }
    }

    private static void assertSameAnswers(
            LiveOptions whole, LiveOptions live, List<String> seen, Random random, String label) {
        Engine expected = engine(() -> whole);
        Engine actual = engine(() -> live);
        List<List<String>> languages = List.of(List.of(), List.of("fr"), List.of("de", "fr"));
        for (int q = 0; q < 300; q++) {
            String typed = query(random, seen.get(random.nextInt(seen.size())));
            List<String> language = languages.get(random.nextInt(languages.size()));
            int limit = List.of(1, 3, 10).get(random.nextInt(3));
            Map<String, String> filled =
                    random.nextInt(3) == 0 ? Map.of("destination", seen.get(random.nextInt(seen.size()))) : Map.of();
            Ask ask = ask("origin", language, limit, filled);
            String where = label + ", typed '" + typed + "' in " + language + ", limit " + limit + ", " + filled;
            assertEquals(expected.options(ask, typed), actual.options(ask, typed), where);
            assertEquals(expected.match(ask, List.of(typed)), actual.match(ask, List.of(typed)), where);
        }
    }

    /** What a user may type towards a text: a prefix, with a swap of two letters or a space after it, or nothing. */
    private static String query(Random random, String text) {
        if (random.nextInt(20) == 0) {
            return "";
        }
        String typed = text.substring(0, 1 + random.nextInt(text.length()));
        if (typed.length() > 3 && random.nextInt(3) == 0) {
            int i = 1 + random.nextInt(typed.length() - 2);
            char[] chars = typed.toCharArray();
            char swap = chars[i];
            chars[i] = chars[i + 1];
            chars[i + 1] = swap;
            typed = new String(chars);
        }
        return random.nextInt(6) == 0 ? typed + " " : typed;
    }

    private static CatalogEntry entry(Random random) {
        List<String> aliases = new ArrayList<>();
        for (int i = random.nextInt(4) - 1; i > 0; i--) {
            aliases.add(text(random));
        }
        Map<String, String> translations = new HashMap<>();
        if (random.nextInt(3) == 0) {
            translations.put("fr", text(random));
        }
        if (random.nextInt(6) == 0) {
            translations.put("de", text(random));
        }
        // Few distinct weights, so that ties are common and their order is checked too.
        double weight = random.nextInt(4) == 0 ? random.nextInt(5) : random.nextInt(1_000) / 10.0;
        return new CatalogEntry(text(random), aliases, weight, translations);
    }

    private static String text(Random random) {
        StringBuilder text = new StringBuilder();
        for (int w = 1 + random.nextInt(3); w > 0; w--) {
            if (!text.isEmpty()) {
                text.append(' ');
            }
            for (int s = 1 + random.nextInt(3); s > 0; s--) {
                text.append(SYLLABLES.get(random.nextInt(SYLLABLES.size())));
            }
        }
        return random.nextInt(4) == 0
                ? text.substring(0, 1).toUpperCase(Locale.ROOT) + text.substring(1)
                : text.toString();
    }
}
