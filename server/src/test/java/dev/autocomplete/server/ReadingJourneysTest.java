package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static dev.autocomplete.server.ApiClient.fill;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.autocomplete.spi.toolkit.TextFolding;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * How the core reads queries, over HTTP: one journey per reading defect found on the demo tenant and on a small
 * lab tenant, as a user typing letter by letter would meet them.
 */
class ReadingJourneysTest {

    private static final String LAB = """
            default_language: en
            catalogs:
              places:
                options: [Paris, Paris Airport, Lyon, Santiago, Santiago de Cuba, Quantum Vault, Quantum Leap,
                          Vault Seven, Vaultex, Valley Forge, Vault Street, Vaulting Hall, Vaultline, Vaulted Arch]
              devices:
                options:
                  - {text: Cloud Router, aliases: [cr]}
                  - {text: Core Router, aliases: [cr]}
                  - {text: Edge Switch}
            products:
              - id: 5d0c7e2a-1b3c-4d5e-8f9a-0b1c2d3e4f50
                slug: trips
                intents:
                  - name: go
                    phrases: [Go from]
                    params:
                      - {type: origin, required: true, cues: [from], catalog: places}
                      - {type: destination, required: true, cues: [to], catalog: places}
              - id: 5d0c7e2a-1b3c-4d5e-8f9a-0b1c2d3e4f51
                slug: devices
                intents:
                  - name: restart
                    phrases: [Restart]
                    params:
                      - {type: device, required: true, catalog: devices}
            """;

    @RegisterExtension
    static final DemoServer demo =
            new DemoServer().withTenant("lab", Map.of("lab/tenant.yaml", LAB), "trips", "devices");

    private static ApiClient.Reply travel(ObjectNode body) {
        return demo.suggestOk("travel", body);
    }

    private static JsonNode lastInput(ApiClient.Reply reply) {
        JsonNode input = reply.data().path("input");
        return input.get(input.size() - 1);
    }

    @Test
    void a_connecting_word_between_two_picked_cities_is_never_read_as_a_value() {
        for (String[] journey : new String[][] {
            {"en", "Book a flight from {{ORIGIN_1}} to {{DESTINATION_1}} "},
            {"fr", "Réserver un vol de {{ORIGIN_1}} à {{DESTINATION_1}} "},
            {"de", "Flug von {{ORIGIN_1}} nach {{DESTINATION_1}} "}
        }) {
            ObjectNode body = envelope(journey[1]);
            ((ObjectNode) body.path("meta")).put("language", journey[0]);
            fill(body, "{{ORIGIN_1}}", "origin", "Paris");
            fill(body, "{{DESTINATION_1}}", "destination", "London");
            ApiClient.Reply reply = travel(body);
            for (JsonNode segment : reply.data().path("input")) {
                assertFalse(segment.path("source").asText().equals("identified"), journey[0] + ": " + reply.raw());
            }
            assertTrue(reply.data().path("is_ready").asBoolean(), reply.raw());
        }
    }

    /**
     * An end-user trial: after a pick, the first letter of the next cue ({@code t} of {@code to}) was read as a
     * destination being typed; the answer listed cities starting with it, and the official client drew the echoed span
     * as a chip on the first such letter of its text ({@code fligh[t]}). It is the cue being typed: no span, and the
     * list the destination has at the cue.
     */
    @Test
    void the_first_letters_of_a_cue_after_a_pick_are_the_cue_being_typed_not_a_value() {
        for (String[] journey : new String[][] {
            {"en", "Book a flight from {{ORIGIN_1}} ", "t", "to "},
            {"de", "Flug von {{ORIGIN_1}} ", "na", "nach "}
        }) {
            ObjectNode atCue = inLanguage(journey[0], journey[1] + journey[3]);
            fill(atCue, "{{ORIGIN_1}}", "origin", "Lisbon");
            List<String> destinations = travel(atCue).options("destination");
            ObjectNode typing = inLanguage(journey[0], journey[1] + journey[2]);
            fill(typing, "{{ORIGIN_1}}", "origin", "Lisbon");
            ApiClient.Reply reply = travel(typing);
            assertEquals("destination", reply.suggestionTypes().getFirst(), reply.raw());
            assertEquals(destinations, reply.options("destination"), journey[2] + ": " + reply.raw());
            for (JsonNode segment : reply.data().path("input")) {
                assertNotEquals("identified", segment.path("source").asText(), journey[2] + ": " + reply.raw());
            }
        }
        // Past the cue's letters it is a value again: 'tok' is Tokyo being typed.
        ObjectNode tok = envelope("Book a flight from {{ORIGIN_1}} tok");
        fill(tok, "{{ORIGIN_1}}", "origin", "Lisbon");
        ApiClient.Reply reply = travel(tok);
        assertEquals("in_progress", lastInput(reply).path("state").asText(), reply.raw());
        assertEquals("Tokyo", reply.options("destination").getFirst(), reply.raw());
    }

