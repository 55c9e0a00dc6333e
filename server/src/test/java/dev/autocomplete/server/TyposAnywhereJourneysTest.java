package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static dev.autocomplete.server.ApiClient.fill;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Values read anywhere in the text, not only at its end (issue 20), over HTTP: a typo or the start of a value
 * followed by more text or closed by the next cue, a cue between two picks, the demo cities' everyday names and
 * codes, and params declared distinct. On the demo tenant, in English, French and German, and on a lab tenant
 * shaped like the demo's workspace and like a pull-request product.
 */
class TyposAnywhereJourneysTest {

    private static final String LAB = """
            default_language: en
            catalogs:
              people:
                options: [Linus Torvalds, Grace Hopper, Greta Fischer, Greta Garcia, Hugo Garcia, Ada Lovelace]
            products:
              - id: 7a1c3e5b-2d4f-4a6b-8c0d-1e2f3a4b5c60
                slug: mail
                intents:
                  - name: create
                    phrases: [Create an, Create a, Create]
                    params:
                      - {type: type, required: true, options: [email, automation]}
                      - {type: contact, required: true, cues: [to], when: {type: email}, catalog: people}
                      - {type: topic, cues: [about], when: {type: email}, options: [Project update, Invoice]}
              - id: 7a1c3e5b-2d4f-4a6b-8c0d-1e2f3a4b5c61
                slug: code
                intents:
                  - name: open_pull_request
                    phrases: [Open pull request on, Open pull request]
                    params:
                      - {type: repo, required: true, cues: [on], options: [autocomplete, linux, helidon]}
                      - {type: branch, required: true, cues: [from], options: [feature-x, fix-typo, main, develop]}
                      - {type: base_branch, required: true, cues: [to, into], options: [main, develop, release]}
                      - {type: reviewer, cues: [for, with], catalog: people}
            """;

    @RegisterExtension
    static final DemoServer demo = new DemoServer()
            .withClock(Clock.fixed(DateJourneysTest.NOW, java.time.ZoneOffset.UTC))
            .withTenant("lab", Map.of("lab/tenant.yaml", LAB), "mail", "code");

    @TempDir
    Path temp;

    private static ApiClient.Reply travel(String language, String rawQuery, String... picks) {
        ObjectNode body = envelope(rawQuery);
        ((ObjectNode) body.path("meta")).put("language", language);
        for (String pick : picks) {
            String[] parts = pick.split("=", 3);
            fill(body, parts[0], parts[1], parts[2]);
        }
        return demo.suggestOk("travel", body);
    }

    private static void assertIdentified(ApiClient.Reply reply, String type, String text, String state) {
        JsonNode entry = DateJourneysTest.input(reply, type);
        assertEquals(text, entry.path("text").asText(), reply.raw());
        assertEquals(state, entry.path("state").asText(), reply.raw());
    }

    private static boolean ready(ApiClient.Reply reply) {
        return reply.data().path("is_ready").asBoolean();
    }

    /** The query with the origin picked, then {@code to}, {@code à} or {@code nach} and {@code typed}. */
    private static String toAfterOrigin(String language, String typed) {
        return switch (language) {
            case "fr" -> "Réserver un vol de {{ORIGIN_1}} à " + typed;
            case "de" -> "Flug von {{ORIGIN_1}} nach " + typed;
            default -> "Book a flight from {{ORIGIN_1}} to " + typed;
        };
    }

