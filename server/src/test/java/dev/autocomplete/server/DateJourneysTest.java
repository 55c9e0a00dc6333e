package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static dev.autocomplete.server.ApiClient.fill;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Dates as people type them into the demo travel product, over HTTP, in English, French and German, on a day
 * the test fixes: Wednesday 25 November 2026 (travel's time zone is UTC).
 */
class DateJourneysTest {

    static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");

    @RegisterExtension
    static final DemoServer demo = new DemoServer().withClock(Clock.fixed(NOW, ZoneOffset.UTC));

    /** The query with picked cities before the date: {@code en}, {@code fr} or {@code de} as the language. */
    private static String cities(String language) {
        return switch (language.substring(0, 2)) {
            case "fr" -> "Réserver un vol de {{ORIGIN_1}} à {{DESTINATION_1}} ";
            case "de" -> "Flug von {{ORIGIN_1}} nach {{DESTINATION_1}} ";
            default -> "Book a flight from {{ORIGIN_1}} to {{DESTINATION_1}} ";
        };
    }

    /** Sends the cities picked and then {@code typed}, in {@code language}. */
    private static ApiClient.Reply afterCities(String language, String typed) {
        ObjectNode body = envelope(cities(language) + typed);
        fill(body, "{{ORIGIN_1}}", "origin", "Paris");
        fill(body, "{{DESTINATION_1}}", "destination", "London");
        return travel(body, language);
    }

    private static ApiClient.Reply travel(ObjectNode body, String language) {
        ((ObjectNode) body.path("meta")).put("language", language);
        return demo.suggestOk("travel", body);
    }

    static JsonNode input(ApiClient.Reply reply, String type) {
        for (JsonNode entry : reply.data().path("input")) {
            if (entry.path("type").asText().equals(type)
                    && entry.path("source").asText().equals("identified")) {
                return entry;
            }
        }
        throw new AssertionError("no identified " + type + ": " + reply.raw());
    }

    private static void assertDate(ApiClient.Reply reply, String text, String state) {
        JsonNode date = input(reply, "date");
        assertEquals(text, date.path("text").asText(), reply.raw());
        assertEquals(state, date.path("state").asText(), reply.raw());
    }

    @Test
    void a_relative_amount_after_the_cabins_cue_word_is_a_date_and_leaves_the_cabin_open() {
        String[][] journeys = {
            {"en", "in 3 days"},
            {"en", "in a week"},
            {"en", "in two weeks"},
            {"fr", "dans 3 jours"},
            {"de", "in 3 Tagen"},
            {"de", "in zwei Wochen"}
        };
        for (String[] journey : journeys) {
            ApiClient.Reply reply = afterCities(journey[0], journey[1]);
            assertDate(reply, journey[1], "completed");
            assertTrue(reply.data().path("is_ready").asBoolean(), reply.raw());
            assertTrue(reply.suggestionTypes().contains("cabin"), reply.raw());
            assertFalse(reply.options("cabin").isEmpty(), journey[1] + ": " + reply.raw());
        }
        // Typed whole, without picks: the cue of the destination's value still open, the date wins the cabin's cue.
        for (String[] journey : new String[][] {
            {"en", "Book a flight from Paris to London in 3 days"},
            {"de", "Flug von Paris nach London in 3 Tagen"},
            {"en", "Book a flight from Paris to London in 3"}
        }) {
            ApiClient.Reply typed = travel(envelope(journey[1]), journey[0]);
            List<String> types = typed.suggestionTypes();
            assertEquals(journey[1].endsWith("3") ? "date" : "cabin", types.getFirst(), typed.raw());
            assertFalse(typed.options(types.getFirst()).isEmpty(), typed.raw());
        }
        ApiClient.Reply business = afterCities("en", "in 3 days in business");
        assertDate(business, "in 3 days", "completed");
        assertEquals("completed", input(business, "cabin").path("state").asText(), business.raw());
    }

    @Test
    void a_period_or_a_vague_day_needs_confirmation_with_its_days_as_options_the_first_first() {
        String[][] journeys = {
            {"en", "next week", "next week, Monday 30 November", "7"},
            {"en", "this weekend", "this weekend, Saturday 28 November", "2"},
            {"en", "end of the month", "end of the month, Wednesday 25 November", "6"},
            {"en", "early March", "early March, Monday 1 March 2027", "10"},
            {"fr", "la semaine prochaine", "la semaine prochaine, lundi 30 novembre", "7"},
            {"fr", "ce week-end", "ce week-end, samedi 28 novembre", "2"},
            {"fr", "début mars", "début mars, lundi 1er mars 2027", "10"},
            {"de", "nächste Woche", "nächste Woche, Montag, 30. November", "7"},
            {"de", "dieses Wochenende", "dieses Wochenende, Samstag, 28. November", "2"},
            {"de", "Anfang März", "Anfang März, Montag, 1. März 2027", "10"}
        };
        for (String[] journey : journeys) {
            ApiClient.Reply reply = afterCities(journey[0], journey[1]);
            assertDate(reply, journey[1], "need_confirmation");
            assertEquals("date", reply.suggestionTypes().getFirst(), reply.raw());
            List<String> options = reply.options("date");
            assertEquals(journey[2], options.getFirst(), reply.raw());
            assertEquals(Integer.parseInt(journey[3]), options.size(), reply.raw());
        }
    }

    @Test
    void ordinals_and_short_month_names_are_dates_in_three_languages() {
        String[][] journeys = {
            {"en", "on the 12th"},
            {"en", "on the 25th"},
            {"en", "on Dec 24th"},
            {"en", "on 24 Dec in business"},
            {"fr", "le 1er mars"},
            {"de", "am 3. Mai"}
        };
        for (String[] journey : journeys) {
            ApiClient.Reply reply = afterCities(journey[0], journey[1]);
            String span = journey[1].substring(journey[1].indexOf(' ') + 1).replace(" in business", "");
            assertDate(reply, span, "completed");
            assertTrue(reply.data().path("is_ready").asBoolean(), reply.raw());
        }
        // Still being typed: "Dec" may become "December", so it is offered, the text starting with what was typed.
        ApiClient.Reply typing = afterCities("en", "on 24 Dec");
        assertDate(typing, "24 Dec", "in_progress");
        assertEquals("24 December 2026 (Thursday)", typing.options("date").getFirst(), typing.raw());
    }

    @Test
    void the_12th_is_the_next_12th_counting_today() {
        // Today is the 25th: "the 25th" is today, "the 12th" next month's.
        ApiClient.Reply today = afterCities("en", "on the 25t");
        assertEquals(List.of("the 25th, Wednesday 25 November"), today.options("date"), today.raw());
        ApiClient.Reply twelfth = afterCities("en", "on the 12t");
        assertEquals(List.of("the 12th, Saturday 12 December"), twelfth.options("date"), twelfth.raw());
    }

    @Test
    void a_numeric_day_follows_the_region_of_the_request_and_is_ambiguous_in_bare_english() {
        for (String language : List.of("en-GB", "en-US", "fr", "de", "fr-CA")) {
            assertDate(
                    afterCities(
                            language,
                            "on 12/03"
                                    .replace(
                                            "on",
                                            language.startsWith("fr")
                                                    ? "le"
                                                    : language.startsWith("de") ? "am" : "on")),
                    "12/03",
                    "completed");
        }
        assertEquals(
                "12/03/2027, Friday 12 March 2027",
                afterCities("en-GB", "on 12/03/202").options("date").getFirst());
        assertEquals(
                "12/03/2026, Thursday 3 December",
                afterCities("en-US", "on 12/03/202").options("date").getFirst());
        assertEquals(
                "12/03/2027, vendredi 12 mars 2027",
                afterCities("fr", "le 12/03/202").options("date").getFirst());
        ApiClient.Reply bare = afterCities("en", "on 12/03");
        assertDate(bare, "12/03", "need_confirmation");
        assertEquals(
                List.of("12/03, Thursday 3 December", "12/03, Friday 12 March 2027"),
                bare.options("date").subList(0, 2),
                bare.raw());
    }

    @Test
    void a_misspelt_date_word_needs_confirmation_with_the_corrected_date_offered() {
        String[][] journeys = {
            {"en", "on tomorow", "tomorrow, Thursday 26 November"},
            {"en", "on fridya", "Friday 27 November 2026"},
            {"fr", "le demian", "demain, jeudi 26 novembre"},
            {"de", "am morgn", "morgen, Donnerstag, 26. November"}
        };
        assertConfirmedWithOneOption(journeys);
    }

    @Test
    void an_impossible_date_is_no_date_and_offers_the_last_day_of_its_month_to_confirm() {
        String[][] journeys = {
            {"en", "on 31 february", "28 February 2027 (Sunday)"},
            {"en", "on 31 april", "30 April 2027 (Friday)"},
            {"fr", "le 30 février", "28 février 2027 (dimanche)"},
            {"de", "am 30. Februar", "28. Februar 2027 (Sonntag)"}
        };
        assertConfirmedWithOneOption(journeys);
    }

    /** Each {language, cue and date typed, option}: the date needs confirmation, offered with that one option. */
    private static void assertConfirmedWithOneOption(String[][] journeys) {
        for (String[] journey : journeys) {
            ApiClient.Reply reply = afterCities(journey[0], journey[1]);
            assertDate(reply, journey[1].substring(3), "need_confirmation");
            assertEquals("date", reply.suggestionTypes().getFirst(), reply.raw());
            assertEquals(List.of(journey[2]), reply.options("date"), reply.raw());
        }
    }

    @Test
    void an_offered_date_starts_with_what_was_typed_and_reads_back_as_the_same_date_once_picked() {
        // {language, the text before the date, its cue, the date as typed, the option offered}
        String[][] journeys = {
            {"en", "Book a flight from Paris to London ", "on ", "12 mar", "12 March 2027 (Friday)"},
            {"en", "Book a flight from Paris to London ", "", "tomo", "tomorrow, Thursday 26 November"},
            {"fr", "Réserver un vol de Paris à Londres ", "le ", "12 mar", "12 mars 2027 (vendredi)"},
            {"fr", "Réserver un vol de Paris à Londres ", "", "dem", "demain, jeudi 26 novembre"},
            {"de", "Flug von Paris nach London ", "am ", "12. Mär", "12. März 2027 (Freitag)"},
            {"de", "Flug von Paris nach London ", "", "morg", "morgen, Donnerstag, 26. November"}
        };
        for (String[] journey : journeys) {
            ApiClient.Reply typed = travel(envelope(journey[1] + journey[2] + journey[3]), journey[0]);
            assertEquals("date", typed.suggestionTypes().getFirst(), typed.raw());
            String offered = typed.options("date").getFirst();
            assertEquals(journey[4], offered, typed.raw());
            assertTrue(offered.toLowerCase(Locale.ROOT).startsWith(journey[3].toLowerCase(Locale.ROOT)), offered);

            // The official client replaces the typed tail that starts the option: the text then holds the option,
            // which reads as the date, settled, whether sent as typed text or as the picked param.
            ObjectNode asText = envelope(cities(journey[0]) + journey[2] + offered);
            fill(asText, "{{ORIGIN_1}}", "origin", "Paris");
            fill(asText, "{{DESTINATION_1}}", "destination", "London");
            ApiClient.Reply readBack = travel(asText, journey[0]);
            assertDate(readBack, offered, "completed");
            assertTrue(readBack.data().path("is_ready").asBoolean(), readBack.raw());

            ObjectNode asPicked = envelope(cities(journey[0]) + journey[2] + "{{DATE_1}} ");
            fill(asPicked, "{{ORIGIN_1}}", "origin", "Paris");
            fill(asPicked, "{{DESTINATION_1}}", "destination", "London");
            fill(asPicked, "{{DATE_1}}", "date", offered);
            ApiClient.Reply picked = travel(asPicked, journey[0]);
            assertTrue(picked.data().path("is_ready").asBoolean(), picked.raw());
        }
    }
}
