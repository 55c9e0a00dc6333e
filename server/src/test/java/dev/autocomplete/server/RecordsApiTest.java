package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The records API's calls as Algolia and Typesense users look for them (docs/protocol.md §8): the list of catalogs,
 * one option by id, partial updates, batch deletes, the export filtered by a prefix, ids that need escaping in a
 * path, and request lines too long to read; over HTTP on a real port, each with its refusals.
 */
class RecordsApiTest {

    /** The live-catalogs tenant, with two catalogs more that no product serves. */
    private static final String TENANT =
            LiveCatalogsTest.TENANT.replace("  swap: {}\n", "  swap: {}\n  places: {}\n  oddities: {}\n");

    @RegisterExtension
    static final DemoServer server = new DemoServer()
            .withTenant(
                    "shop",
                    Map.of(
                            "shop/tenant.yaml",
                            TENANT,
                            "shop/data/colors.csv",
                            "text,weight\nCrimson Red,3\nNavy Blue,2\nForest Green,1\n"),
                    "orders",
                    "swapper");

    private static final String PRODUCTS = "/api/catalogs/products/options";
    private static final String JSON = "application/json";
    private static final String NDJSON = "application/x-ndjson";

    private static ApiClient.Reply call(String method, String path, String body, String type) {
        return server.api().call(method, path, server.key("shop/secret"), body, type);
    }

    private static ApiClient.Reply ok(String method, String path, String body, String type) {
        ApiClient.Reply reply = call(method, path, body, type);
        assertTrue(reply.status() == 200 || reply.status() == 204, method + " " + path + ": " + reply.raw());
        return reply;
    }

    private static List<String> offered(String query) {
        return server.suggestOk("shop/orders", envelope(query)).options("product");
    }

    /** Every byte but the unreserved ones as %XX, '.' included: what a path segment needs to carry any id. */
    static String encoded(String id) {
        StringBuilder out = new StringBuilder();
        for (byte b : id.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (Character.isLetterOrDigit(c) && c < 0x80 || c == '-' || c == '_' || c == '~') {
                out.append((char) c);
            } else {
                out.append('%').append(String.format("%02X", c));
            }
        }
        return out.toString();
    }

    private static String quoted(String text) {
        return com.fasterxml.jackson.databind.node.TextNode.valueOf(text).toString();
    }

    private static int port() {
        return java.net.URI.create(server.api().base()).getPort();
    }

    private static List<String> ids(ApiClient.Reply page) {
        List<String> ids = new ArrayList<>();
        page.data().path("options").forEach(o -> ids.add(o.path("id").asText()));
        return ids;
    }

    private static List<Long> positions(ApiClient.Reply reply, String at) {
        List<Long> positions = new ArrayList<>();
        reply.json()
                .path("error")
                .path("details")
                .forEach(d -> positions.add(d.path(at).asLong()));
        return positions;
    }

    private static void assertError(int status, String code, ApiClient.Reply reply) {
        assertEquals(status, reply.status(), reply.raw());
        assertEquals(code, reply.errorCode(), reply.raw());
    }

    // GET /api/catalogs

    @Test
    void the_list_names_the_tenants_catalogs_with_their_counts_and_generations_and_no_paths() {
        ApiClient.Reply before = ok("GET", "/api/catalogs", null, null);
        JsonNode catalogs = before.data().path("catalogs");
        List<String> names = new ArrayList<>();
        catalogs.forEach(c -> names.add(c.path("name").asText()));
        assertEquals(List.of("colors", "oddities", "places", "products", "swap"), names, before.raw());
        assertEquals(3, catalogs.get(0).path("options").asLong(), before.raw());
        assertFalse(
                before.raw().contains("colors.csv")
                        || before.raw().contains(server.temp().toString()),
                "no server paths: " + before.raw());

        ok("POST", "/api/catalogs/oddities/options", "[{\"id\": \"list-1\", \"text\": \"Listed Oddity\"}]", JSON);
        JsonNode after =
                ok("GET", "/api/catalogs", null, null).data().path("catalogs").get(1);
        assertEquals("oddities", after.path("name").asText());
        assertEquals(
                catalogs.get(1).path("options").asLong() + 1,
                after.path("options").asLong());
        assertTrue(
                after.path("generation").asLong()
                        > catalogs.get(1).path("generation").asLong(),
                after.toString());

        ApiClient.Reply demo = server.api().call("GET", "/api/catalogs", server.key("secret"), null, null);
        assertEquals(200, demo.status(), demo.raw());
        assertFalse(demo.raw().contains("oddities"), "another tenant's catalogs are not listed: " + demo.raw());
    }

