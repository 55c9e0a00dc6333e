package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.UnixOperatingSystemMXBean;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The attack of issue 11, on loopback: one address (127.0.0.2) opens 2,000 hostile connections while a client
 * on another (127.0.0.1) sends valid requests. Before the connection defences, the hostile sockets held every
 * request slot and the valid requests got 503.
 */
class HostileClientsTest {

    static final int HOSTILE = 2000;
    /** The issue asks for 100; three times as many make a p99 that one stray pause on a shared machine cannot set. */
    static final int REQUESTS = 300;
    /** Rounds of alternating requests at most (see the test). */
    static final int ROUNDS = 3;

    @TempDir
    Path temp;

    @Test
    @Timeout(180)
    void two_thousand_hostile_sockets_from_one_address_leave_another_address_its_answers_at_a_close_p99()
            throws Exception {
        long descriptors =
                ((UnixOperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getMaxFileDescriptorCount();
        // Both ends of every socket live in this JVM.
        assertTrue(
                descriptors >= 3L * HOSTILE,
                "raise the open file limit (ulimit -n) to at least " + 3 * HOSTILE + "; this JVM has " + descriptors);
        Path tenants = TestTenants.copyOfDemo(temp.resolve("attacked"));
        String key = TestTenants.createKey(tenants, "demo", "public", "travel");
        String attackerKey = TestTenants.createKey(tenants, "demo", "public", "travel");
        Path quietTenants = TestTenants.copyOfDemo(temp.resolve("quiet"));
        String quietKey = TestTenants.createKey(quietTenants, "demo", "public", "travel");
        // Two identical servers in this JVM, one attacked; requests alternate between them one by one, so that
        // a load passing on a shared machine (or a collection in this JVM) weighs on both measurements alike.
        try (AutocompleteServer server = TestServers.start(tenants);
                AutocompleteServer quietServer = TestServers.start(quietTenants);
                HostileSockets hostile = new HostileSockets("127.0.0.2", server.port(), attackerKey)) {
            ApiClient api = new ApiClient(server.port());
            ApiClient quietApi = new ApiClient(quietServer.port());
            for (int i = 0; i < REQUESTS; i++) { // warm up
                timed(api, key, i);
                timed(quietApi, quietKey, i);
            }
            hostile.open(HOSTILE);
            // Past the burst of connects: refused sockets closed, refused requests answered and their connections
            // lingered out; the rest trickle a byte a second.
            Thread.sleep(2500);
            // Every valid request must answer 200 in every round. The p99 bound is a timing on a shared machine,
            // where a passing load only ever makes it worse: up to three rounds, and one within the bound passes;
            // starvation by the hostile sockets would miss it in all three.
            List<String> rounds = new ArrayList<>();
            boolean close = false;
            for (int round = 0; round < ROUNDS && !close; round++) {
                long[] attacked = new long[REQUESTS];
                long[] quiet = new long[REQUESTS];
                for (int i = 0; i < REQUESTS; i++) {
                    if (i % 2 == 0) {
                        attacked[i] = timed(api, key, i);
                        quiet[i] = timed(quietApi, quietKey, i);
                    } else {
                        quiet[i] = timed(quietApi, quietKey, i);
                        attacked[i] = timed(api, key, i);
                    }
                }
                rounds.add(p99(attacked) / 1000 + " µs under attack, " + p99(quiet) / 1000 + " µs without");
                close = p99(attacked) <= 2 * p99(quiet);
            }
            System.out.printf(
                    "p99 of %d valid requests beside %d hostile sockets (%d still trickling): %s%n",
                    REQUESTS, HOSTILE, hostile.trickling(), rounds);
            assertTrue(close, "p99 over twice the unattacked server's in every round: " + rounds);
        }
    }

    /** Sends a valid request, asserts its 200 and returns its duration in ns. */
    private static long timed(ApiClient api, String key, int i) {
        long start = System.nanoTime();
        ApiClient.Reply reply = api.suggest(key, envelope("Book a flight from Par"));
        long nanos = System.nanoTime() - start;
        assertEquals(200, reply.status(), "request " + i + ": " + reply.raw());
        return nanos;
    }

    private static long p99(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[(int) Math.ceil(sorted.length * 0.99) - 1];
    }
}
