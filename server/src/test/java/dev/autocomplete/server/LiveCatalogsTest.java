package dev.autocomplete.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The records API over HTTP on a real port: writes are seen by the next suggest request, bad records are refused
 * whole with their positions, a replacement is atomic under suggest traffic, pages follow ids.
 */
class LiveCatalogsTest {

    static final String TENANT = """
            display_name: Shop
            default_language: en
            catalogs:
              products: {}
              colors:
                file: data/colors.csv
              swap: {}
            products:
              - id: 7a6e1c2d-3b4f-4a5e-8c9d-0e1f2a3b4c51
                slug: orders
                prompt: Order
                intents:
                  - name: order
                    phrases: [Order]
                    params:
                      - type: product
                        label: Product
                        required: true
                        catalog: products
                      - type: color
                        label: Color
                        cues: [in]
                        catalog: colors
              - id: 7a6e1c2d-3b4f-4a5e-8c9d-0e1f2a3b4c52
                slug: swapper
                prompt: Pick
                intents:
                  - name: pick
                    phrases: [Pick]
                    params:
                      - type: item
                        label: Item
                        required: true
                        catalog: swap
            """;

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

    private static final String OPTIONS = "/api/catalogs/products/options";

    private static ApiClient.Reply write(String method, String path, String body, String type) {
        return server.api().call(method, path, server.key("shop/secret"), body, type);
    }

    private static List<String> offered(String query) {
        return server.suggestOk("shop/orders", ApiClient.envelope(query)).options("product");
    }

    @Test
    void an_upserted_option_is_offered_by_the_next_request() {
        assertFalse(offered("Order Quan").contains("Quantum Widget"));
        ApiClient.Reply reply = write("POST", OPTIONS, """
                [{"id": "sku-1", "text": "Quantum Widget", "weight": 5}]""", "application/json");
        assertEquals(200, reply.status(), reply.raw());
        assertEquals(1, reply.data().path("upserted").asInt());
        assertTrue(
                offered("Order Quan").contains("Quantum Widget"),
                offered("Order Quan").toString());
    }

    @Test
    void a_write_is_not_hidden_by_a_cached_answer() {
        write(
                "POST",
                OPTIONS,
                "{\"id\": \"cache-1\", \"text\": \"Cached Gadget\", \"weight\": 1}\n",
                "application/x-ndjson");
        List<String> before = offered("Order Cach");
        assertEquals(before, offered("Order Cach"), "the same question, answered alike (from the cache)");
        write(
                "POST",
                OPTIONS,
                "{\"id\": \"cache-2\", \"text\": \"Cache Box\", \"weight\": 100}\n",
                "application/x-ndjson");
        assertEquals("Cache Box", offered("Order Cach").getFirst());
    }

    @Test
    void a_renamed_option_is_offered_by_its_new_text_only() {
        write("POST", OPTIONS, "[{\"id\": \"sku-r\", \"text\": \"Rename Before\"}]", "application/json");
        write("POST", OPTIONS, "[{\"id\": \"sku-r\", \"text\": \"Rename After\"}]", "application/json");
        List<String> offered = offered("Order Rena");
        assertTrue(offered.contains("Rename After"), offered.toString());
        assertFalse(offered.contains("Rename Before"), offered.toString());
    }

    @Test
    void a_deleted_option_is_gone_and_deleting_it_again_is_not_found() {
        write("POST", OPTIONS, "[{\"id\": \"sku-d\", \"text\": \"Doomed Thing\"}]", "application/json");
        assertTrue(offered("Order Doom").contains("Doomed Thing"));
        ApiClient.Reply deleted = write("DELETE", OPTIONS + "/sku-d", null, null);
        assertEquals(204, deleted.status(), deleted.raw());
        assertFalse(offered("Order Doom").contains("Doomed Thing"));
        ApiClient.Reply again = write("DELETE", OPTIONS + "/sku-d", null, null);
        assertEquals(404, again.status());
        assertEquals("OPTION_NOT_FOUND", again.errorCode());
    }

    @Test
    void bad_ndjson_records_are_refused_whole_with_their_line_numbers() {
        String body = """
                {"id": "ok-1", "text": "Fine Record"}
                {"id": "bad-2"}

                {"id": "bad-4", "text": "Broken",
                {"id": "bad-5", "text": "Typo", "alias": ["x"]}
                """;
        ApiClient.Reply reply = write("POST", OPTIONS, body, "application/x-ndjson");
        assertEquals(400, reply.status(), reply.raw());
        assertEquals("INVALID_RECORDS", reply.errorCode());
        List<Integer> lines = new ArrayList<>();
        reply.json()
                .path("error")
                .path("details")
                .forEach(d -> lines.add(d.path("line").asInt()));
        assertEquals(List.of(2, 4, 5), lines, reply.raw());
        assertFalse(ids("/api/catalogs/products/options?limit=1000").contains("ok-1"), "nothing was applied");
    }

    @Test
    void two_records_of_one_text_are_refused_by_index() {
        ApiClient.Reply reply = write("POST", OPTIONS, """
                [{"id": "t-1", "text": "Same Name"}, {"id": "t-2", "text": "same  name!"}]""", "application/json");
        assertEquals(400, reply.status(), reply.raw());
        assertEquals("INVALID_RECORDS", reply.errorCode());
        assertEquals(
                1,
                reply.json().path("error").path("details").get(0).path("index").asInt(),
                reply.raw());
        assertFalse(ids("/api/catalogs/products/options?limit=1000").contains("t-1"));
    }