    // GET …/options/{id}

    @Test
    void one_option_is_read_by_its_id_with_every_field() {
        ok("POST", PRODUCTS, """
                [{"id": "get-1", "text": "Gettable Lamp", "aliases": ["glamp"], "weight": 4,
                  "translations": {"fr": "Lampe"}}]""", JSON);
        ApiClient.Reply one = ok("GET", PRODUCTS + "/get-1", null, null);
        assertEquals("Gettable Lamp", one.data().path("text").asText(), one.raw());
        assertEquals("glamp", one.data().path("aliases").get(0).asText());
        assertEquals(4, one.data().path("weight").asDouble());
        assertTrue(one.raw().contains("\"weight\":4,"), "a whole weight as it was sent, not 4.0: " + one.raw());
        assertEquals("Lampe", one.data().path("translations").path("fr").asText());
        ok("PATCH", PRODUCTS, "[{\"id\": \"get-1\", \"weight\": 2.5}]", JSON);
        ApiClient.Reply fraction = ok("GET", PRODUCTS + "/get-1", null, null);
        assertTrue(fraction.raw().contains("\"weight\":2.5,"), fraction.raw());

        assertError(404, "OPTION_NOT_FOUND", call("GET", PRODUCTS + "/no-such-id", null, null));
        assertError(400, "INVALID_REQUEST", call("GET", PRODUCTS + "/" + encoded("x".repeat(201)), null, null));
        assertError(400, "INVALID_REQUEST", call("GET", PRODUCTS + "/%20", null, null));
        assertError(400, "INVALID_REQUEST", call("GET", PRODUCTS + "/a%FF", null, null));
        // A line break ends Helidon's route match on the decoded path: still the bad id it is, not "No such endpoint".
        assertError(400, "INVALID_REQUEST", call("GET", PRODUCTS + "/a%0Ab", null, null));
        assertError(400, "INVALID_REQUEST", call("DELETE", PRODUCTS + "/a%0Db", null, null));
        assertError(404, "CATALOG_NOT_FOUND", call("GET", "/api/catalogs/nope/options/get-1", null, null));
    }

    // PATCH …/options

    @Test
    void a_patch_changes_only_the_fields_it_names_and_the_next_suggest_request_sees_it() {
        ok("POST", PRODUCTS, """
                [{"id": "HD-101", "text": "Hammer Drill", "aliases": ["hd"], "weight": 1,
                  "translations": {"fr": "Perceuse"}},
                 {"id": "HD-102", "text": "Hand Drill", "weight": 2}]""", JSON);
        assertEquals("Hand Drill", offered("Order Ha").getFirst());

        ApiClient.Reply patched = ok("PATCH", PRODUCTS, "[{\"id\":\"HD-101\",\"weight\":50}]", JSON);
        assertEquals(1, patched.data().path("patched").asInt(), patched.raw());
        JsonNode record = ok("GET", PRODUCTS + "/HD-101", null, null).data();
        assertEquals(50, record.path("weight").asDouble());
        assertEquals("Hammer Drill", record.path("text").asText(), "the other fields are kept: " + record);
        assertEquals("hd", record.path("aliases").get(0).asText());
        assertEquals("Perceuse", record.path("translations").path("fr").asText());
        assertEquals("Hammer Drill", offered("Order Ha").getFirst(), "its new weight ranks it first at once");

        ok("PATCH", PRODUCTS, "{\"id\": \"HD-101\", \"text\": \"Hammer Press\", \"aliases\": null}\n", NDJSON);
        List<String> renamed = offered("Order Hammer");
        assertTrue(renamed.contains("Hammer Press"), renamed.toString());
        assertFalse(renamed.contains("Hammer Drill"), "the old text is gone from the index: " + renamed);
        JsonNode reset = ok("GET", PRODUCTS + "/HD-101", null, null).data();
        assertEquals(0, reset.path("aliases").size(), "null resets aliases: " + reset);
        assertEquals(50, reset.path("weight").asDouble());
    }

