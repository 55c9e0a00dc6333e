package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.server.http.Gatekeeper;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Token buckets per key, per token product and per failing client address, seen over HTTP. */
class RateLimitTest {

    @TempDir
    Path temp;

    private static AutocompleteServer start(Path tenants) throws Exception {
        return AutocompleteServer.start(TestServers.settings(tenants).withTokenSecret(AccessTokenTest.SECRET));
    }

    /** Sends {@code count} requests at once and returns the replies. */
    private static List<ApiClient.Reply> burst(int count, Supplier<ApiClient.Reply> request) throws Exception {
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<ApiClient.Reply>> futures = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                futures.add(executor.submit(request::get));
            }
            List<ApiClient.Reply> replies = new ArrayList<>();
            for (Future<ApiClient.Reply> future : futures) {
                replies.add(future.get());
            }
            return replies;
        }
    }

    /** Bursts of {@code size} requests, until one is refused (at most ten bursts); returns every reply. */
    private static List<ApiClient.Reply> untilRefused(int size, Supplier<ApiClient.Reply> request) throws Exception {
        List<ApiClient.Reply> replies = new ArrayList<>();
        for (int round = 0; round < 10 && replies.stream().noneMatch(r -> r.status() == 429); round++) {
            replies.addAll(burst(size, request));
        }
        return replies;
    }

    private static void assertRateHeaders(ApiClient.Reply reply, String limit) {
        assertEquals(limit, reply.header("RateLimit-Limit"), reply.headers().toString());
        assertTrue(Long.parseLong(reply.header("RateLimit-Remaining")) >= 0);
        assertTrue(Long.parseLong(reply.header("RateLimit-Reset")) >= 0);
        if (reply.status() == 429) {
            assertEquals("RATE_LIMITED", reply.errorCode(), reply.raw());
            assertTrue(Long.parseLong(reply.header("Retry-After")) >= 1, reply.header("Retry-After"));
            assertEquals("0", reply.header("RateLimit-Remaining"));
        } else {
            assertNull(reply.header("Retry-After"));
        }
    }

    @Test
    void a_20_per_second_key_sees_429s_past_its_limit_while_another_key_is_unaffected() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        String limited = TestTenants.createKey(tenants, "demo", "public", "travel", "--rate", "20/s", "--burst", "20");
        String other = TestTenants.createKey(tenants, "demo", "public", "travel", "--rate", "20/s", "--burst", "20");
        try (AutocompleteServer server = start(tenants)) {
            ApiClient api = new ApiClient(server.port());
            long started = System.nanoTime();
            List<ApiClient.Reply> replies = untilRefused(35, () -> api.suggest(limited, envelope("")));
            double seconds = (System.nanoTime() - started) / 1e9;
            long ok = replies.stream().filter(r -> r.status() == 200).count();
            long limitedCount = replies.stream().filter(r -> r.status() == 429).count();
            assertEquals(replies.size(), ok + limitedCount, replies.toString());
            assertTrue(
                    limitedCount >= 1, replies.size() + " requests in " + seconds + " s to a 20/s key: some refused");
            assertTrue(ok <= 20 + Math.ceil(20 * seconds) + 1, ok + " accepted in " + seconds + " s");
            replies.forEach(reply -> assertRateHeaders(reply, "20"));

            ApiClient.Reply unaffected = api.suggest(other, envelope(""));
            assertEquals(200, unaffected.status());
            assertEquals("19", unaffected.header("RateLimit-Remaining"));
        }
    }

    @Test
    void keys_without_a_rate_get_20_per_second_with_a_burst_of_40() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        TestTenants.Cli created = TestTenants.cli(
                "keys",
                "create",
                "--tenants",
                tenants.toString(),
                "--tenant",
                "demo",
                "--type",
                "public",
                "--product",
                "travel");
        String key = created.lastLine();
        try (AutocompleteServer server = start(tenants)) {
            ApiClient api = new ApiClient(server.port());
            ApiClient.Reply first = api.suggest(key, envelope(""));
            assertRateHeaders(first, "40");
            assertEquals("39", first.header("RateLimit-Remaining"));
            long started = System.nanoTime();
            List<ApiClient.Reply> replies = untilRefused(50, () -> api.suggest(key, envelope("")));
            double seconds = (System.nanoTime() - started) / 1e9;
            assertTrue(replies.stream().anyMatch(r -> r.status() == 429));
            long ok = replies.stream().filter(r -> r.status() == 200).count();
            assertTrue(ok <= 39 + Math.ceil(20 * seconds) + 1, ok + " accepted in " + seconds + " s");
            replies.forEach(reply -> assertRateHeaders(reply, "40"));
        }
    }

    @Test
    void a_query_whose_reading_asks_hundreds_of_questions_costs_more_of_the_rate() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        // A budget no loaded machine reaches: a reading cut short asks fewer questions, and is charged less.
        Path yaml = tenants.resolve("demo").resolve("tenant.yaml");
        Files.writeString(
                yaml,
                Files.readString(yaml)
                        .replace("    slug: travel\n", "    slug: travel\n    engine_budget_ms: 10000\n"));
        assertTrue(Files.readString(yaml).contains("engine_budget_ms: 10000"), "the budget is set");
        String key = TestTenants.createKey(tenants, "demo", "public", "travel", "--rate", "1/s", "--burst", "100");
        try (AutocompleteServer server = start(tenants)) {
            ApiClient api = new ApiClient(server.port());
            long started = System.nanoTime();
            ApiClient.Reply typed = api.suggest(key, envelope("Book a flight from Paris to London on 12 May"));
            assertEquals(200, typed.status(), typed.raw());
            assertEquals("99", typed.header("RateLimit-Remaining"), "a query people type costs one request");
            // 98 cues (993 characters), each before a word of its own, each span read as an origin: hundreds of
            // questions to the engines, several times the 50 one request pays for. (The same cue and word repeated
            // is asked once.) Eight such queries, each its own (a cached answer reads nothing).
            int long_ = 8;
            for (int k = 0; k < long_; k++) {
                StringBuilder query = new StringBuilder("Book a flight");
                for (int i = 0; i < 98; i++) {
                    query.append(" from Pa").append((char) ('a' + (i + k) % 26)).append((char) ('a' + i / 26));
                }
                ApiClient.Reply cues = api.suggest(key, envelope(query.toString()));
                assertEquals(200, cues.status(), cues.raw());
            }
            ApiClient.Reply next = api.suggest(key, envelope(""));
            double seconds = (System.nanoTime() - started) / 1e9;
            long before = Long.parseLong(typed.header("RateLimit-Remaining"));
            long after = Long.parseLong(next.header("RateLimit-Remaining"));
            // Uncharged, the nine requests after the typed one take nine; charged, each long one takes at least one
            // more: at least seventeen, less what refilled meanwhile at this key's one a second (a loaded machine
            // may take seconds for these requests).
            long refilled = (long) Math.ceil(seconds) + 1;
            assertTrue(
                    before - after + refilled >= 1 + 2L * long_,
                    "the long readings were charged: " + before + " left, then " + after + " after " + seconds + " s");
        }
    }

    @Test
    void the_tokens_of_one_product_share_the_rate_the_tenant_sets() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        Path tenantYaml = tenants.resolve("demo/tenant.yaml");
        Files.writeString(tenantYaml, Files.readString(tenantYaml) + "access_tokens:\n  rate: 2\n  burst: 4\n");
        String secret = TestTenants.createKey(tenants, "demo", "secret", null);
        try (AutocompleteServer server = start(tenants)) {
            ApiClient api = new ApiClient(server.port());
            String one = AccessTokenTest.mint(api, secret, AccessTokenTest.TRAVEL_ID)
                    .json()
                    .path("access_token")
                    .asText();
            String two = AccessTokenTest.mint(api, secret, AccessTokenTest.TRAVEL_ID)
                    .json()
                    .path("access_token")
                    .asText();
            long started = System.nanoTime();
            List<ApiClient.Reply> replies = burst(8, () -> api.suggest(one, envelope("")));
            replies.addAll(burst(4, () -> api.suggest(two, envelope(""))));
            double seconds = (System.nanoTime() - started) / 1e9;
            long ok = replies.stream().filter(r -> r.status() == 200).count();
            assertTrue(
                    ok <= 4 + Math.ceil(2 * seconds) + 1,
                    ok + " of 12 accepted in " + seconds + " s: both tokens draw from one product bucket");
            replies.forEach(reply -> assertRateHeaders(reply, "4"));
            ApiClient.Reply workspace = api.post(
                    "/api/suggest",
                    secret,
                    envelope("").toString(),
                    "application/json",
                    Map.of("X-App-Identifier", "workspace"));
            assertEquals(200, workspace.status(), "the secret key has its own bucket");
        }
    }

    @Test
    void failed_authentication_is_limited_per_client_address() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        String good = TestTenants.createKey(tenants, "demo", "public", "travel");
        try (AutocompleteServer server = start(tenants)) {
            ApiClient api = new ApiClient(server.port());
            for (int i = 0; i < Gatekeeper.FAILED_AUTHENTICATION.burst(); i++) {
                ApiClient.Reply reply = api.suggest("pk_v1_guess" + i, envelope(""));
                assertEquals(401, reply.status(), "attempt " + i);
                assertNotNull(reply.header("RateLimit-Remaining"));
            }
            ApiClient.Reply guessing = api.suggest("pk_v1_one-more-guess", envelope(""));
            assertEquals(429, guessing.status(), guessing.raw());
            assertRateHeaders(guessing, "20");
            ApiClient.Reply evenAGoodKey = api.suggest(good, envelope(""));
            assertEquals(429, evenAGoodKey.status(), "the address is refused before its credential is checked");
            assertEquals(
                    "RATE_LIMITED",
                    AccessTokenTest.mint(api, "sk_v1_guess", AccessTokenTest.TRAVEL_ID)
                            .errorCode());
            Thread.sleep(1_100);
            assertEquals(200, api.suggest(good, envelope("")).status(), "one attempt a second comes back");
        }
    }
}