    @Test
    void a_misspelt_city_followed_by_a_date_keeps_the_destination_to_confirm_and_the_date() {
        // At the end, the value to confirm is the active suggestion with its candidates (one tap confirms it).
        for (String[] journey : new String[][] {{"en", "London"}, {"fr", "Londres"}, {"de", "London"}}) {
            ApiClient.Reply reply = travel(journey[0], toAfterOrigin(journey[0], "Londn"), "{{ORIGIN_1}}=origin=Paris");
            assertIdentified(reply, "destination", "Londn", "need_confirmation");
            assertEquals("destination", reply.suggestionTypes().getFirst(), reply.raw());
            assertEquals(journey[1], reply.options("destination").getFirst(), reply.raw());
        }
        String[][] journeys = {{"en", "tomorrow", "London"}, {"fr", "demain", "Londres"}, {"de", "morgen", "London"}};
        for (String[] journey : journeys) {
            ApiClient.Reply reply =
                    travel(journey[0], toAfterOrigin(journey[0], "Londn " + journey[1]), "{{ORIGIN_1}}=origin=Paris");
            assertIdentified(reply, "destination", "Londn", "need_confirmation");
            assertIdentified(reply, "date", journey[1], "completed");
            assertFalse(ready(reply), reply.raw());
            // Read mid-text: required, so first with what it may be, before the optional params (the official client
            // shows the first suggestion only); its pick is appended at the end of the text and makes the query ready.
            assertEquals("destination", reply.suggestionTypes().getFirst(), reply.raw());
            assertEquals(journey[2], reply.options("destination").getFirst(), reply.raw());
            ApiClient.Reply picked = travel(
                    journey[0],
                    toAfterOrigin(journey[0], "Londn " + journey[1]) + " {{DESTINATION_1}} ",
                    "{{ORIGIN_1}}=origin=Paris",
                    "{{DESTINATION_1}}=destination=" + journey[2]);
            assertTrue(ready(picked), picked.raw());
        }
    }

    @Test
    void a_misspelt_contact_followed_by_more_words_is_read_as_the_contact_to_confirm() {
        ObjectNode body =
                fill(envelope("Create an {{TYPE_1}} to Greta Fisher by tomorrow"), "{{TYPE_1}}", "type", "email");
        ApiClient.Reply reply = demo.suggestOk("lab/mail", body);
        assertIdentified(reply, "contact", "Greta Fisher", "need_confirmation");
        assertFalse(ready(reply), reply.raw());
        assertNotEquals("contact", reply.suggestionTypes().getFirst(), reply.raw());
        assertEquals("Greta Fischer", reply.options("contact").getFirst(), reply.raw());
        // At the end, the contact to confirm is the active suggestion with its candidates.
        ApiClient.Reply trailing = demo.suggestOk(
                "lab/mail", fill(envelope("Create an {{TYPE_1}} to Greta Fisher"), "{{TYPE_1}}", "type", "email"));
        assertIdentified(trailing, "contact", "Greta Fisher", "need_confirmation");
        assertEquals("contact", trailing.suggestionTypes().getFirst(), trailing.raw());
        assertEquals("Greta Fischer", trailing.options("contact").getFirst(), trailing.raw());
        // Typed without the pick: the contact's cue is read once "email" is, and the same contact is offered.
        ApiClient.Reply typed = demo.suggestOk("lab/mail", envelope("Create an email to Greta Fisher by tomorrow"));
        assertEquals(List.of("Greta Fischer"), typed.options("contact"), typed.raw());
    }

    @Test
    void the_first_letter_of_a_cue_offers_its_params_list_as_the_whole_cue_does() {
        // A client asking at every keystroke: `i` of `in` is not a cabin typed, so the cabin is not offered empty.
        String[][] journeys = {{"en", "Friday i", "Friday in"}, {"de", "Freitag i", "Freitag in"}};
        for (String[] journey : journeys) {
            String query = toAfterOrigin(journey[0], "{{DESTINATION_1}} ");
            ApiClient.Reply started = travel(
                    journey[0], query + journey[1], "{{ORIGIN_1}}=origin=Paris", "{{DESTINATION_1}}=destination=Rome");
            ApiClient.Reply whole = travel(
                    journey[0], query + journey[2], "{{ORIGIN_1}}=origin=Paris", "{{DESTINATION_1}}=destination=Rome");
            assertEquals("cabin", started.suggestionTypes().getFirst(), started.raw());
            assertEquals(4, whole.options("cabin").size(), whole.raw());
            assertEquals(whole.options("cabin"), started.options("cabin"), started.raw());
        }
    }

