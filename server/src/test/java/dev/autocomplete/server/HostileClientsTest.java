package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.sun.management.UnixOperatingSystemMXBean;

import dev.autocomplete.server.http.AutocompleteServer;

/**
 * The attack of issue 11, on loopback: one address (127.0.0.2) opens 2,000 hostile connections while a client
 * on another (127.0.0.1) sends valid requests. Before the connection defences, the hostile sockets held every
 * request slot and the valid requests got 503.
 */
class HostileClientsTest {

    static final int HOSTILE = 2000;
    static final int REQUESTS = 100;
    static final int ROUNDS = 4;

    @TempDir
    Path temp;

    @Test
    @Timeout(180)
    void two_thousand_hostile_sockets_from_one_address_leave_another_address_its_answers_at_a_close_p99()
            throws Exception {
        long descriptors = ((UnixOperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getMaxFileDescriptorCount();
        // Both ends of every socket live in this JVM.
        assertTrue(descriptors >= 3L * HOSTILE, "raise the open file limit (ulimit -n) to at least " + 3 * HOSTILE
                + "; this JVM has " + descriptors);
        Path tenants = TestTenants.copyOfDemo(temp);
        String key = TestTenants.createKey(tenants, "demo", "public", "travel");
        String attackerKey = TestTenants.createKey(tenants, "demo", "public", "travel");
        try (AutocompleteServer server = AutocompleteServer.start("127.0.0.1", 0, tenants)) {
            ApiClient api = new ApiClient(server.port());
            timedRequests(api, key, 2 * REQUESTS); // warm up
            // Quiet and attacked batches alternate, so that a passing load on a shared machine weighs on both.
            long[] quiet = new long[0];
            long[] attacked = new long[0];
            for (int round = 0; round < ROUNDS; round++) {
                quiet = concat(quiet, timedRequests(api, key, REQUESTS / ROUNDS));
                try (HostileSockets hostile = new HostileSockets("127.0.0.2", server.port(), attackerKey)) {
                    hostile.open(HOSTILE);
                    Thread.sleep(1500); // a byte trickled on each open socket
                    attacked = concat(attacked, timedRequests(api, key, REQUESTS / ROUNDS));
                }
                Thread.sleep(500); // the server sees the hostile sockets close
            }
            System.out.printf("p99 of %d valid requests: %d µs quiet, %d µs beside %d hostile sockets%n",
                    REQUESTS, p99(quiet) / 1000, p99(attacked) / 1000, HOSTILE);
            assertTrue(p99(attacked) <= 2 * p99(quiet), "p99 " + p99(attacked) / 1000 + " µs under attack, "
                    + p99(quiet) / 1000 + " µs without");
        }
    }

    private static long[] concat(long[] a, long[] b) {
        long[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    /** Sends {@code count} valid requests one after the other, each asserted 200; their durations in ns. */
    private static long[] timedRequests(ApiClient api, String key, int count) {
        long[] nanos = new long[count];
        for (int i = 0; i < count; i++) {
            long start = System.nanoTime();
            ApiClient.Reply reply = api.suggest(key, envelope("Book a flight from Par"));
            nanos[i] = System.nanoTime() - start;
            assertEquals(200, reply.status(), "request " + i + ": " + reply.raw());
        }
        return nanos;
    }

    private static long p99(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[(int) Math.ceil(sorted.length * 0.99) - 1];
    }
}