    @Test
    void a_text_of_the_longest_length_the_api_takes_is_suggested() {
        String longest = "Quire " + "q".repeat(1000 - 6);
        ok("POST", PRODUCTS, "[{\"id\": \"Q-1000\", \"text\": \"" + longest + "\"}]", JSON);
        // Over the 200 characters a plug-in engine may answer, it was taken, then dropped from every answer.
        assertEquals(List.of(longest), offered("Order Quire"));
    }

    @Test
    void a_patch_of_an_unknown_id_or_a_taken_text_is_refused_whole_with_every_position() {
        ok("POST", PRODUCTS, """
                [{"id": "pt-1", "text": "Patch Table", "weight": 1},
                 {"id": "pt-2", "text": "Patch Chair", "weight": 1}, {"id": "pt-3", "text": "Patch Stool"}]""", JSON);
        String body = """
                {"id": "pt-3", "weight": 9}
                {"id": "pt-404", "weight": 3}

                {"id": "pt-2", "text": "PATCH  table!"}
                {"id": "pt-1", "weight": "high"}
                {"id": "pt-1", "colour": "red"}
                {"id": "pt-1", "text": null}
                {"weight": 2}
                {"id": "pt-1", "text": "Broken"
                """;
        ApiClient.Reply refused = call("PATCH", PRODUCTS, body, NDJSON);
        assertError(400, "INVALID_RECORDS", refused);
        assertEquals(
                List.of(5L, 6L, 7L, 8L, 9L),
                positions(refused, "line"),
                "the shape of each line first: " + refused.raw());
        assertTrue(refused.raw().contains("weight"), refused.raw());

        ApiClient.Reply stored =
                call("PATCH", PRODUCTS, body.lines().limit(4).reduce("", (a, b) -> a + b + "\n"), NDJSON);
        assertError(400, "INVALID_RECORDS", stored);
        assertEquals(List.of(2L, 4L), positions(stored, "line"), stored.raw());
        assertTrue(stored.raw().contains("pt-404"), stored.raw());
        assertTrue(stored.raw().contains("already the text of id 'pt-1'"), stored.raw());
        assertEquals(
                0,
                ok("GET", PRODUCTS + "/pt-3", null, null).data().path("weight").asDouble(),
                "nothing was applied");

        ApiClient.Reply byIndex = call("PATCH", PRODUCTS, """
                [{"id": "pt-1", "weight": 2}, {"id": "pt-1", "weight": 3}]""", JSON);
        assertError(400, "INVALID_RECORDS", byIndex);
        assertEquals(List.of(1L), positions(byIndex, "index"), "one id twice: " + byIndex.raw());
    }

    /** An operator trial read "… did you mean 'de'?." in the message: a reason that asks ends its own sentence. */
    @Test
    void a_language_named_for_a_tag_is_refused_with_the_tag_meant() {
        ApiClient.Reply refused = call("POST", PRODUCTS, """
                [{"id": "lang-1", "text": "Zed Lamp", "translations": {"german": "Zedlampe"}}]""", JSON);
        assertError(400, "INVALID_RECORDS", refused);
        String message = refused.json().path("error").path("message").asText();
        assertTrue(message.endsWith("did you mean 'de'?"), message);
    }

