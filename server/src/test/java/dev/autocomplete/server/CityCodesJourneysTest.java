package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static dev.autocomplete.server.ApiClient.fill;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The demo cities' IATA city codes (issue 20), over HTTP: a code ({@code =LON}) is read only when typed whole, and
 * offered after the names that start with what is typed, so it never hides a name being typed ({@code Los} is Los
 * Angeles before Lagos, {@code B} does not offer Mumbai); a code given to a live catalog's record through the
 * records API behaves the same and comes back as written; an empty code is refused.
 */
class CityCodesJourneysTest {

    private static final String LAB = """
            default_language: en
            catalogs:
              places: {}
            products:
              - id: 7a1c3e5b-2d4f-4a6b-8c0d-1e2f3a4b5c70
                slug: visit
                intents:
                  - name: visit
                    phrases: [Visit]
                    params:
                      - {type: place, required: true, catalog: places}
            """;

    private static final String PLACES = "/api/catalogs/places/options";

    @RegisterExtension
    static final DemoServer demo = new DemoServer().withTenant("lab", Map.of("lab/tenant.yaml", LAB), "visit");

    private static ApiClient.Reply travel(String rawQuery, String... picks) {
        ObjectNode body = envelope(rawQuery);
        for (String pick : picks) {
            String[] parts = pick.split("=", 3);
            fill(body, parts[0], parts[1], parts[2]);
        }
        return demo.suggestOk("travel", body);
    }

    private static List<String> destinations(String typed) {
        return travel("Book a flight from {{ORIGIN_1}} to " + typed, "{{ORIGIN_1}}=origin=Paris")
                .options("destination");
    }

    private static void assertOrigin(ApiClient.Reply reply, String typed, String state) {
        JsonNode entry = DateJourneysTest.input(reply, "origin");
        assertEquals(typed, entry.path("text").asText(), reply.raw());
        assertEquals(state, entry.path("state").asText(), reply.raw());
    }

    private static ApiClient.Reply write(String body) {
        return demo.api().call("POST", PLACES, demo.key("lab/secret"), body, "application/json");
    }

    private static List<String> places(String typed) {
        return demo.suggestOk("lab/visit", envelope("Visit " + typed)).options("place");
    }

    @Test
    void a_city_code_typed_whole_is_its_city() {
        assertEquals("London", destinations("LON").getFirst());
        assertTrue(destinations("SHA").contains("Shanghai"), destinations("SHA").toString());
        // Followed by more text, a code no name has as a whole word reads as its city, ready.
        for (String[] code : new String[][] {{"LON", "London"}, {"BOM", "Mumbai"}, {"SHA", "Shanghai"}}) {
            ApiClient.Reply read = travel(
                    "Book a flight from " + code[0] + " to {{DESTINATION_1}}", "{{DESTINATION_1}}=destination=Lima");
            assertOrigin(read, code[0], "completed");
            assertTrue(read.data().path("is_ready").asBoolean(), code[0] + ": " + read.raw());
        }
    }

    @Test
    void a_code_never_hides_the_name_being_typed() {
        // Lagos (LOS) weighs more than Los Angeles, but not ten times more: the name being typed comes first.
        List<String> origins = travel("Book a flight from Los").options("origin");
        assertEquals("Los Angeles", origins.getFirst(), origins.toString());
        assertTrue(origins.contains("Lagos"), origins.toString());
        // Paris (PAR) far outweighs Pār Naogaon, whose first word is "Par".
        assertEquals("Paris", travel("Book a flight from PAR").options("origin").getFirst());
        // Followed by more text, "Los" is a name being typed, not Lagos: to confirm, Los Angeles first.
        ApiClient.Reply read =
                travel("Book a flight from Los to {{DESTINATION_1}}", "{{DESTINATION_1}}=destination=Lima");
        assertOrigin(read, "Los", "need_confirmation");
        assertEquals("Los Angeles", read.options("origin").getFirst(), read.raw());
    }

    @Test
    void a_code_is_offered_for_its_whole_span_only() {
        // Typed whole, a code means its city, before the names it only starts (Boma, Tyoply Stan).
        assertEquals(
                "Mumbai", destinations("BOM").getFirst(), destinations("BOM").toString());
        assertEquals(
                "Tokyo", destinations("TYO").getFirst(), destinations("TYO").toString());
        assertFalse(destinations("B").contains("Mumbai"), destinations("B").toString());
        assertFalse(destinations("BO").contains("Mumbai"), destinations("BO").toString());
        // No typo of a code: "BMO" is nothing of Mumbai's.
        assertFalse(destinations("BMO").contains("Mumbai"), destinations("BMO").toString());
        // The everyday names stay ordinary aliases, found from their first letters.
        assertEquals("Mexico City", destinations("CDM").getFirst());
    }

    @Test
    void a_code_given_through_the_records_api_is_found_whole_and_exported_as_written() {
        ApiClient.Reply wrote = write("""
                [{"id": "p-1", "text": "Quiet Harbour", "aliases": ["=XYZ"], "weight": 5},
                 {"id": "p-2", "text": "Xylophone Hall", "weight": 1}]""");
        assertEquals(200, wrote.status(), wrote.raw());
        // Typed whole, the code names the place: read, nothing left to ask.
        ApiClient.Reply whole = demo.suggestOk("lab/visit", envelope("Visit XYZ"));
        assertTrue(whole.data().path("is_ready").asBoolean(), whole.raw());
        ApiClient.Reply start = demo.suggestOk("lab/visit", envelope("Visit XY"));
        assertFalse(start.data().path("is_ready").asBoolean(), start.raw());
        assertEquals(List.of("Xylophone Hall"), start.options("place"), start.raw());
        ApiClient.Reply exported = demo.api().call("GET", PLACES + "/p-1", demo.key("lab/secret"), null, null);
        assertEquals(200, exported.status(), exported.raw());
        assertEquals("=XYZ", exported.data().path("aliases").path(0).asText(), exported.raw());
    }

    @Test
    void an_empty_code_is_refused_and_nothing_is_written() {
        ApiClient.Reply refused = write("""
                [{"id": "p-9", "text": "Empty Code Place", "aliases": ["ok", "="]}]""");
        assertEquals(400, refused.status(), refused.raw());
        assertEquals("INVALID_RECORDS", refused.errorCode(), refused.raw());
        assertTrue(refused.raw().contains("'aliases[1]' is a code"), refused.raw());
        assertFalse(places("Empty").contains("Empty Code Place"));
    }
}