    @Test
    void a_short_last_word_is_matched_as_typed_and_a_short_word_before_others_may_still_be_misspelt() {
        // `xm` is typed, not `am`: the last word, shorter than four letters, takes no typo that `Frankfurt` pays for
        // (it did, and offered Frankfurt am Main). A short word with more typed after it still may: `Nw York`.
        String from = "Book a flight from ";
        assertFalse(travel("en", from + "Frankfurt xm").options("origin").contains("Frankfurt am Main"));
        assertEquals(
                List.of("Frankfurt am Main"),
                travel("en", from + "Frankfurt am").options("origin"));
        assertEquals(
                List.of("Frankfurt am Main"),
                travel("en", from + "Frankfrut am").options("origin"));
        assertEquals(
                "New York City",
                travel("en", from + "Nw York").options("origin").getFirst());
        assertEquals(
                "San Francisco",
                travel("en", from + "Sna Francisco").options("origin").getFirst());
        // A client asking at every keystroke: each letter narrows the list to what starts with it (`Saint P` offered
        // Saint-Étienne and Saint-Louis, a typo of `P`).
        for (String typed : List.of("Saint P", "Saint Pa", "Saint Pe")) {
            List<String> offered = travel("en", from + typed).options("origin");
            assertFalse(offered.isEmpty(), typed);
            String last = typed.substring(typed.lastIndexOf(' ') + 1);
            for (String city : offered) {
                assertTrue(
                        java.util.Arrays.stream(city.split(" ")).anyMatch(word -> word.startsWith(last)),
                        typed + " offered " + offered);
            }
        }
    }

    @Test
    void a_city_typed_in_full_then_the_first_letter_of_a_cue_stays_that_city() {
        // `London o` is one letter from `London C(anada)`, but `o` starts the date's cue `on`: London stays settled.
        ApiClient.Reply reply = travel("en", toAfterOrigin("en", "London o"), "{{ORIGIN_1}}=origin=Paris");
        assertIdentified(reply, "destination", "London", "completed");
        assertTrue(ready(reply), reply.raw());
        assertEquals("date", reply.suggestionTypes().getFirst(), reply.raw());
        assertFalse(reply.options("date").isEmpty(), reply.raw());
    }

    @Test
    void a_value_to_confirm_mid_text_is_offered_alone_when_nothing_else_is_open() {
        // Every other param is filled: the contact to confirm is the one suggestion left, with its candidates,
        // not an empty list that leaves the query unready with nothing to tap (a pick is appended at the end and
        // fills it: the query is then ready).
        for (String topic : List.of("Invoice", "{{TOPIC_1}}")) {
            ObjectNode body = fill(
                    envelope("Create an {{TYPE_1}} to Greta Fisher about " + topic), "{{TYPE_1}}", "type", "email");
            if (topic.startsWith("{{")) {
                fill(body, topic, "topic", "Invoice");
            }
            ApiClient.Reply reply = demo.suggestOk("lab/mail", body);
            assertIdentified(reply, "contact", "Greta Fisher", "need_confirmation");
            assertFalse(ready(reply), reply.raw());
            assertEquals(List.of("contact"), reply.suggestionTypes(), reply.raw());
            assertEquals("Greta Fischer", reply.options("contact").getFirst(), reply.raw());
            ObjectNode picked = fill(
                    envelope("Create an {{TYPE_1}} to Greta Fisher about " + topic + " {{CONTACT_1}}"),
                    "{{TYPE_1}}",
                    "type",
                    "email");
            fill(picked, "{{CONTACT_1}}", "contact", "Greta Fischer");
            if (topic.startsWith("{{")) {
                fill(picked, topic, "topic", "Invoice");
            }
            ApiClient.Reply after = demo.suggestOk("lab/mail", picked);
            assertTrue(ready(after), after.raw());
        }
    }