    @Test
    void a_patch_that_is_no_json_array_or_ndjson_is_refused() {
        assertError(400, "INVALID_JSON", call("PATCH", PRODUCTS, "{\"id\": \"pt-1\", \"weight\": 2}", JSON));
        assertError(400, "INVALID_JSON", call("PATCH", PRODUCTS, "[{\"id\": \"pt-1\", \"weight\": 2}", JSON));
        assertError(400, "INVALID_JSON", call("PATCH", PRODUCTS, "[] []", JSON));
        assertError(400, "INVALID_JSON", call("PATCH", PRODUCTS, "[{\"id\": \"pt-1\", \"weight\": NaN}]", JSON));
        assertError(
                400, "INVALID_JSON", call("PATCH", PRODUCTS, "[" + "[".repeat(5000) + "]".repeat(5000) + "]", JSON));
        assertError(400, "INVALID_JSON", call("PATCH", PRODUCTS, "", JSON));
        assertError(415, "UNSUPPORTED_MEDIA_TYPE", call("PATCH", PRODUCTS, "id,weight", "text/csv"));
        assertError(415, "UNSUPPORTED_MEDIA_TYPE", call("PATCH", PRODUCTS, "[]", null));
        ApiClient.Reply notUtf8 = server.api()
                .send(java.net.http.HttpRequest.newBuilder(
                                java.net.URI.create(server.api().base() + PRODUCTS))
                        .header("Authorization", "Bearer " + server.key("shop/secret"))
                        .header("Content-Type", JSON)
                        .method("PATCH", java.net.http.HttpRequest.BodyPublishers.ofByteArray(new byte[] {
                            '[', '{', '"', 'i', 'd', '"', ':', '"', (byte) 0xC0, (byte) 0xBC, '"', '}', ']'
                        }))
                        .build());
        assertError(400, "INVALID_JSON", notUtf8);
        assertEquals(0, ok("PATCH", PRODUCTS, "[]", JSON).data().path("patched").asInt());
    }

    // POST …/options/delete

    @Test
    void a_batch_delete_counts_what_it_removed_and_passes_over_absent_ids() {
        ok("POST", PRODUCTS, """
                [{"id": "bd-1", "text": "Batch Gone One"}, {"id": "bd-2", "text": "Batch Gone Two"},
                 {"id": "bd-3", "text": "Batch Kept Three"}]""", JSON);
        assertEquals(3, offered("Order Batch").size());
        ApiClient.Reply deleted =
                ok("POST", PRODUCTS + "/delete", "{\"ids\": [\"bd-1\", \"bd-2\", \"bd-missing\", \"bd-1\"]}", JSON);
        assertEquals(2, deleted.data().path("deleted").asInt(), deleted.raw());
        assertEquals(List.of("Batch Kept Three"), offered("Order Batch"));
        assertEquals(
                0,
                ok("POST", PRODUCTS + "/delete", "{\"ids\": []}", JSON)
                        .data()
                        .path("deleted")
                        .asInt());
    }

    @Test
    void a_batch_delete_of_a_bad_shape_deletes_nothing() {
        ok("POST", PRODUCTS, "[{\"id\": \"bx-1\", \"text\": \"Batch Survivor\"}]", JSON);
        for (String body : List.of(
                "[\"bx-1\"]",
                "{}",
                "{\"ids\": \"bx-1\"}",
                "{\"ids\": [\"bx-1\", 7]}",
                "{\"ids\": [\"bx-1\", \" \"]}",
                "{\"ids\": [\"bx-1\", \"" + "x".repeat(201) + "\"]}",
                "{\"ids\": [\"bx-1\", \"a\\u0000b\"]}",
                "{\"ids\": [\"bx-1\"], \"force\": true}")) {
            assertError(400, "INVALID_REQUEST", call("POST", PRODUCTS + "/delete", body, JSON));
        }
        StringBuilder tooMany = new StringBuilder("{\"ids\": [\"bx-1\"");
        for (int i = 0; i < 10_000; i++) {
            tooMany.append(",\"many-").append(i).append('"');
        }
        assertError(400, "INVALID_REQUEST", call("POST", PRODUCTS + "/delete", tooMany + "]}", JSON));
        assertError(400, "INVALID_JSON", call("POST", PRODUCTS + "/delete", "{\"ids\": [\"bx-1\"]", JSON));
        assertError(400, "INVALID_JSON", call("POST", PRODUCTS + "/delete", "{\"ids\": [\"bx-1\"]} {}", JSON));
        assertError(400, "INVALID_JSON", call("POST", PRODUCTS + "/delete", "", JSON));
        assertError(415, "UNSUPPORTED_MEDIA_TYPE", call("POST", PRODUCTS + "/delete", "{\"ids\": [\"bx-1\"]}", NDJSON));
        assertError(
                404,
                "CATALOG_NOT_FOUND",
                call("POST", "/api/catalogs/nope/options/delete", "{\"ids\": [\"bx-1\"]}", JSON));
        assertEquals(
                "Batch Survivor",
                ok("GET", PRODUCTS + "/bx-1", null, null).data().path("text").asText());
    }

