package dev.autocomplete.server.suggest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** Minted session ids: version 4 UUIDs, never one twice, also when many threads take them across batches. */
class SessionIdsTest {

    @Test
    void ids_taken_by_many_threads_across_batches_are_distinct_random_uuids() throws InterruptedException {
        Set<String> seen = ConcurrentHashMap.newKeySet();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            threads.add(Thread.ofVirtual().start(() -> {
                for (int i = 0; i < 5_000; i++) {
                    seen.add(SessionIds.next());
                }
            }));
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertEquals(40_000, seen.size(), "40,000 ids from 157 batches, none twice");
        for (String id : seen) {
            UUID uuid = UUID.fromString(id);
            assertEquals(4, uuid.version(), id);
            assertEquals(2, uuid.variant(), id);
            assertEquals(id, uuid.toString());
        }
    }
}
