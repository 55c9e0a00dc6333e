package dev.autocomplete.engine.date;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.spi.ConfigTree;
import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.EngineConfigException;
import dev.autocomplete.spi.EngineContext;
import dev.autocomplete.spi.EngineFactory;
import dev.autocomplete.spi.Query;
import dev.autocomplete.spi.Reading;
import dev.autocomplete.spi.ReadingState;
import dev.autocomplete.spi.Segment;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.ServiceLoader;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DateEngineTest {

    // Wednesday 2026-11-25: "friday" is the 27th, "next friday" (next week's) the 4th of December.
    private static final Clock WEDNESDAY = Clock.fixed(Instant.parse("2026-11-25T10:00:00Z"), ZoneOffset.UTC);

    private final Engine engine = engine(Map.of());

    @Test
    void factory_is_found_by_service_loader_under_the_name_date() {
        List<String> names = ServiceLoader.load(EngineFactory.class).stream()
                .map(provider -> provider.get().name())
                .toList();
        assertEquals(List.of("date"), names);
    }

    @Test
    void factory_builds_an_engine_from_an_empty_config() throws EngineConfigException {
        Engine created = new DateEngineFactory().create(context(Map.of()));
        assertEquals(Set.of("date"), created.paramTypes());
        assertEquals("Remind me", created.read(query("")).prompt());
    }

    @Test
    void config_errors_name_the_offending_key() {
        assertConfigError("colour", Map.of("colour", "blue"));
        assertConfigError("time_zone", Map.of("time_zone", "Mars/Olympus_Mons"));
        assertConfigError("time_zone", Map.of("time_zone", "not a zone"));
        assertConfigError("phrases", Map.of("phrases", List.of()));
        assertConfigError("phrases[1]", Map.of("phrases", List.of("Remind me", "!!")));
        assertConfigError("prompt", Map.of("prompt", " "));
        assertConfigError("prompt", Map.of("prompt", List.of("a", "b")));
        assertConfigError("type", Map.of("type", "due-date"));
        assertConfigError("label", Map.of("label", ""));
        assertConfigError("required", Map.of("required", "yes"));
        assertConfigError("cues[0]", Map.of("cues", List.of("...")));
    }

    @Test
    void remind_me_tomorrow_identifies_tomorrow_as_a_completed_date() {
        Reading reading = engine.read(query("Remind me tomorrow"));

        assertEquals(new Reading.Intent("remind", ReadingState.COMPLETED, List.of("date")), reading.intent());
        assertEquals(List.of(new Reading.Identified("date", 10, 18, ReadingState.COMPLETED)), reading.identified());
        assertNull(reading.prompt());
        assertEquals(List.of(), reading.suggestions());
    }

    @Test
    void remind_me_on_next_fr_is_in_progress_and_filters_the_options() {
        Reading reading = engine.read(query("Remind me on next fr"));

        assertEquals(ReadingState.COMPLETED, reading.intent().state());
        assertEquals(List.of(new Reading.Identified("date", 13, 20, ReadingState.IN_PROGRESS)), reading.identified());
        assertEquals(List.of("Next Friday (2026-12-04)"), optionTexts(reading));
        assertTrue(reading.suggestions().getFirst().required());
        assertEquals("Date", reading.suggestions().getFirst().label());
    }

    @Test
    void a_one_letter_prefix_offers_every_expression_it_may_become_up_to_the_limit() {
        Reading reading = engine.read(query("Remind me t", 4));

        assertEquals(List.of(new Reading.Identified("date", 10, 11, ReadingState.IN_PROGRESS)), reading.identified());
        assertEquals(
                List.of("Today (2026-11-25)", "Tomorrow (2026-11-26)", "Thursday (2026-11-26)", "Tuesday (2026-12-01)"),
                optionTexts(reading));
    }

    @Test
    void empty_query_gives_the_prompt_and_the_default_options() {
        Reading reading = engine.read(query(""));

        assertNull(reading.intent());
        assertEquals(List.of(), reading.identified());
        assertEquals("Remind me", reading.prompt());
        assertEquals(1, reading.suggestions().size());
        assertEquals("date", reading.suggestions().getFirst().type());
        assertEquals(
                List.of("Today (2026-11-25)", "Tomorrow (2026-11-26)", "Friday (2026-11-27)",
                        "Saturday (2026-11-28)", "Sunday (2026-11-29)", "Monday (2026-11-30)"),
                optionTexts(reading));
    }

    @Test
    void options_are_cut_to_the_option_limit() {
        assertEquals(List.of("Today (2026-11-25)", "Tomorrow (2026-11-26)"), optionTexts(engine.read(query("", 2))));
    }

    @Test
    void a_filled_date_placeholder_satisfies_the_required_type_and_ends_suggestions() {
        String raw = "Remind me {{DATE_1}}";
        Query query = new Query(raw,
                List.of(new Segment.Text(0, "Remind me "),
                        new Segment.Param(10, "{{DATE_1}}", "date", "Friday (2026-11-27)", true)),
                Set.of(), List.of(), List.of(), null, "en", 10);

        Reading reading = engine.read(query);

        assertEquals(new Reading.Intent("remind", ReadingState.COMPLETED, List.of("date")), reading.intent());
        List<String> filledTypes = query.params().stream().map(Segment.Param::type).toList();
        assertTrue(filledTypes.containsAll(reading.intent().requiredTypes()));
        assertEquals(List.of(), reading.identified());
        assertEquals(List.of(), reading.suggestions());
        assertNull(reading.prompt());
    }

    @Test
    void a_query_that_starts_with_a_masked_date_placeholder_reads_the_intent_from_the_param() {
        Query query = new Query("{{DATE_1}} ",
                List.of(new Segment.Param(0, "{{DATE_1}}", "date", null, true), new Segment.Text(10, " ")),
                Set.of(), List.of(), List.of(), null, null, 10);

        Reading reading = engine.read(query);

        assertEquals(ReadingState.COMPLETED, reading.intent().state());
        assertEquals(List.of(), reading.suggestions());
    }

    @Test
    void a_prefix_of_the_phrase_is_an_intent_in_progress_with_the_default_options() {
        Reading reading = engine.read(query("Remind m"));

        assertEquals(ReadingState.IN_PROGRESS, reading.intent().state());
        assertEquals(List.of(), reading.identified());
        assertEquals(6, optionTexts(reading).size());
    }

    @Test
    void text_after_the_phrase_that_is_no_date_leaves_the_date_to_suggest() {
        Reading reading = engine.read(query("Remind me to water the plants"));

        assertEquals(ReadingState.COMPLETED, reading.intent().state());
        assertEquals(List.of(), reading.identified());
        assertEquals(6, optionTexts(reading).size());
    }

    @Test
    void reading_ignores_case_and_accents() {
        Reading reading = engine.read(query("REMIND ME ÓN TÓMORROW"));

        assertEquals(List.of(new Reading.Identified("date", 13, 21, ReadingState.COMPLETED)), reading.identified());
    }

    @Test
    void every_kind_of_expression_is_read_as_a_completed_date() {
        for (String date : List.of("today", "tomorrow", "day after tomorrow", "friday", "this friday",
                "next friday", "in 3 days", "in 1 day", "in 2 weeks", "in 1 week", "2026-12-24")) {
            String raw = "Remind me " + date;
            Reading reading = engine.read(query(raw));
            assertEquals(List.of(new Reading.Identified("date", 10, raw.length(), ReadingState.COMPLETED)),
                    reading.identified(), raw);
        }
    }

    @Test
    void a_date_after_a_cue_later_in_the_text_is_read_and_the_rest_is_left_alone() {
        String raw = "Remind me to call mom on friday at noon";
        Reading reading = engine.read(query(raw));

        int start = raw.indexOf("friday");
        assertEquals(List.of(new Reading.Identified("date", start, start + 6, ReadingState.COMPLETED)),
                reading.identified());
    }

    @Test
    void a_date_without_the_phrase_still_reads_the_intent() {
        Reading reading = engine.read(query("tomorrow"));

        assertEquals(ReadingState.COMPLETED, reading.intent().state());
        assertEquals(List.of(new Reading.Identified("date", 0, 8, ReadingState.COMPLETED)), reading.identified());
    }

    @Test
    void an_in_n_prefix_offers_days_and_weeks() {
        Reading reading = engine.read(query("Remind me in 3"));

        assertEquals(List.of(new Reading.Identified("date", 10, 14, ReadingState.IN_PROGRESS)), reading.identified());
        assertEquals(List.of("In 3 days (2026-11-28)", "In 3 weeks (2026-12-16)"), optionTexts(reading));
    }

    @Test
    void an_iso_date_prefix_is_in_progress_and_an_impossible_date_is_not_read() {
        Reading partial = engine.read(query("Remind me 2026-11-2"));
        assertEquals(List.of(new Reading.Identified("date", 10, 19, ReadingState.IN_PROGRESS)), partial.identified());
        assertEquals(
                List.of("Today (2026-11-25)", "Tomorrow (2026-11-26)", "Day after tomorrow (2026-11-27)",
                        "Saturday (2026-11-28)", "Sunday (2026-11-29)"),
                optionTexts(partial));

        assertEquals(List.of(), engine.read(query("Remind me 2026-02-30")).identified());
    }

    @Test
    void optional_date_is_not_required() {
        Engine optional = engine(Map.of("required", false, "type", "due date", "phrases", List.of("Due", "Deadline")));

        Reading reading = optional.read(query("Deadline "));

        assertEquals(List.of(), reading.intent().requiredTypes());
        assertEquals("due date", reading.suggestions().getFirst().type());
        assertEquals(false, reading.suggestions().getFirst().required());
    }

    @Test
    void today_is_reckoned_in_the_configured_time_zone() {
        Clock lateUtc = Clock.fixed(Instant.parse("2026-11-25T23:30:00Z"), ZoneId.of("Pacific/Kiritimati"));
        Engine ahead = new DateEngine(settings(Map.of("time_zone", "Pacific/Kiritimati")), lateUtc);

        assertEquals("Today (2026-11-26)", optionTexts(ahead.read(query(""))).getFirst());
    }

    @Test
    void read_never_throws_whatever_the_query() {
        Random random = new Random(42);
        String alphabet = "Remind mtoywfrxn0123456789-{}_ ÓÉ\u0301ﬁ½\uD83D\uDE00";
        for (int i = 0; i < 5_000; i++) {
            StringBuilder raw = new StringBuilder();
            int length = random.nextInt(30);
            for (int j = 0; j < length; j++) {
                raw.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String text = raw.toString();
            List<Segment> segments = new ArrayList<>();
            if (!text.isEmpty()) {
                // Offsets that may not fit raw_query: the engine must cope all the same.
                segments.add(new Segment.Text(random.nextInt(3) - 1, text));
            }
            if (random.nextBoolean()) {
                segments.add(new Segment.Param(text.length(), "{{OTHER_1}}", "other", null, false));
            }
            Query query = new Query(text, segments, Set.of(), List.of(), List.of(), null, null,
                    1 + random.nextInt(10));
            Reading reading = assertDoesNotThrow(() -> engine.read(query), text);
            assertNotNull(reading);
            for (Reading.Identified span : reading.identified()) {
                assertTrue(span.end() <= text.length(), text);
            }
        }
    }

    private static Engine engine(Map<String, ?> config) {
        return new DateEngine(settings(config), WEDNESDAY);
    }

    private static DateSettings settings(Map<String, ?> config) {
        return assertDoesNotThrow(() -> DateSettings.read(ConfigTree.of(config)));
    }

    private static EngineContext context(Map<String, ?> config) {
        return new EngineContext("acme", "reminders", "en", Path.of("."), ConfigTree.of(config));
    }

    private static void assertConfigError(String key, Map<String, ?> config) {
        EngineConfigException error = assertThrows(EngineConfigException.class,
                () -> new DateEngineFactory().create(context(config)), config.toString());
        assertEquals(key, error.key(), error.getMessage());
    }

    private static Query query(String raw) {
        return query(raw, 10);
    }

    private static Query query(String raw, int optionLimit) {
        List<Segment> segments = raw.isEmpty() ? List.of() : List.of(new Segment.Text(0, raw));
        return new Query(raw, segments, Set.of(), List.of(), List.of(), null, "en", optionLimit);
    }

    private static List<String> optionTexts(Reading reading) {
        return reading.suggestions().getFirst().options().stream().map(Reading.Option::text).toList();
    }
}