    @Test
    void an_option_whose_id_is_delete_is_read_and_deleted_at_its_own_path() {
        ok("POST", PRODUCTS, "[{\"id\": \"delete\", \"text\": \"Deletion Pad\"}]", JSON);
        assertEquals(
                "Deletion Pad",
                ok("GET", PRODUCTS + "/delete", null, null).data().path("text").asText());
        assertEquals(204, ok("DELETE", PRODUCTS + "/delete", null, null).status());
        assertError(404, "OPTION_NOT_FOUND", call("GET", PRODUCTS + "/delete", null, null));
        assertError(405, "METHOD_NOT_ALLOWED", call("PUT", PRODUCTS + "/delete", "{}", JSON));
    }

    // Ids that need escaping

    @Test
    void every_id_the_api_takes_is_created_read_patched_and_deleted_by_every_call() {
        List<String> ids = List.of(
                "a/b",
                "/lead",
                "trail/",
                "a//b",
                "100%",
                "%2F",
                "..",
                ".",
                "a/../b",
                "two words",
                " padded ",
                "semi;colon",
                "plus+sign",
                "q?uery",
                "hash#tag",
                "ünï/cödé",
                "x".repeat(200),
                "é".repeat(200),
                "delete/more");
        StringBuilder records = new StringBuilder();
        for (int i = 0; i < ids.size(); i++) {
            records.append("{\"id\": ")
                    .append(quoted(ids.get(i)))
                    .append(", \"text\": \"Odd ")
                    .append(i)
                    .append("\"}\n");
        }
        ok("POST", "/api/catalogs/oddities/options", records.toString(), NDJSON);
        for (int i = 0; i < ids.size(); i++) {
            String id = ids.get(i);
            String path = "/api/catalogs/oddities/options/" + encoded(id);
            ApiClient.Reply read = ok("GET", path, null, null);
            assertEquals(id, read.data().path("id").asText(), path);
            ok("PATCH", "/api/catalogs/oddities/options", "[{\"id\": " + quoted(id) + ", \"weight\": 7}]", JSON);
            assertEquals(7, ok("GET", path, null, null).data().path("weight").asDouble(), path);
            assertEquals(204, ok("DELETE", path, null, null).status(), path);
            assertError(404, "OPTION_NOT_FOUND", call("GET", path, null, null));
        }
    }

