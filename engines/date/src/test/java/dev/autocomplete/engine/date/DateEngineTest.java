package dev.autocomplete.engine.date;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.spi.AdditionalContext;
import dev.autocomplete.spi.Ask;
import dev.autocomplete.spi.ConfigTree;
import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.EngineConfigException;
import dev.autocomplete.spi.EngineContext;
import dev.autocomplete.spi.EngineFactory;
import dev.autocomplete.spi.Option;
import dev.autocomplete.spi.ParamSpec;
import dev.autocomplete.spi.SpanMatch;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.ServiceLoader;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DateEngineTest {

    // Wednesday 4 March 2026: "friday" is the 6th, "next friday" (next week's) the 13th.
    private static final LocalDate WEDNESDAY = LocalDate.of(2026, 3, 4);
    private static final String PARAM_PATH = "products[0].intents[0].params[1]";

    private final Engine engine = engine("en", Map.of(), Map.of());

    @Test
    void factory_is_found_by_service_loader_under_the_name_date() {
        List<String> names = ServiceLoader.load(EngineFactory.class).stream()
                .map(provider -> provider.get().name())
                .toList();
        assertEquals(List.of("date"), names);
    }

    @Test
    void the_engine_serves_every_param_type_assigned_to_it_and_is_cacheable() throws EngineConfigException {
        Engine two = new DateEngineFactory()
                .create(context(
                        "en",
                        Map.of(),
                        new ParamSpec("departure_date", ConfigTree.at(PARAM_PATH, Map.of())),
                        new ParamSpec("return_date", ConfigTree.at("products[0].intents[0].params[2]", Map.of()))));

        assertEquals(Set.of("departure_date", "return_date"), two.paramTypes());
        assertTrue(two.cacheable());
        assertEquals("Thursday 5 March 2026", value(two, ask("return_date", List.of("en")), "tomorrow"));
    }

    @Test
    void config_errors_name_the_full_key_in_tenant_yaml() {
        assertConfigError(PARAM_PATH + ".colour", Map.of(), Map.of("colour", "blue"));
        assertConfigError("engines.date.colour", Map.of("colour", "blue"), Map.of());
        assertConfigError(PARAM_PATH + ".default_days", Map.of(), Map.of("default_days", 0));
        assertConfigError(PARAM_PATH + ".default_days", Map.of(), Map.of("default_days", "many"));
        assertConfigError("engines.date.default_days", Map.of("default_days", 32), Map.of());
    }

    @Test
    void english_dates_are_read_as_exact_free_form_values_in_one_display_format() {
        assertEquals(
                new SpanMatch(SpanMatch.Kind.EXACT, "Thursday 12 March 2026", true), match(engine, en(), "12 March"));
        assertReads(
                en(),
                Map.ofEntries(
                        Map.entry("12 March", "Thursday 12 March 2026"),
                        Map.entry("12 march 2027", "Friday 12 March 2027"),
                        Map.entry("March 12", "Thursday 12 March 2026"),
                        Map.entry("March 12th, 2027", "Friday 12 March 2027"),
                        Map.entry("12th of March", "Thursday 12 March 2026"),
                        Map.entry("next friday", "Friday 13 March 2026"),
                        Map.entry("friday", "Friday 6 March 2026"),
                        Map.entry("this Friday", "Friday 6 March 2026"),
                        Map.entry("today", "Wednesday 4 March 2026"),
                        Map.entry("TOMORROW", "Thursday 5 March 2026"),
                        Map.entry("day after tomorrow", "Friday 6 March 2026"),
                        Map.entry("in 3 days", "Saturday 7 March 2026"),
                        Map.entry("in a week", "Wednesday 11 March 2026"),
                        Map.entry("in 2 weeks", "Wednesday 18 March 2026"),
                        Map.entry("2026-03-12", "Thursday 12 March 2026"),
                        Map.entry("Thursday 12 March 2026", "Thursday 12 March 2026")));
    }

    @Test
    void french_dates_are_read_and_shown_in_french() {
        assertReads(
                List.of("fr"),
                Map.ofEntries(
                        Map.entry("demain", "jeudi 5 mars 2026"),
                        Map.entry("aujourd'hui", "mercredi 4 mars 2026"),
                        Map.entry("après-demain", "vendredi 6 mars 2026"),
                        Map.entry("vendredi", "vendredi 6 mars 2026"),
                        Map.entry("vendredi prochain", "vendredi 13 mars 2026"),
                        Map.entry("12 mars", "jeudi 12 mars 2026"),
                        Map.entry("12 mars 2027", "vendredi 12 mars 2027"),
                        Map.entry("1er avril", "mercredi 1er avril 2026"),
                        Map.entry("dans 3 jours", "samedi 7 mars 2026"),
                        Map.entry("dans une semaine", "mercredi 11 mars 2026"),
                        Map.entry("12/03/2026", "jeudi 12 mars 2026"),
                        Map.entry("jeudi 12 mars 2026", "jeudi 12 mars 2026")));
    }

    @Test
    void german_dates_are_read_and_shown_in_german() {
        assertReads(
                List.of("de"),
                Map.ofEntries(
                        Map.entry("Freitag", "Freitag, 6. März 2026"),
                        Map.entry("morgen", "Donnerstag, 5. März 2026"),
                        Map.entry("heute", "Mittwoch, 4. März 2026"),
                        Map.entry("übermorgen", "Freitag, 6. März 2026"),
                        Map.entry("12. März", "Donnerstag, 12. März 2026"),
                        Map.entry("12. Maerz 2027", "Freitag, 12. März 2027"),
                        Map.entry("nächsten Freitag", "Freitag, 13. März 2026"),
                        Map.entry("in 3 Tagen", "Samstag, 7. März 2026"),
                        Map.entry("in einer Woche", "Mittwoch, 11. März 2026"),
                        Map.entry("12.03.2026", "Donnerstag, 12. März 2026"),
                        Map.entry("Donnerstag, 12. März 2026", "Donnerstag, 12. März 2026")));
    }

    @Test
    void a_day_and_month_without_a_year_is_the_next_such_date_on_or_after_today() {
        assertReads(
                en(),
                Map.of(
                        "4 March", "Wednesday 4 March 2026",
                        "3 March", "Wednesday 3 March 2027",
                        "February 12", "Friday 12 February 2027",
                        "29 February", "Tuesday 29 February 2028",
                        "12 March 2025", "Wednesday 12 March 2025"));
        assertReads(List.of("fr"), Map.of("3 mars", "mercredi 3 mars 2027"));
        assertReads(List.of("de"), Map.of("3. März", "Mittwoch, 3. März 2027"));
    }

    @Test
    void today_comes_from_the_ask_so_the_same_words_read_as_another_date_on_another_day() {
        Ask newYearsEve =
                new Ask("date", en(), AdditionalContext.NONE, Map.of(), LocalDate.of(2026, 12, 31), 10, Long.MAX_VALUE);

        assertEquals("Friday 1 January 2027", value(engine, newYearsEve, "tomorrow"));
        assertEquals("Friday 12 March 2027", value(engine, newYearsEve, "12 March"));
    }

    @Test
    void impossible_dates_and_weekdays_that_disagree_with_the_date_are_no_dates() {
        for (String span : List.of("30 February 2027", "31 April", "Friday 12 March 2026", "2026-02-30")) {
            assertFalse(match(engine, en(), span).kind().isValue(), span);
        }
    }

    @Test
    void a_proper_prefix_of_an_expression_is_a_prefix() {
        for (String span : List.of("12 ma", "next fr", "tomo", "t", "next", "next ", "in 3", "12 march 20", "2026-0")) {
            assertEquals(SpanMatch.PREFIX, match(engine, en(), span), span);
        }
        for (String span : List.of("dem", "aujourd'", "vendredi proch", "12 m", "dans 2 sem")) {
            assertEquals(SpanMatch.PREFIX, match(engine, List.of("fr"), span), span);
        }
        for (String span : List.of("nächsten Fr", "12. M", "über", "in 3 Ta")) {
            assertEquals(SpanMatch.PREFIX, match(engine, List.of("de"), span), span);
        }
    }

    @Test
    void connecting_words_and_other_text_are_no_dates() {
        for (String span : List.of(
                "to",
                "a",
                "in",
                "Paris",
                "12 zz",
                "tomo ",
                "",
                "!!",
                "12 March to London",
                "from",
                "London",
                "Monaco",
                "Sydney",
                "Berlin")) {
            assertEquals(SpanMatch.NONE, match(engine, en(), span), span);
        }
        assertEquals(SpanMatch.NONE, match(engine, List.of("fr"), "à"));
        assertEquals(SpanMatch.NONE, match(engine, List.of("fr"), "de"));
        assertEquals(SpanMatch.NONE, match(engine, List.of("de"), "nach"));
        assertEquals(SpanMatch.NONE, match(engine, List.of("de"), "von"));
    }

    @Test
    void match_answers_every_span_in_order() {
        List<SpanMatch> matches = engine.match(ask(en()), List.of("tomorrow", "to", "tomo"));

        assertEquals(
                List.of(SpanMatch.Kind.EXACT, SpanMatch.Kind.NONE, SpanMatch.Kind.PREFIX),
                matches.stream().map(SpanMatch::kind).toList());
    }

    @Test
    void the_request_languages_and_the_default_language_are_read_and_the_first_request_language_answers() {
        List<String> canadianFrench = List.of("fr-ca", "fr");

        assertEquals("jeudi 5 mars 2026", value(engine, ask(canadianFrench), "demain"));
        assertEquals("jeudi 5 mars 2026", value(engine, ask(canadianFrench), "tomorrow"));
        assertEquals(SpanMatch.NONE, match(engine, en(), "demain"));
        assertEquals(SpanMatch.NONE, match(engine, List.of("fr"), "Freitag"));

        Engine german = engine("de", Map.of(), Map.of());
        assertEquals("Donnerstag, 5. März 2026", value(german, ask(List.of()), "morgen"));
        assertEquals("Donnerstag, 5. März 2026", value(german, ask(List.of("es")), "morgen"));
        assertEquals("Thursday 5 March 2026", value(german, ask(en()), "morgen"));
    }

    @Test
    void with_nothing_typed_the_options_are_the_coming_days_from_today() {
        assertEquals(
                List.of(
                        "Wednesday 4 March 2026",
                        "Thursday 5 March 2026",
                        "Friday 6 March 2026",
                        "Saturday 7 March 2026",
                        "Sunday 8 March 2026",
                        "Monday 9 March 2026",
                        "Tuesday 10 March 2026"),
                texts(engine.options(ask(en()), "")));
        assertEquals(
                List.of("mercredi 4 mars 2026", "jeudi 5 mars 2026"),
                texts(engine.options(ask(List.of("fr")).withLimit(2), "")));
    }

    @Test
    void default_days_sets_how_many_days_are_offered_tenant_wide_or_per_param() {
        assertEquals(
                3,
                engine("en", Map.of("default_days", 3), Map.of())
                        .options(ask(en()), "")
                        .size());
        assertEquals(
                14,
                engine("en", Map.of("default_days", 3), Map.of("default_days", 14))
                        .options(ask(en()).withLimit(20), "")
                        .size());
    }

    @Test
    void options_carry_the_iso_date_and_the_default_language_text_as_aliases() {
        Option tomorrow = engine.options(ask(List.of("de")), "morgen").getFirst();

        assertEquals(
                new Option("morgen, Donnerstag, 5. März", List.of("2026-03-05", "Thursday 5 March 2026"), true),
                tomorrow);
    }

    @Test
    void a_complete_expression_offers_its_value_first() {
        assertEquals(
                "tomorrow, Thursday 5 March",
                texts(engine.options(ask(en()), "tomorrow")).getFirst());
        assertEquals(
                "March 1, 2027 (Monday)",
                texts(engine.options(ask(en()), "March 1")).getFirst());
        assertEquals(
                "March 10, 2026 (Tuesday)",
                texts(engine.options(ask(en()), "March 1")).get(1));
    }

    @Test
    void a_prefix_offers_the_dates_it_may_become_nearest_first() {
        assertEquals(
                List.of("12 March 2026 (Thursday)", "12 May 2026 (Tuesday)"),
                texts(engine.options(ask(en()), "12 ma")).subList(0, 2));
        assertEquals(List.of("next Friday, Friday 13 March"), texts(engine.options(ask(en()), "next fr")));
        assertEquals(List.of("tomorrow, Thursday 5 March"), texts(engine.options(ask(en()), "tomo")));
        assertEquals(
                List.of("today, Wednesday 4 March", "tomorrow, Thursday 5 March", "Tuesday 10 March 2026"),
                texts(engine.options(ask(en()), "t")).subList(0, 3));
        assertEquals(
                "demain, jeudi 5 mars",
                texts(engine.options(ask(List.of("fr")), "dem")).getFirst());
        assertEquals(
                List.of("nächsten Freitag, Freitag, 13. März"),
                texts(engine.options(ask(List.of("de")), "nächsten Fr")));
        assertEquals(List.of(), engine.options(ask(en()), "zzz"));
    }

    /**
     * An end-user trial: a German user's {@code F} was offered English Februaries ({@code February 1, 2027
     * (Montag)}), a French user's {@code m} {@code Monday, lundi 7 décembre}, and {@code 3. Mä} a month {@code Mäi}.
     * Completions are in the answer's language while it has any; what was typed is completed with a form's letters
     * only when it holds no accent the form lacks.
     */
    @Test
    void a_prefix_is_completed_in_the_answer_language_and_never_into_a_word_of_none() {
        for (String text : texts(engine.options(ask(List.of("de")), "F"))) {
            assertTrue(text.startsWith("Freitag"), text);
        }
        for (String text : texts(engine.options(ask(List.of("fr")), "m"))) {
            assertFalse(text.startsWith("Monday"), text);
        }
        List<String> may = texts(engine.options(ask(List.of("de")), "3. Mä"));
        assertTrue(may.contains("3. März 2026 (Dienstag)") || may.contains("3. März 2027 (Mittwoch)"), may.toString());
        for (String text : may) {
            assertFalse(text.contains("Mäi"), text);
        }
        // Another language's words still complete when the answer's has none: `next fr` for a German user.
        assertFalse(engine.options(ask(List.of("de")), "next fr").isEmpty());
    }

    @Test
    void options_are_cut_to_the_limit() {
        assertEquals(2, engine.options(ask(en()).withLimit(2), "12 ma").size());
        assertEquals(1, engine.options(ask(en()).withLimit(1), "").size());
    }

    @Test
    void every_option_text_reads_back_as_exactly_that_date() {
        for (String language : List.of("en", "fr", "de")) {
            Ask ask = ask(List.of(language)).withLimit(12);
            for (String typed : List.of(
                    "",
                    "t",
                    "1",
                    "18",
                    "the",
                    "ven",
                    "12 ma",
                    "in 1",
                    "dans 1",
                    "next",
                    "v",
                    "Fr",
                    "nächsten",
                    "29 f",
                    "2026-1",
                    "demain",
                    "morgen",
                    "tomorrow",
                    "mi",
                    "12/03",
                    "12.03.",
                    "12/0",
                    "next week",
                    "la semaine prochaine",
                    "nächste Woche",
                    "early April",
                    "début avril",
                    "Anfang April",
                    "end of the month",
                    "fin du mois",
                    "Ende des Monats",
                    "this weekend",
                    "ce week-end",
                    "dieses Wochenende",
                    "the 12th",
                    "Dec 24th",
                    "24 Dec",
                    "1er mars",
                    "3. Mai",
                    "tomorow",
                    "fridya",
                    "demian",
                    "morgn",
                    "in 3 days",
                    "dans 3 jours",
                    "in 3 Tagen",
                    "2026-03-12",
                    "12 mar",
                    "12. Mär",
                    "12 mars")) {
                for (Option option : engine.options(ask, typed)) {
                    String value = match(
                                    engine, ask.languages(), option.aliases().getFirst())
                            .value();
                    assertEquals(
                            new SpanMatch(SpanMatch.Kind.EXACT, value, true),
                            match(engine, ask.languages(), option.text()),
                            language + " '" + typed + "': " + option);
                }
            }
        }
    }

    @Test
    void match_and_options_never_throw_whatever_the_text() {
        Random random = new Random(42);
        String alphabet = "tomrwnextfidaeuMärzcj0123456789-./' ÓÉ\u0301ﬁ½\uD83D\uDE00";
        Ask ask = ask(List.of("fr", "de", "en"));
        for (int i = 0; i < 5_000; i++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(20);
            for (int j = 0; j < length; j++) {
                text.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String typed = text.toString();
            List<SpanMatch> matches = assertDoesNotThrow(() -> engine.match(ask, List.of(typed)), typed);
            assertEquals(1, matches.size());
            List<Option> options = assertDoesNotThrow(() -> engine.options(ask, typed), typed);
            assertTrue(options.size() <= ask.limit(), typed);
        }
    }

    @Test
    void ordinals_and_short_month_names_are_read_and_a_day_alone_is_the_next_such_day_today_included() {
        assertValues(
                en(),
                Map.of(
                        "the 12th", "Thursday 12 March 2026",
                        "the 4th", "Wednesday 4 March 2026",
                        "the 3rd", "Friday 3 April 2026",
                        "the 31st", "Tuesday 31 March 2026",
                        "Dec 24th", "Thursday 24 December 2026",
                        "24 Dec", "Thursday 24 December 2026",
                        "dec 24", "Thursday 24 December 2026",
                        "Fri 6 Mar", "Friday 6 March 2026"));
        assertValues(List.of("fr"), Map.of("1er mars", "lundi 1er mars 2027", "3 déc", "jeudi 3 décembre 2026"));
        assertValues(
                List.of("de"), Map.of("3. Mai", "Sonntag, 3. Mai 2026", "24. Dez", "Donnerstag, 24. Dezember 2026"));
    }

    /** Each span reads as the value, settled ({@code EXACT}) or settled once the user stops typing its last word. */
    private void assertValues(List<String> languages, Map<String, String> expected) {
        expected.forEach((typed, value) -> {
            SpanMatch match = match(engine, languages, typed);
            assertTrue(match.kind() == SpanMatch.Kind.EXACT || match.kind() == SpanMatch.Kind.EXACT_PREFIX, typed);
            assertEquals(value, match.value(), typed);
        });
    }

    @Test
    void a_short_month_at_the_end_of_the_text_may_still_be_typed_so_it_reads_as_an_exact_prefix() {
        assertEquals(
                new SpanMatch(SpanMatch.Kind.EXACT_PREFIX, "Thursday 12 March 2026", true),
                match(engine, en(), "12 mar"));
        assertEquals(
                new SpanMatch(SpanMatch.Kind.EXACT, "Thursday 12 March 2026", true), match(engine, en(), "12 mar "));
        assertEquals(SpanMatch.Kind.EXACT, match(engine, en(), "12 march").kind());
        assertEquals(SpanMatch.Kind.EXACT, match(engine, en(), "March 12").kind());
    }

    @Test
    void numeric_days_follow_the_region_of_the_request_language_and_bare_english_offers_both() {
        assertEquals("Thursday 12 March 2026", value(engine, ask(List.of("en-gb", "en")), "12/03"));
        assertEquals("Thursday 3 December 2026", value(engine, ask(List.of("en-us", "en")), "12/03"));
        assertEquals("jeudi 12 mars 2026", value(engine, ask(List.of("fr")), "12/03"));
        assertEquals("Donnerstag, 12. März 2026", value(engine, ask(List.of("de")), "12.03."));
        assertEquals("Thursday 3 December 2026", value(engine, ask(List.of("en-us", "en")), "12/03/2026"));
        assertEquals(SpanMatch.AMBIGUOUS, match(engine, en(), "12/03"));
        assertEquals(
                List.of("12/03, Thursday 12 March", "12/03, Thursday 3 December"),
                texts(engine.options(ask(en()), "12/03")).subList(0, 2));
        assertEquals(
                "12/03, Thursday 3 December",
                texts(engine.options(ask(List.of("en-us", "en")), "12/03")).getFirst());
    }

    @Test
    void periods_and_vague_days_are_ambiguous_with_their_days_as_options_the_first_first() {
        Map<List<String>, Map<String, List<String>>> cases = Map.of(
                en(),
                        Map.of(
                                "next week", days("2026-03-09", "2026-03-15"),
                                "this weekend", days("2026-03-07", "2026-03-08"),
                                "end of the month", days("2026-03-25", "2026-03-31"),
                                "early April", days("2026-04-01", "2026-04-10"),
                                "early March", days("2026-03-04", "2026-03-10"),
                                "late March", days("2026-03-21", "2026-03-31")),
                List.of("fr"),
                        Map.of(
                                "la semaine prochaine", days("2026-03-09", "2026-03-15"),
                                "ce week-end", days("2026-03-07", "2026-03-08"),
                                "fin du mois", days("2026-03-25", "2026-03-31"),
                                "début avril", days("2026-04-01", "2026-04-10")),
                List.of("de"),
                        Map.of(
                                "nächste Woche", days("2026-03-09", "2026-03-15"),
                                "dieses Wochenende", days("2026-03-07", "2026-03-08"),
                                "Ende des Monats", days("2026-03-25", "2026-03-31"),
                                "Anfang April", days("2026-04-01", "2026-04-10")));
        cases.forEach((languages, spans) -> spans.forEach((span, days) -> {
            assertEquals(SpanMatch.AMBIGUOUS, match(engine, languages, span), span);
            List<String> isoDates = engine.options(ask(languages).withLimit(12), span).stream()
                    .map(option -> option.aliases().getFirst())
                    .toList();
            assertEquals(days, isoDates, span);
        }));
        assertEquals(
                "next week, Monday 9 March",
                texts(engine.options(ask(en()), "next week")).getFirst());
        assertEquals(
                "dieses Wochenende, Samstag, 7. März",
                texts(engine.options(ask(List.of("de")), "dieses Wochenende")).getFirst());
    }

    @Test
    void on_a_saturday_this_weekend_starts_today() {
        Ask saturday =
                new Ask("date", en(), AdditionalContext.NONE, Map.of(), LocalDate.of(2026, 3, 7), 10, Long.MAX_VALUE);
        assertEquals(
                List.of("2026-03-07", "2026-03-08"),
                engine.options(saturday, "this weekend").stream()
                        .map(option -> option.aliases().getFirst())
                        .toList());
    }

    @Test
    void misspelt_date_words_read_loosely_with_the_corrected_date_as_the_option() {
        Map<String, String[]> cases = Map.of(
                "tomorow", new String[] {"en", "tomorrow, Thursday 5 March"},
                "fridya", new String[] {"en", "Friday 6 March 2026"},
                "demian", new String[] {"fr", "demain, jeudi 5 mars"},
                "morgn", new String[] {"de", "morgen, Donnerstag, 5. März"});
        cases.forEach((typed, expected) -> {
            assertEquals(SpanMatch.LOOSE, match(engine, List.of(expected[0]), typed), typed);
            assertEquals(List.of(expected[1]), texts(engine.options(ask(List.of(expected[0])), typed)), typed);
        });
    }

    /**
     * An end-user trial: a French pick of {@code dem} read {@code … à Londres Demain, lundi 7 décembre}. A pick replaces
     * the typed tail, mid-sentence as a rule, so the option keeps the case the words were typed in; names keep theirs.
     */
    @Test
    void an_option_keeps_the_case_its_words_were_typed_in() {
        assertEquals(
                "demain, jeudi 5 mars",
                texts(engine.options(ask(List.of("fr")), "dem")).getFirst());
        assertEquals(
                "Demain, jeudi 5 mars",
                texts(engine.options(ask(List.of("fr")), "Dem")).getFirst());
        assertEquals(
                "tomorrow, Thursday 5 March",
                texts(engine.options(ask(en()), "tomo")).getFirst());
        assertEquals(
                "Tomorrow, Thursday 5 March",
                texts(engine.options(ask(en()), "Tomo")).getFirst());
        assertEquals(
                "Tomorrow, Thursday 5 March",
                texts(engine.options(ask(en()), "Tomorow")).getFirst());
        assertEquals(
                "next Friday, Friday 13 March",
                texts(engine.options(ask(en()), "next fri")).getFirst());
        assertEquals(
                "morgen, Donnerstag, 5. März",
                texts(engine.options(ask(List.of("de")), "morg")).getFirst());
    }

    /**
     * An end-user trial: a German {@code am Fr} listed {@code Freitag, 11. Dezember 2026} beside {@code Freitag 18
     * Dezember 2026}. Words not typed are written as the display writes them, in every language.
     */
    @Test
    void words_not_typed_are_written_as_the_display_writes_them() {
        List<String> german = texts(engine.options(ask(List.of("de")).withLimit(6), "Fr"));
        assertEquals(6, german.size(), german.toString());
        german.forEach(text -> assertTrue(text.matches("Freitag, \\d{1,2}\\. \\S+ \\d{4}"), text));
        List<String> french = texts(engine.options(ask(List.of("fr")).withLimit(6), "ven"));
        french.forEach(text -> assertTrue(text.matches("vendredi \\d{1,2}(er)? \\S+ \\d{4}"), text));
        assertEquals(
                "tomorrow, Thursday 5 March",
                texts(engine.options(ask(en()), "t")).get(1));
        assertEquals(
                "18. März 2026 (Mittwoch)",
                texts(engine.options(ask(List.of("de")), "18")).getFirst());
        List<String> ordinals = texts(engine.options(ask(en()), "the"));
        assertFalse(ordinals.isEmpty());
        ordinals.forEach(text -> assertTrue(text.matches("the \\d{1,2}(st|nd|rd|th), .+"), text));
    }

    /**
     * A hostile trial typed a NUL into a date: its options repeated it, and the core dropped them with a warning that
     * blamed the engine. Text with a control character is no date; whitespace of any kind is still a space.
     */
    @Test
    void text_with_a_control_character_is_no_date() {
        assertEquals(List.of(), engine.options(ask(en()), "12\u0000 ma"));
        assertEquals(SpanMatch.NONE, match(engine, en(), "12 mar\u0007"));
        assertEquals(
                "12 March 2026 (Thursday)",
                texts(engine.options(ask(en()), "12\tmar")).getFirst());
    }

    @Test
    void an_impossible_day_of_a_month_is_no_date_and_offers_the_months_last_day_to_confirm() {
        Map<String, String> cases = Map.of(
                "31 february", "28 February 2027 (Sunday)",
                "31 feb", "28 February 2027 (Sunday)",
                "30 February 2028", "29 February 2028 (Tuesday)",
                "31 April", "30 April 2026 (Thursday)");
        cases.forEach((typed, offered) -> {
            assertEquals(SpanMatch.LOOSE, match(engine, en(), typed), typed);
            assertEquals(List.of(offered), texts(engine.options(ask(en()), typed)), typed);
        });
    }

    @Test
    void an_option_for_typed_words_starts_with_them_so_a_pick_in_the_official_client_replaces_them() {
        assertEquals(
                "12 March 2026 (Thursday)",
                texts(engine.options(ask(en()), "12 mar")).getFirst());
        assertEquals(
                "tomorrow, Thursday 5 March",
                texts(engine.options(ask(en()), "tomorrow")).getFirst());
        assertEquals(
                "in 3 days, Saturday 7 March",
                texts(engine.options(ask(en()), "in 3 days")).getFirst());
        assertEquals(
                "12 mars 2026 (jeudi)",
                texts(engine.options(ask(List.of("fr")), "12 mars")).getFirst());
        assertEquals(
                "12. März 2026 (Donnerstag)",
                texts(engine.options(ask(List.of("de")), "12. Mär")).getFirst());
        assertEquals(
                "Friday 6 March 2026", texts(engine.options(ask(en()), "fri")).getFirst());
        for (String language : List.of("en", "fr", "de")) {
            for (String typed : List.of(
                    "12 ma",
                    "12 mar",
                    "tomorrow",
                    "demain",
                    "morgen",
                    "in 2",
                    "dans 2",
                    "next fr",
                    "Dec 2",
                    "the 1",
                    "3. M",
                    "1er m",
                    "12/03",
                    "vendredi proch",
                    "nächsten Fr",
                    "18",
                    "the",
                    "Fr",
                    "ven")) {
                for (Option option : engine.options(ask(List.of(language)), typed)) {
                    assertTrue(
                            option.text()
                                    .toLowerCase(java.util.Locale.ROOT)
                                    .startsWith(typed.toLowerCase(java.util.Locale.ROOT)),
                            language + " '" + typed + "': " + option.text());
                }
            }
        }
    }

    private static List<String> days(String first, String last) {
        return LocalDate.parse(first)
                .datesUntil(LocalDate.parse(last).plusDays(1))
                .map(LocalDate::toString)
                .toList();
    }

    private static void assertReads(List<String> languages, Map<String, String> expected) {
        Engine engine = engine("en", Map.of(), Map.of());
        expected.forEach((typed, value) ->
                assertEquals(new SpanMatch(SpanMatch.Kind.EXACT, value, true), match(engine, languages, typed), typed));
    }

    private static SpanMatch match(Engine engine, List<String> languages, String span) {
        return engine.match(ask(languages), List.of(span)).getFirst();
    }

    private static String value(Engine engine, Ask ask, String span) {
        SpanMatch match = engine.match(ask, List.of(span)).getFirst();
        assertEquals(SpanMatch.Kind.EXACT, match.kind(), span);
        return match.value();
    }

    private static List<String> en() {
        return List.of("en");
    }

    private static Ask ask(List<String> languages) {
        return ask("date", languages);
    }

    private static Ask ask(String type, List<String> languages) {
        return new Ask(type, languages, AdditionalContext.NONE, Map.of(), WEDNESDAY, 10, Long.MAX_VALUE);
    }

    private static List<String> texts(List<Option> options) {
        return options.stream().map(Option::text).toList();
    }

    private static Engine engine(String defaultLanguage, Map<String, ?> tenantWide, Map<String, ?> paramConfig) {
        return assertDoesNotThrow(() -> new DateEngineFactory()
                .create(context(
                        defaultLanguage, tenantWide, new ParamSpec("date", ConfigTree.at(PARAM_PATH, paramConfig)))));
    }

    private static EngineContext context(String defaultLanguage, Map<String, ?> tenantWide, ParamSpec... params) {
        return new EngineContext(
                "acme",
                "travel",
                defaultLanguage,
                ZoneOffset.UTC,
                Path.of("."),
                ConfigTree.at("engines.date", tenantWide),
                List.of(params),
                new NoSharing());
    }

    private static void assertConfigError(String key, Map<String, ?> tenantWide, Map<String, ?> paramConfig) {
        EngineConfigException error = assertThrows(EngineConfigException.class, () -> new DateEngineFactory()
                .create(context("en", tenantWide, new ParamSpec("date", ConfigTree.at(PARAM_PATH, paramConfig)))));
        assertEquals(key, error.key(), error.getMessage());
    }

    /** Builds every shared value afresh: the date engine shares nothing. */
    private static final class NoSharing implements EngineContext.Shared {
        @Override
        public <T> T get(String key, EngineContext.Builder<T> builder) throws EngineConfigException {
            return builder.build();
        }
    }
}