    /**
     * The same after a city typed rather than picked, and after a misspelt one: {@code Lisbn t} listed the cities
     * starting with T for the origin and dropped the misspelt city.
     */
    @Test
    void a_typed_or_misspelt_city_before_the_first_letters_of_a_cue_is_the_origin_and_the_cue_is_being_typed() {
        for (String city : List.of("Lisbn", "Book a flight from Lisbn", "Book a flight from Lisbon")) {
            ApiClient.Reply atCue = travel(envelope(city + " to"));
            ApiClient.Reply typing = travel(envelope(city + " t"));
            assertEquals("destination", typing.suggestionTypes().getFirst(), city + ": " + typing.raw());
            assertEquals(atCue.options("destination"), typing.options("destination"), city + ": " + typing.raw());
            assertEquals(atCue.suggestionTypes(), typing.suggestionTypes(), city + ": " + typing.raw());
        }
        assertEquals("Lisbon", travel(envelope("Lisbn t")).options("origin").getFirst());
        // With a pick before it the reading is echoed: one origin, to confirm, and no span for the cue's letter.
        ObjectNode cue = envelope("Book a flight in {{CABIN_1}} from Lisbn t");
        fill(cue, "{{CABIN_1}}", "cabin", "Economy");
        ApiClient.Reply reply = travel(cue);
        List<String> identified = new ArrayList<>();
        for (JsonNode segment : reply.data().path("input")) {
            if (segment.path("source").asText().equals("identified")) {
                identified.add(segment.path("type").asText() + ":"
                        + segment.path("text").asText() + ":"
                        + segment.path("state").asText());
            }
        }
        assertEquals(List.of("origin:Lisbn:need_confirmation"), identified, reply.raw());
    }

    /**
     * A required value to confirm before the end of the text comes before the optional params: an end-user trial
     * could not reach Lisbon after {@code Lisbn to London} (or after editing a picked city in the middle of the text),
     * as the official client shows the first suggestion only and the date, cabin and passengers came first.
     */
    @Test
    void a_required_value_to_confirm_before_the_end_comes_before_the_optional_params() {
        ObjectNode body = envelope("Book a flight from Lisbn to {{DESTINATION_1}} ");
        fill(body, "{{DESTINATION_1}}", "destination", "London");
        ApiClient.Reply reply = travel(body);
        assertEquals("origin", reply.suggestionTypes().getFirst(), reply.raw());
        assertEquals("Lisbon", reply.options("origin").getFirst(), reply.raw());
        assertTrue(reply.suggestionTypes().contains("date"), "the optional params follow: " + reply.raw());
        assertFalse(reply.data().path("is_ready").asBoolean(), reply.raw());
    }

    /**
     * What follows a cue is its value, never another cue: an end-user trial saw {@code Book a flight from Fr} list every
     * city ({@code Fr} read as the start of {@code from} or {@code for}) and {@code Paris to To} drop Tokyo and
     * Toronto ({@code To} read as the cue again).
     */
    @Test
    void the_letters_right_after_a_cue_are_its_value_even_when_they_spell_a_cue() {
        for (String typed : List.of("F", "Fr", "Fro")) {
            ApiClient.Reply reply = travel(envelope("Book a flight from " + typed));
            for (String option : reply.options("origin")) {
                assertTrue(
                        TextFolding.fold(option).contains(TextFolding.fold(typed)),
                        typed + ": " + option + " in " + reply.options("origin"));
            }
        }
        ApiClient.Reply to = travel(envelope("Paris to To"));
        assertEquals("destination", to.suggestionTypes().getFirst(), to.raw());
        assertTrue(to.options("destination").containsAll(List.of("Tokyo", "Toronto")), to.raw());
    }

    @Test
    void a_short_city_that_starts_longer_ones_stays_the_origin_being_typed_at_every_letter() {
        for (String typed : List.of("B", "Bo", "Bos", "Bost", "Bosto")) {
            ApiClient.Reply reply = travel(envelope(typed));
            assertEquals("origin", reply.suggestionTypes().getFirst(), typed + ": " + reply.raw());
        }
        ApiClient.Reply bo = travel(envelope("Bo"));
        assertEquals("Bo", bo.options("origin").getFirst(), bo.raw());
        assertTrue(bo.options("origin").size() > 1, "longer names follow the exact one: " + bo.raw());
        ApiClient.Reply ma = travel(envelope("Ma"));
        assertEquals("origin", ma.suggestionTypes().getFirst(), ma.raw());
    }