    @Test
    void a_path_whose_dot_segments_leave_its_catalog_is_not_found() throws Exception {
        ok("POST", "/api/catalogs/oddities/options", "[{\"id\": \"raw/slash\", \"text\": \"Raw Slash\"}]", JSON);
        try (RawConnection raw = new RawConnection(port())) {
            raw.send("GET /api/catalogs/products/options/../../oddities/options/raw%2Fslash HTTP/1.1\r\nHost: x\r\n"
                    + "Authorization: Bearer " + server.key("shop/secret") + "\r\n\r\n");
            String moved = raw.readResponse();
            assertTrue(moved.startsWith("HTTP/1.1 404") && moved.contains("\"NOT_FOUND\""), moved);
        }
        // The catalog's own routes too: the listing, a write, the batch delete.
        for (String request : List.of(
                "GET /api/catalogs/products/options/../../oddities/options HTTP/1.1\r\n",
                "POST /api/catalogs/products/options/../../oddities/options/delete HTTP/1.1\r\n"
                        + "Content-Type: application/json\r\nContent-Length: 9\r\n",
                "PATCH /api/catalogs/products/../oddities/options HTTP/1.1\r\n"
                        + "Content-Type: application/json\r\nContent-Length: 2\r\n")) {
            try (RawConnection raw = new RawConnection(port())) {
                String body = request.startsWith("POST") ? "{\"ids\":[]}" : request.startsWith("PATCH") ? "[]" : "";
                raw.send(request + "Host: x\r\nAuthorization: Bearer " + server.key("shop/secret") + "\r\n\r\n" + body);
                String moved = raw.readResponse();
                assertTrue(moved.startsWith("HTTP/1.1 404") && moved.contains("\"NOT_FOUND\""), request + moved);
            }
        }
        assertEquals(
                "Raw Slash",
                ok("GET", "/api/catalogs/oddities/options/raw%2Fslash", null, null)
                        .data()
                        .path("text")
                        .asText());
    }

    // GET …/options?q=

    @Test
    void the_export_filtered_by_q_keeps_texts_with_a_word_starting_so_folded_and_pages_through_them() {
        ok("PUT", "/api/catalogs/places/options", """
                {"id": "p1", "text": "São Paulo"}
                {"id": "p2", "text": "Saint-Louis"}
                {"id": "p3", "text": "New York"}
                {"id": "p4", "text": "Paso Robles"}
                {"id": "p5", "text": "Lisboa"}
                {"id": "p6", "text": "Santa Paula"}
                {"id": "p7", "text": "Apaulo"}
                """, NDJSON);
        String places = "/api/catalogs/places/options";
        assertEquals(List.of("p1"), ids(ok("GET", places + "?q=sao", null, null)));
        assertEquals(List.of("p1", "p6"), ids(ok("GET", places + "?q=PAUL", null, null)), "a word's start too");
        assertEquals(List.of("p1"), ids(ok("GET", places + "?q=S%C3%83O%20p", null, null)), "accents and case");
        assertEquals(List.of("p2"), ids(ok("GET", places + "?q=saint%20lo", null, null)), "punctuation folded");
        assertEquals(List.of(), ids(ok("GET", places + "?q=aulo", null, null)), "not inside a word");
        assertEquals(7, ids(ok("GET", places + "?q=", null, null)).size(), "an empty q filters nothing");
        assertEquals(List.of("p1", "p2"), ids(ok("GET", places + "?limit=2&cursor=", null, null)), "cursor= is none");

        List<String> paged = new ArrayList<>();
        String cursor = null;
        do {
            ApiClient.Reply page =
                    ok("GET", places + "?q=s&limit=1" + (cursor == null ? "" : "&cursor=" + cursor), null, null);
            paged.addAll(ids(page));
            JsonNode next = page.data().path("next_cursor");
            cursor = next.isNull() ? null : next.asText();
        } while (cursor != null && paged.size() < 10);
        assertEquals(List.of("p1", "p2", "p6"), paged);

        assertError(400, "INVALID_REQUEST", call("GET", places + "?q=%21%21", null, null));
        assertError(400, "INVALID_REQUEST", call("GET", places + "?q=" + "a".repeat(1001), null, null));
    }

    @Test
    void a_put_of_blank_ndjson_lines_empties_nothing_and_an_empty_array_empties_the_catalog() {
        String places = "/api/catalogs/oddities/options";
        ok("PUT", places, "{\"id\": \"kept\", \"text\": \"Kept Oddity\"}\n", NDJSON);
        // What `echo "$EMPTY" | curl --data-binary @-` sends when the step before it failed.
        for (String blank : List.of("\n", "\n\n  \n")) {
            ApiClient.Reply refused = call("PUT", places, blank, NDJSON);
            assertError(400, "INVALID_JSON", refused);
            assertTrue(refused.raw().contains("send [] as application/json"), refused.raw());
        }
        assertEquals(List.of("kept"), ids(ok("GET", places, null, null)));
        for (String type : List.of("application/ndjson", "application/jsonl", "Application/NDJSON; charset=utf-8")) {
            ok("PUT", places, "{\"id\": \"named\", \"text\": \"Named Oddity\"}\n", type);
            assertEquals(List.of("named"), ids(ok("GET", places, null, null)), type);
        }
        assertEquals(0, ok("PUT", places, "[]", JSON).data().path("options").asInt());
        assertEquals(List.of(), ids(ok("GET", places, null, null)));
    }

