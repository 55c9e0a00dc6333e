package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.server.auth.SigningSecret;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two server processes with one real Redis share a key's limit and each other's tokens; killing Redis keeps
 * both serving on per-process limits (and they say so); when Redis returns they share again.
 */
class SharedRateLimitTest {

    @TempDir
    Path temp;

    /** Alternates {@code count} requests between the servers and returns how many were accepted. */
    private static int alternate(List<ApiClient> servers, String key, int count) {
        int accepted = 0;
        for (int i = 0; i < count; i++) {
            ApiClient.Reply reply = servers.get(i % servers.size()).suggest(key, envelope(""));
            assertTrue(reply.status() == 200 || reply.status() == 429, reply.raw());
            accepted += reply.status() == 200 ? 1 : 0;
        }
        return accepted;
    }

    @Test
    void two_processes_share_one_limit_through_redis_and_keep_serving_when_it_dies() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        String shared = TestTenants.createKey(tenants, "demo", "public", "travel", "--rate", "1", "--burst", "10");
        String duringOutage =
                TestTenants.createKey(tenants, "demo", "public", "travel", "--rate", "1", "--burst", "10");
        String afterRecovery =
                TestTenants.createKey(tenants, "demo", "public", "travel", "--rate", "1", "--burst", "6");
        String secret = TestTenants.createKey(tenants, "demo", "secret", null);
        Map<String, String> env = Map.of(SigningSecret.ENV_SECRET, "replicas-share-this-secret-0123456789-abc");
        try (RedisServer redis = RedisServer.start();
                ServerProcess a = ServerProcess.start(tenants, temp.resolve("a.log"), env, "--redis", redis.uri());
                ServerProcess b = ServerProcess.start(tenants, temp.resolve("b.log"), env, "--redis", redis.uri())) {
            a.awaitServing();
            b.awaitServing();
            String sharedLine = "Rate limits: shared through Redis at 127.0.0.1:" + redis.port();
            assertTrue(a.log().contains(sharedLine), a.log());
            assertTrue(b.log().contains(sharedLine), b.log());
            List<ApiClient> both = List.of(new ApiClient(a.port()), new ApiClient(b.port()));

            long started = System.nanoTime();
            int accepted = alternate(both, shared, 24);
            double seconds = (System.nanoTime() - started) / 1e9;
            assertTrue(
                    accepted <= 10 + Math.ceil(seconds) + 1,
                    accepted + " of 24 accepted in " + seconds + " s: per-process buckets would accept 20");
            assertTrue(accepted >= 10, accepted + " accepted: the burst of 10 is available");

            String token = AccessTokenTest.mint(both.get(0), secret, AccessTokenTest.TRAVEL_ID)
                    .json()
                    .path("access_token")
                    .asText();
            assertEquals(200, both.get(1).suggest(token, envelope("")).status(), "replicas verify each other's tokens");

            redis.kill();
            for (ApiClient server : both) {
                for (int i = 0; i < 3; i++) {
                    ApiClient.Reply reply = server.suggest(duringOutage, envelope(""));
                    assertEquals(200, reply.status(), "still serving without Redis: " + reply.raw());
                }
            }
            String fallback = "Redis at 127.0.0.1:" + redis.port() + " unreachable";
            assertTrue(a.awaitLog(fallback, 5), a.log());
            assertTrue(b.awaitLog(fallback, 5), b.log());
            assertTrue(alternate(both, duringOutage, 20) >= 14, "per-process limits: each server has its own burst");

            redis.restart();
            assertTrue(a.awaitLog("reachable again", 10), a.log());
            assertTrue(b.awaitLog("reachable again", 10), b.log());
            started = System.nanoTime();
            int afterwards = alternate(both, afterRecovery, 14);
            seconds = (System.nanoTime() - started) / 1e9;
            assertTrue(
                    afterwards <= 6 + Math.ceil(seconds) + 1,
                    afterwards + " of 14 accepted in " + seconds + " s: shared again after Redis returned");
        }
    }
}