    @Test
    void a_contact_typed_in_full_then_the_first_letter_of_the_next_word_stays_the_contact() {
        // "Ada Lovelace a" is within the typos of "Ada Lovelace" (two from its eight-letter word), but "a" is too
        // short to hold a typo: it starts the next word (about), and the contact stays settled.
        for (String tail : List.of(" a", " ab")) {
            ApiClient.Reply reply = demo.suggestOk(
                    "lab/mail",
                    fill(envelope("Create an {{TYPE_1}} to Ada Lovelace" + tail), "{{TYPE_1}}", "type", "email"));
            assertIdentified(reply, "contact", "Ada Lovelace", "completed");
            assertTrue(ready(reply), tail + ": " + reply.raw());
            assertEquals("topic", reply.suggestionTypes().getFirst(), reply.raw());
        }
        // A longer misspelt value is still read by its typos.
        ApiClient.Reply misspelt = demo.suggestOk(
                "lab/mail", fill(envelope("Create an {{TYPE_1}} to Greta Fisher"), "{{TYPE_1}}", "type", "email"));
        assertIdentified(misspelt, "contact", "Greta Fisher", "need_confirmation");
    }

    @Test
    void the_start_of_a_city_closed_by_the_next_cue_stays_the_origin_to_confirm() {
        String[][] journeys = {
            {"en", "Book a flight from Quezon to"},
            {"fr", "Réserver un vol de Quezon à"},
            {"de", "Flug von Quezon nach"}
        };
        for (String[] journey : journeys) {
            ApiClient.Reply reply = travel(journey[0], journey[1]);
            assertEquals("destination", reply.suggestionTypes().getFirst(), reply.raw());
            assertEquals("Quezon City", reply.options("origin").getFirst(), reply.raw());
        }
        ApiClient.Reply picked =
                travel("en", "Book a flight from Quezon to {{DESTINATION_1}}", "{{DESTINATION_1}}=destination=London");
        assertIdentified(picked, "origin", "Quezon", "need_confirmation");
        assertFalse(ready(picked), picked.raw());
        assertEquals("Quezon City", picked.options("origin").getFirst(), picked.raw());
        // Required: first, before the optional params; its pick, appended at the end, makes the query ready.
        assertEquals("origin", picked.suggestionTypes().getFirst(), picked.raw());
        ApiClient.Reply both = travel(
                "en",
                "Book a flight from Quezon to {{DESTINATION_1}} {{ORIGIN_1}} ",
                "{{DESTINATION_1}}=destination=London",
                "{{ORIGIN_1}}=origin=Quezon City");
        assertTrue(ready(both), both.raw());
    }

    @Test
    void a_cue_between_two_picks_is_never_read_as_a_value() {
        for (String tail : List.of("", " ")) {
            ObjectNode body = envelope("Open pull request on {{REPO_1}} from {{BRANCH_1}} to {{BASE_BRANCH_1}}" + tail);
            fill(body, "{{REPO_1}}", "repo", "linux");
            fill(body, "{{BRANCH_1}}", "branch", "fix-typo");
            fill(body, "{{BASE_BRANCH_1}}", "base_branch", "main");
            ApiClient.Reply reply = demo.suggestOk("lab/code", body);
            for (JsonNode entry : reply.data().path("input")) {
                assertNotEquals("identified", entry.path("source").asText(), reply.raw());
            }
            assertTrue(ready(reply), reply.raw());
            assertEquals(List.of("reviewer"), reply.suggestionTypes(), reply.raw());
        }
        ObjectNode typing = envelope("Open pull request on {{REPO_1}} from {{BRANCH_1}} to {{BASE_BRANCH_1}} for Lin");
        fill(typing, "{{REPO_1}}", "repo", "linux");
        fill(typing, "{{BRANCH_1}}", "branch", "fix-typo");
        fill(typing, "{{BASE_BRANCH_1}}", "base_branch", "main");
        ApiClient.Reply reviewer = demo.suggestOk("lab/code", typing);
        assertIdentified(reviewer, "reviewer", "Lin", "in_progress");
        assertEquals("Linus Torvalds", reviewer.options("reviewer").getFirst(), reviewer.raw());
    }