    @Test
    void a_city_the_context_names_comes_first_from_its_first_letter() {
        for (String typed : List.of("L", "Li", "Lis")) {
            ObjectNode body = envelope("Book a flight from " + typed);
            ((ObjectNode) body.path("data")).putObject("additional_context").put("origin", "Lisbon");
            ApiClient.Reply reply = travel(body);
            assertEquals("Lisbon", reply.options("origin").getFirst(), typed + ": " + reply.raw());
        }
    }

    @Test
    void an_alias_two_options_share_needs_confirmation_and_is_not_ready() {
        ApiClient.Reply reply = demo.suggestOk("lab/devices", envelope("Restart cr "));
        assertFalse(reply.data().path("is_ready").asBoolean(), reply.raw());
        ObjectNode body = fill(envelope("Restart {{DEVICE_1}}"), "{{DEVICE_1}}", "device", "Core Router");
        assertTrue(demo.suggestOk("lab/devices", body).data().path("is_ready").asBoolean());
    }

    @Test
    void a_typo_with_a_second_word_ranks_the_intended_option_first() {
        ApiClient.Reply reply = demo.suggestOk("lab/trips", envelope("Go from Quantm Vault"));
        assertEquals("Quantum Vault", reply.options("origin").getFirst(), reply.raw());
    }

    @Test
    void a_trailing_space_prefers_names_that_go_on_with_another_word() {
        ApiClient.Reply reply = travel(envelope("Book a flight from San "));
        List<String> options = reply.options("origin");
        int santiago = options.indexOf("Santiago");
        List<String> twoWords = new ArrayList<>();
        options.forEach(o -> {
            if (o.startsWith("San ")) {
                twoWords.add(o);
            }
        });
        assertFalse(twoWords.isEmpty(), reply.raw());
        assertTrue(santiago < 0 || options.indexOf(twoWords.getFirst()) < santiago, reply.raw());
    }

    @Test
    void the_pick_that_fills_the_last_required_param_lists_only_optional_params_with_is_ready() {
        ObjectNode first = fill(envelope("Book a flight from {{ORIGIN_1}} "), "{{ORIGIN_1}}", "origin", "Paris");
        ApiClient.Reply open = travel(first);
        assertEquals(List.of("destination"), open.suggestionTypes(), "only required params while one is open");
        ObjectNode body = envelope("Book a flight from {{ORIGIN_1}} {{DESTINATION_1}}");
        fill(body, "{{ORIGIN_1}}", "origin", "Paris");
        fill(body, "{{DESTINATION_1}}", "destination", "London");
        ApiClient.Reply ready = travel(body);
        assertTrue(ready.data().path("is_ready").asBoolean(), ready.raw());
        assertTrue(ready.suggestionTypes().contains("date"), ready.raw());
    }

    @Test
    void nothing_matching_keeps_the_param_active_with_no_options() {
        ApiClient.Reply reply = demo.suggestOk("workspace", envelope("Create an email to zzz"));
        assertEquals("contact", reply.suggestionTypes().getFirst(), reply.raw());
        assertTrue(reply.options("contact").isEmpty(), reply.raw());
    }

    /** A request body for {@code rawQuery} sent with {@code meta.language}. */
    private static ObjectNode inLanguage(String language, String rawQuery) {
        ObjectNode body = envelope(rawQuery);
        ((ObjectNode) body.path("meta")).put("language", language);
        return body;
    }

    @Test
    void words_no_engine_reads_before_a_value_are_passed_over() {
        // configuration.md: the words a user puts before a value (`my colleague`) are not the value; so a name
        // the catalog does not have is passed over too, and what follows it is read.
        ApiClient.Reply colleague = demo.suggestOk("workspace", envelope("Create an email to my colleague We"));
        assertEquals("contact", colleague.suggestionTypes().getFirst(), colleague.raw());
        assertEquals("Wen Li", colleague.options("contact").getFirst(), colleague.raw());
        ApiClient.Reply unknown = demo.suggestOk("workspace", envelope("Create an email to Alice W"));
        assertEquals("contact", unknown.suggestionTypes().getFirst(), unknown.raw());
        assertEquals(
                List.of("Wen Li", "Will Turner"), unknown.options("contact").subList(0, 2), unknown.raw());
    }