    @Test
    void the_seed_file_is_imported_with_ids_from_its_texts() {
        List<String> ids = ids("/api/catalogs/colors/options");
        assertEquals(List.of("crimson-red", "forest-green", "navy-blue"), ids);
    }

    @Test
    void pages_follow_ids_and_end_with_a_null_cursor() {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < 250; i++) {
            body.append("{\"id\": \"page-")
                    .append(String.format("%03d", i))
                    .append("\", \"text\": \"Paged item ")
                    .append(i)
                    .append("\"}\n");
        }
        assertEquals(
                200,
                write("POST", OPTIONS, body.toString(), "application/x-ndjson").status());
        List<String> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            ApiClient.Reply page =
                    write("GET", OPTIONS + "?limit=100" + (cursor == null ? "" : "&cursor=" + cursor), null, null);
            assertEquals(200, page.status(), page.raw());
            page.data().path("options").forEach(o -> seen.add(o.path("id").asText()));
            JsonNode next = page.data().path("next_cursor");
            cursor = next.isNull() ? null : next.asText();
            pages++;
        } while (cursor != null && pages < 100);
        List<String> sorted = new ArrayList<>(seen);
        java.util.Collections.sort(sorted);
        assertEquals(sorted, seen, "ordered by id");
        assertEquals(seen.size(), new java.util.HashSet<>(seen).size(), "each once");
        assertTrue(seen.containsAll(List.of("page-000", "page-249")));
    }

    @Test
    void refusals_have_their_codes() {
        assertEquals(
                "CATALOG_NOT_FOUND",
                write("GET", "/api/catalogs/nope/options", null, null).errorCode());
        assertEquals(404, write("GET", "/api/catalogs/nope/options", null, null).status());
        ApiClient.Reply publicKey = server.api().call("GET", OPTIONS, server.key("shop/orders"), null, null);
        assertEquals(403, publicKey.status(), publicKey.raw());
        assertEquals("SECRET_KEY_REQUIRED", publicKey.errorCode());
        ApiClient.Reply plain = write("POST", OPTIONS, "id,text", "text/csv");
        assertEquals(415, plain.status());
        ApiClient.Reply notArray = write("POST", OPTIONS, "{\"id\": \"x\", \"text\": \"y\"}", "application/json");
        assertEquals(400, notArray.status());
        assertEquals("INVALID_JSON", notArray.errorCode());
        ApiClient.Reply badLimit = write("GET", OPTIONS + "?limit=5000", null, null);
        assertEquals(400, badLimit.status());
        ApiClient.Reply badCursor = write("GET", OPTIONS + "?cursor=%2F%2F", null, null);
        assertEquals(400, badCursor.status());
        ApiClient.Reply otherTenant = server.api().call("GET", OPTIONS, server.key("secret"), null, null);
        assertEquals("CATALOG_NOT_FOUND", otherTenant.errorCode(), "the demo tenant declares no such catalog");
    }

    @Test
    void a_replacement_is_atomic_under_suggest_traffic() throws Exception {
        assertEquals(
                200,
                write("PUT", "/api/catalogs/swap/options", records("Alpha", 40), "application/x-ndjson")
                        .status());
        AtomicBoolean running = new AtomicBoolean(true);
        ConcurrentLinkedQueue<String> mixed = new ConcurrentLinkedQueue<>();
        AtomicInteger answers = new AtomicInteger();
        Thread traffic = Thread.ofPlatform().start(() -> {
            while (running.get()) {
                List<String> shown = server.suggestOk("shop/swapper", ApiClient.envelope("Pick "))
                        .options("item");
                answers.incrementAndGet();
                long alphas = shown.stream().filter(t -> t.startsWith("Alpha")).count();
                if (shown.isEmpty() || (alphas != 0 && alphas != shown.size())) {
                    mixed.add(shown.toString());
                }
            }
        });
        try {
            for (int round = 0; round < 6; round++) {
                String prefix = round % 2 == 0 ? "Beta" : "Alpha";
                ApiClient.Reply replaced =
                        write("PUT", "/api/catalogs/swap/options", records(prefix, 40), "application/x-ndjson");
                assertEquals(200, replaced.status(), replaced.raw());
                assertEquals(40, replaced.data().path("options").asInt());
                List<String> now = server.suggestOk("shop/swapper", ApiClient.envelope("Pick "))
                        .options("item");
                assertTrue(now.stream().allMatch(t -> t.startsWith(prefix)), now.toString());
            }
        } finally {
            running.set(false);
            traffic.join(10_000);
        }
        assertTrue(answers.get() > 0);
        assertEquals(List.of(), List.copyOf(mixed), "answers that mixed the old and the new catalog");
    }

    private static String records(String prefix, int count) {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < count; i++) {
            body.append("{\"id\": \"")
                    .append(prefix.toLowerCase())
                    .append('-')
                    .append(i)
                    .append("\", \"text\": \"")
                    .append(prefix)
                    .append(' ')
                    .append(i)
                    .append("\", \"weight\": ")
                    .append(count - i)
                    .append("}\n");
        }
        return body.toString();
    }

    private static List<String> ids(String path) {
        ApiClient.Reply reply = write("GET", path, null, null);
        assertEquals(200, reply.status(), reply.raw());
        List<String> ids = new ArrayList<>();
        reply.data().path("options").forEach(o -> ids.add(o.path("id").asText()));
        return ids;
    }
}