    @Test
    void the_demo_cities_are_found_by_the_names_and_codes_people_type() {
        Map<String, String> aliases = Map.of(
                "NYC",
                "New York City",
                "New York",
                "New York City",
                "LA",
                "Los Angeles",
                "SF",
                "San Francisco",
                "Rio",
                "Rio de Janeiro",
                "CDMX",
                "Mexico City",
                "HKG",
                "Hong Kong",
                "TYO",
                "Tokyo",
                "BKK",
                "Bangkok");
        aliases.forEach((alias, city) -> {
            ApiClient.Reply read = travel(
                    "en",
                    "Book a flight from " + alias + " to {{DESTINATION_1}}",
                    "{{DESTINATION_1}}=destination=Lima");
            assertIdentified(read, "origin", alias, "completed");
            assertTrue(ready(read), alias + ": " + read.raw());
            // The city it reads as: the one the destination, declared distinct from the origin, may not repeat.
            ApiClient.Reply same = travel(
                    "en",
                    "Book a flight from " + alias + " to {{DESTINATION_1}}",
                    "{{DESTINATION_1}}=destination=" + city);
            assertIdentified(same, "origin", alias, "need_confirmation");
        });
        ApiClient.Reply typing = travel("en", toAfterOrigin("en", "LA"), "{{ORIGIN_1}}=origin=Paris");
        assertEquals("Los Angeles", typing.options("destination").getFirst(), typing.raw());
    }

    @Test
    void a_destination_typed_equal_to_the_origin_needs_confirmation_and_is_not_ready() {
        for (String language : List.of("en", "fr", "de")) {
            ApiClient.Reply same =
                    travel(language, toAfterOrigin(language, "Paris tomorrow"), "{{ORIGIN_1}}=origin=Paris");
            assertIdentified(same, "destination", "Paris", "need_confirmation");
            assertFalse(ready(same), same.raw());
            ApiClient.Reply other =
                    travel(language, toAfterOrigin(language, "Lyon tomorrow"), "{{ORIGIN_1}}=origin=Paris");
            assertIdentified(other, "destination", "Lyon", "completed");
            assertTrue(ready(other), other.raw());
        }
        // Either way round, and typed whole.
        ApiClient.Reply origin =
                travel("en", "Book a flight from Paris to {{DESTINATION_1}}", "{{DESTINATION_1}}=destination=Paris");
        assertIdentified(origin, "origin", "Paris", "need_confirmation");
        assertFalse(ready(origin), origin.raw());
        assertFalse(ready(travel("en", "Book a flight from Paris to Paris")));
    }

    @Test
    void validate_accepts_distinct_from_and_refuses_one_that_names_no_param_of_the_product() throws Exception {
        Path tenants = temp.resolve("tenants");
        Path file = Files.createDirectories(tenants.resolve("trips")).resolve("tenant.yaml");
        String tenant = """
                products:
                  - id: 3b5d7f9a-1c2e-4f6a-8b0c-2d4e6f8a0b1c
                    slug: trips
                    intents:
                      - name: go
                        phrases: [Go from]
                        params:
                          - {type: origin, required: true, cues: [from], options: [Paris, Lyon]}
                          - {type: destination, cues: [to], options: [Paris, Lyon], distinct_from: %s}
                """;
        Files.writeString(file, tenant.formatted("origin"));
        TestTenants.Cli valid = TestTenants.cli("validate", "--tenants", tenants.toString());
        assertEquals(0, valid.exit(), valid.err());
        Files.writeString(file, tenant.formatted("orgin"));
        TestTenants.Cli invalid = TestTenants.cli("validate", "--tenants", tenants.toString());
        assertEquals(1, invalid.exit(), invalid.out());
        assertTrue(
                invalid.err()
                        .contains(file + ":9: products[0].intents[0].params[1].distinct_from: names no param"
                                + " of this product ('orgin'); its params are [origin, destination]"),
                invalid.err());
    }
}