    @Test
    void a_body_that_starts_with_a_byte_order_mark_is_read_as_without_it() {
        // What Notepad's "UTF-8 with BOM" and PowerShell write: JSON lets a reader ignore it (RFC 8259 §8.1).
        String bom = "\uFEFF";
        ok("POST", PRODUCTS, bom + "[{\"id\": \"bom-1\", \"text\": \"Marked Array\"}]", JSON);
        ok("POST", PRODUCTS, bom + "{\"id\": \"bom-2\", \"text\": \"Marked Lines\"}\n", NDJSON);
        ok("PATCH", PRODUCTS, bom + "[{\"id\": \"bom-1\", \"weight\": 9}]", JSON);
        ok("PATCH", PRODUCTS, bom + "{\"id\": \"bom-2\", \"weight\": 8}\n", NDJSON);
        assertEquals(
                9,
                ok("GET", PRODUCTS + "/bom-1", null, null).data().path("weight").asInt());
        assertEquals(
                8,
                ok("GET", PRODUCTS + "/bom-2", null, null).data().path("weight").asInt());
        assertEquals(
                2,
                ok("POST", PRODUCTS + "/delete", bom + "{\"ids\": [\"bom-1\", \"bom-2\"]}", JSON)
                        .data()
                        .path("deleted")
                        .asInt());
        // Only at the very start: inside, it is a character like another, refused where a record holds it.
        assertError(400, "INVALID_JSON", call("POST", PRODUCTS, "[" + bom + "{\"id\": \"bom-3\"}]", JSON));
    }

    @Test
    void a_body_past_a_json_limit_or_an_id_of_another_type_is_told_what_it_broke() {
        String deep = "[{\"id\": \"d\", \"text\": \"Deep\", \"aliases\": " + "[".repeat(100) + "]".repeat(100) + "}]";
        ApiClient.Reply nested = call("POST", PRODUCTS, deep, JSON);
        assertError(400, "INVALID_JSON", nested);
        assertTrue(nested.raw().contains("nested deeper than limits.json-depth allows (record 1)"), nested.raw());
        ApiClient.Reply line = call("POST", PRODUCTS, deep.substring(1, deep.length() - 1) + "\n", NDJSON);
        assertError(400, "INVALID_RECORDS", line);
        assertTrue(line.raw().contains("nested deeper than limits.json-depth allows"), line.raw());

        ApiClient.Reply numbered =
                call("POST", PRODUCTS, "[{\"id\": 42, \"text\": \"Numbered\"}, {\"text\": \"None\"}]", JSON);
        assertError(400, "INVALID_RECORDS", numbered);
        assertTrue(numbered.raw().contains("'id' must be a string (it is a number)"), numbered.raw());
        assertTrue(numbered.raw().contains("'id' is required\""), numbered.raw());
    }

    // Long request lines

    @Test
    void an_overlong_request_line_is_answered_414_in_json_never_reset() throws Exception {
        for (int length : List.of(7_000, 8_200, 10_000, 100_000)) {
            try (RawConnection raw = new RawConnection(port())) {
                raw.send("GET " + PRODUCTS + "?cursor=" + "A".repeat(length) + " HTTP/1.1\r\nHost: x\r\n"
                        + "Authorization: Bearer " + server.key("shop/secret") + "\r\n\r\n");
                String answer = raw.readResponse();
                int status = Integer.parseInt(answer.substring(9, 12));
                assertTrue(status == 400 || status == 414, length + ": " + answer);
                assertTrue(answer.contains(status == 414 ? "\"URI_TOO_LONG\"" : "\"INVALID_REQUEST\""), answer);
                if (status == 414) {
                    assertTrue(raw.endsCleanly(), length + ": the connection ends without a reset");
                }
            }
        }
    }