    @Test
    void letters_typed_with_their_accents_put_the_options_spelled_so_first() {
        // An end-user trial: German `Köl` offered Kolkata, the larger city, before the Köln being spelled.
        ApiClient.Reply accented = travel(inLanguage("de", "Flug von Köl"));
        assertEquals("Köln", accented.options("origin").getFirst(), accented.raw());
        ApiClient.Reply unaccented = travel(inLanguage("de", "Flug von Kol"));
        assertEquals("Kolkata", unaccented.options("origin").getFirst(), "typed without accents: the engine's order");
        assertTrue(unaccented.options("origin").contains("Köln"), unaccented.raw());
    }

    @Test
    void a_span_is_read_as_the_longest_prefix_of_an_option_before_it_is_split() {
        ApiClient.Reply santiago = demo.suggestOk("lab/trips", envelope("Go from Santiago d"));
        assertEquals("origin", santiago.suggestionTypes().getFirst(), santiago.raw());
        assertEquals("Santiago de Cuba", santiago.options("origin").getFirst(), santiago.raw());
        ApiClient.Reply paris = demo.suggestOk("lab/trips", envelope("Go from Paris A"));
        assertEquals("origin", paris.suggestionTypes().getFirst(), paris.raw());
        assertEquals("Paris Airport", paris.options("origin").getFirst(), paris.raw());
    }

    @Test
    void a_cue_that_starts_an_option_is_read_as_the_option() {
        ApiClient.Reply rio = travel(inLanguage("fr", "Réserver un vol de Rio de Janeiro"));
        assertEquals("destination", rio.suggestionTypes().getFirst(), rio.raw());
        ApiClient.Reply am = travel(inLanguage("de", "Flug von Am"));
        assertEquals("origin", am.suggestionTypes().getFirst(), am.raw());
        assertTrue(am.options("origin").contains("Amsterdam"), am.raw());
    }

    @Test
    void picked_cities_and_a_typed_date_make_the_query_ready_in_three_languages() {
        for (String[] journey : new String[][] {
            {"en", "Book a flight from {{ORIGIN_1}} to {{DESTINATION_1}} on 12 march"},
            {"fr", "Réserver un vol de {{ORIGIN_1}} à {{DESTINATION_1}} le 12 mars"},
            {"de", "Flug von {{ORIGIN_1}} nach {{DESTINATION_1}} am 12. März"}
        }) {
            ObjectNode body = envelope(journey[1]);
            ((ObjectNode) body.path("meta")).put("language", journey[0]);
            fill(body, "{{ORIGIN_1}}", "origin", "Paris");
            fill(body, "{{DESTINATION_1}}", "destination", "London");
            ApiClient.Reply reply = travel(body);
            JsonNode last = lastInput(reply);
            assertEquals("date", last.path("type").asText(), journey[0] + ": " + reply.raw());
            assertEquals("identified", last.path("source").asText(), reply.raw());
            assertTrue(reply.data().path("is_ready").asBoolean(), reply.raw());
        }
    }

    @Test
    void a_contact_the_host_names_in_the_context_is_offered_and_fills_the_required_param() {
        ObjectNode body = envelope("Create an email to Zo");
        ((ObjectNode) body.path("data"))
                .putObject("additional_context")
                .putArray("contact")
                .add("Zoë Quartermaine");
        ApiClient.Reply offered = demo.suggestOk("workspace", body);
        assertEquals("Zoë Quartermaine", offered.options("contact").getFirst(), offered.raw());
        ObjectNode typed = envelope("Create an email to Zoë Quartermaine");
        ((ObjectNode) typed.path("data"))
                .putObject("additional_context")
                .putArray("contact")
                .add("Zoë Quartermaine");
        assertTrue(demo.suggestOk("workspace", typed).data().path("is_ready").asBoolean());
    }

    @Test
    void a_cue_word_with_nothing_after_it_offers_its_params_options_in_every_language() {
        for (String[] journey : new String[][] {
            {"en", "Book a flight from {{ORIGIN_1}} to {{DESTINATION_1}} on "},
            {"fr", "Réserver un vol de {{ORIGIN_1}} à {{DESTINATION_1}} le "},
            {"de", "Flug von {{ORIGIN_1}} nach {{DESTINATION_1}} am "}
        }) {
            ObjectNode body = envelope(journey[1]);
            ((ObjectNode) body.path("meta")).put("language", journey[0]);
            fill(body, "{{ORIGIN_1}}", "origin", "Paris");
            fill(body, "{{DESTINATION_1}}", "destination", "London");
            ApiClient.Reply reply = travel(body);
            assertEquals("date", reply.suggestionTypes().getFirst(), journey[0] + ": " + reply.raw());
            assertFalse(reply.options("date").isEmpty(), journey[0] + ": " + reply.raw());
        }
    }
}
