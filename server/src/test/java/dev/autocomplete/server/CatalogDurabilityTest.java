package dev.autocomplete.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kill -9} of a real server process, again and again, while a client upserts batches and replaces a
 * catalog: after each restart every acknowledged batch is there whole, an unacknowledged one is there whole or
 * not at all, and a replaced catalog is the old one or the new one.
 */
class CatalogDurabilityTest {

    private static final int ROUNDS = 5;
    private static final int BATCH = 200;
    private static final int REPLACED = 3000;

    private static final String TENANT = """
            display_name: Bulk
            catalogs:
              bulk: {}
              swap: {}
            products:
              - id: 5b1e2c3d-4f5a-4b6c-8d7e-9f0a1b2c3d41
                slug: bulk
                prompt: Find
                intents:
                  - name: find
                    phrases: [Find]
                    params:
                      - {type: item, label: Item, required: true, catalog: bulk}
                      - {type: other, label: Other, cues: [or], catalog: swap}
            """;

    @Test
    void acknowledged_writes_survive_kill_9_and_no_write_is_half_there(@TempDir Path temp) throws Exception {
        Path tenants = temp.resolve("tenants");
        Files.createDirectories(tenants.resolve("bulk"));
        Files.writeString(tenants.resolve("bulk/tenant.yaml"), TENANT);
        String secret = TestTenants.createKey(tenants, "bulk", "secret", null);
        Path data = temp.resolve("data");
        Random random = new Random(42);
        Set<Integer> acknowledged = ConcurrentHashMap.newKeySet();
        Set<Integer> sent = ConcurrentHashMap.newKeySet();
        Map<Integer, Boolean> replacementAcknowledged = new HashMap<>();
        int kills = 0;
        for (int round = 0; round < ROUNDS; round++) {
            ServerProcess server = ServerProcess.start(
                            tenants, temp.resolve("server-" + round + ".log"), Map.of(), "--data-dir", data.toString())
                    .awaitServing();
            ApiClient api = new ApiClient(server.port());
            check(api, secret, acknowledged, sent, replacementAcknowledged, round);
            AtomicBoolean writing = new AtomicBoolean(true);
            int first = round * 1000;
            Thread upserts = Thread.ofPlatform().start(() -> {
                for (int batch = first; writing.get() && batch < first + 1000; batch++) {
                    sent.add(batch);
                    try {
                        ApiClient.Reply reply = api.call(
                                "POST", "/api/catalogs/bulk/options", secret, batch(batch), "application/x-ndjson");
                        if (reply.status() == 200) {
                            acknowledged.add(batch);
                        }
                    } catch (RuntimeException e) {
                        return; // the server died under the request
                    }
                }
            });
            int generation = round + 1;
            Thread replace = Thread.ofPlatform().start(() -> {
                try {
                    ApiClient.Reply reply = api.call(
                            "PUT",
                            "/api/catalogs/swap/options",
                            secret,
                            replacement(generation),
                            "application/x-ndjson");
                    synchronized (replacementAcknowledged) {
                        replacementAcknowledged.put(generation, reply.status() == 200);
                    }
                } catch (RuntimeException e) {
                    synchronized (replacementAcknowledged) {
                        replacementAcknowledged.put(generation, false);
                    }
                }
            });
            Thread.sleep(300 + random.nextInt(1200));
            server.kill();
            kills++;
            writing.set(false);
            upserts.join(30_000);
            replace.join(30_000);
        }
        ServerProcess last = ServerProcess.start(
                        tenants, temp.resolve("server-last.log"), Map.of(), "--data-dir", data.toString())
                .awaitServing();
        try {
            check(new ApiClient(last.port()), secret, acknowledged, sent, replacementAcknowledged, ROUNDS);
        } finally {
            last.close();
        }
        assertEquals(ROUNDS, kills);
        assertTrue(acknowledged.size() > ROUNDS, "batches were acknowledged between kills: " + acknowledged.size());
    }

    /** Every acknowledged batch whole; any other batch whole or absent; the swap catalog one generation, whole. */
    private static void check(
            ApiClient api,
            String secret,
            Set<Integer> acknowledged,
            Set<Integer> sent,
            Map<Integer, Boolean> replacements,
            int round) {
        Map<Integer, Integer> perBatch = new HashMap<>();
        for (String id : ids(api, secret, "bulk")) {
            perBatch.merge(Integer.parseInt(id.split("-")[1]), 1, Integer::sum);
        }
        for (int batch : acknowledged) {
            assertEquals(
                    BATCH, perBatch.getOrDefault(batch, 0), "acknowledged batch " + batch + " after round " + round);
        }
        perBatch.forEach((batch, count) -> {
            assertTrue(sent.contains(batch), "batch " + batch + " was never sent");
            assertEquals(BATCH, count, "batch " + batch + " is half there after round " + round);
        });
        List<String> swap = ids(api, secret, "swap");
        Set<String> generations = new HashSet<>();
        swap.forEach(id -> generations.add(id.split("-")[0]));
        assertTrue(generations.size() <= 1, "a replaced catalog mixes generations " + generations);
        if (!swap.isEmpty()) {
            assertEquals(REPLACED, swap.size(), "a replaced catalog is whole");
            int generation = Integer.parseInt(swap.getFirst().split("-")[0].substring(1));
            for (Map.Entry<Integer, Boolean> replacement : replacements.entrySet()) {
                if (replacement.getValue() && replacement.getKey() > generation) {
                    throw new AssertionError("replacement " + replacement.getKey() + " was acknowledged but the"
                            + " catalog holds generation " + generation);
                }
            }
        }
    }

    private static List<String> ids(ApiClient api, String secret, String catalog) {
        List<String> ids = new ArrayList<>();
        String cursor = null;
        do {
            ApiClient.Reply page = api.call(
                    "GET",
                    "/api/catalogs/" + catalog + "/options?limit=1000" + (cursor == null ? "" : "&cursor=" + cursor),
                    secret,
                    null,
                    null);
            assertEquals(200, page.status(), page.raw());
            page.data().path("options").forEach(o -> ids.add(o.path("id").asText()));
            JsonNode next = page.data().path("next_cursor");
            cursor = next.isNull() ? null : next.asText();
        } while (cursor != null);
        return ids;
    }

    private static String batch(int batch) {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < BATCH; i++) {
            body.append("{\"id\":\"b-")
                    .append(batch)
                    .append('-')
                    .append(i)
                    .append("\",\"text\":\"Item ")
                    .append(batch)
                    .append(' ')
                    .append(i)
                    .append("\"}\n");
        }
        return body.toString();
    }

    private static String replacement(int generation) {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < REPLACED; i++) {
            body.append("{\"id\":\"g")
                    .append(generation)
                    .append("-")
                    .append(i)
                    .append("\",\"text\":\"Gen ")
                    .append(generation)
                    .append(" thing ")
                    .append(i)
                    .append("\"}\n");
        }
        return body.toString();
    }
}