    // Refusals common to the calls

    @Test
    void wrong_methods_are_405_on_every_new_path_with_the_methods_it_takes_in_allow() {
        // RFC 9110 §15.5.6: a 405 MUST carry Allow, so that a client (or a migration script) sees what to use.
        assertNotAllowed("GET, HEAD", call("POST", "/api/catalogs", "[]", JSON));
        assertNotAllowed("GET, HEAD", call("DELETE", "/api/catalogs", null, null));
        assertNotAllowed("GET, HEAD, POST, PUT, PATCH", call("DELETE", PRODUCTS, null, null));
        assertNotAllowed("GET, HEAD, DELETE", call("POST", PRODUCTS + "/some-id", "[]", JSON));
        assertNotAllowed("GET, HEAD, DELETE", call("PATCH", PRODUCTS + "/some-id", "[]", JSON));
        assertNotAllowed("GET, HEAD, DELETE", call("PUT", PRODUCTS + "/a%2Fb", "[]", JSON));
        assertNotAllowed("GET, HEAD, DELETE, POST", call("PUT", PRODUCTS + "/delete", "{}", JSON));
        assertNotAllowed("POST, OPTIONS", server.api().call("GET", "/api/suggest", null, null, null));
        assertNotAllowed("POST", server.api().call("GET", "/api/auth/token", null, null, null));
        assertNotAllowed("POST, OPTIONS", server.api().call("GET", "/api/telemetry/events", null, null, null));
    }

    private static void assertNotAllowed(String allow, ApiClient.Reply reply) {
        assertError(405, "METHOD_NOT_ALLOWED", reply);
        assertEquals(allow, reply.header("Allow"), reply.headers().toString());
    }

    @Test
    void the_new_calls_need_the_tenants_secret_key() {
        List<String[]> calls = List.of(
                new String[] {"GET", "/api/catalogs", null},
                new String[] {"GET", PRODUCTS + "/x", null},
                new String[] {"PATCH", PRODUCTS, "[]"},
                new String[] {"POST", PRODUCTS + "/delete", "{\"ids\": []}"});
        for (String[] c : calls) {
            ApiClient.Reply none = server.api().call(c[0], c[1], null, c[2], c[2] == null ? null : JSON);
            assertEquals(401, none.status(), c[1] + ": " + none.raw());
            ApiClient.Reply publicKey =
                    server.api().call(c[0], c[1], server.key("shop/orders"), c[2], c[2] == null ? null : JSON);
            assertError(403, "SECRET_KEY_REQUIRED", publicKey);
            if (!c[1].equals("/api/catalogs")) {
                ApiClient.Reply otherTenant =
                        server.api().call(c[0], c[1], server.key("secret"), c[2], c[2] == null ? null : JSON);
                assertError(404, "CATALOG_NOT_FOUND", otherTenant);
            }
        }
    }

    @TempDir
    Path temp;

    @Test
    void a_secret_key_without_the_catalogs_use_is_refused_with_key_scope() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        String suggestOnly = TestTenants.createKey(tenants, "demo", "secret", null, "--scopes", "suggest");
        try (AutocompleteServer other = AutocompleteServer.start(TestServers.settings(tenants))) {
            ApiClient api = new ApiClient(other.port());
            for (String[] c : List.of(
                    new String[] {"GET", "/api/catalogs", null},
                    new String[] {"GET", "/api/catalogs/cities/options/x", null},
                    new String[] {"PATCH", "/api/catalogs/cities/options", "[]"},
                    new String[] {"POST", "/api/catalogs/cities/options/delete", "{\"ids\": []}"})) {
                ApiClient.Reply refused = api.call(c[0], c[1], suggestOnly, c[2], c[2] == null ? null : JSON);
                assertError(403, "KEY_SCOPE", refused);
            }
        }
    }
}
