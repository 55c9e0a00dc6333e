package dev.autocomplete.server.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kill -9} of a process writing to the SQLite store, again and again: every write it acknowledged is there
 * afterwards, and no batch or replace is half there.
 */
class SqliteKillTest {

    static final CatalogRef UPSERTED = new CatalogRef("acme", "upserted");
    static final CatalogRef REPLACED = new CatalogRef("acme", "replaced");
    static final int BATCH = 100;
    static final int REPLACE_SIZE = 500;

    @TempDir
    Path directory;

    @Test
    void after_each_kill_every_acknowledged_write_is_there_and_nothing_is_half_there() throws Exception {
        Path file = directory.resolve("catalogs.db");
        Random random = new Random(42);
        int nextBatch = 0;
        List<String> acks = new ArrayList<>();
        for (int round = 0; round < 8; round++) {
            ConcurrentLinkedQueue<String> acknowledged = new ConcurrentLinkedQueue<>();
            Process writer = new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "java")
                                    .toString(),
                            // sqlite-jdbc unpacks its native library into this directory; a kill -9 leaves it.
                            "-Dorg.sqlite.tmpdir=" + directory,
                            "-cp",
                            System.getProperty("java.class.path"),
                            Writer.class.getName(),
                            file.toString(),
                            Integer.toString(nextBatch))
                    .redirectErrorStream(true)
                    .start();
            CompletableFuture<Void> firstAck = new CompletableFuture<>();
            List<String> output = new ArrayList<>();
            Thread.ofVirtual().start(() -> {
                try (BufferedReader reader =
                        new BufferedReader(new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = reader.readLine()) != null) {
                        if (line.startsWith("acked ")) {
                            acknowledged.add(line.substring(6));
                            firstAck.complete(null);
                        } else {
                            synchronized (output) {
                                output.add(line);
                            }
                        }
                    }
                } catch (IOException ignored) {
                    // killed
                }
            });
            try {
                firstAck.get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                writer.destroyForcibly();
                throw new AssertionError("the writer acknowledged nothing: " + output, e);
            }
            Thread.sleep(200 + random.nextInt(600));
            writer.destroyForcibly();
            assertTrue(writer.waitFor(10, TimeUnit.SECONDS));
            acks.addAll(acknowledged);

            try (CatalogStore store = JdbcCatalogStore.sqlite(file)) {
                Map<String, Long> batches = new TreeMap<>();
                store.forEach(UPSERTED, r -> batches.merge(r.id().substring(0, r.id().indexOf('-')), 1L, Long::sum));
                batches.forEach((batch, count) -> assertEquals(BATCH, count, "batch " + batch + " is half there"));
                int lastReplace = -1;
                for (String ack : acks) {
                    if (ack.startsWith("batch ")) {
                        assertTrue(batches.containsKey("b" + ack.substring(6)), "acknowledged " + ack + " is lost");
                    } else {
                        lastReplace = Integer.parseInt(ack.substring(8));
                    }
                }
                Map<String, Long> generations = new TreeMap<>();
                store.forEach(
                        REPLACED,
                        r -> generations.merge(r.text().substring(0, r.text().indexOf(' ')), 1L, Long::sum));
                if (!generations.isEmpty() || lastReplace >= 0) {
                    assertEquals(1, generations.size(), "a replace is half there: " + generations);
                    assertEquals(REPLACE_SIZE, generations.values().iterator().next());
                    int stored = Integer.parseInt(
                            generations.keySet().iterator().next().substring(1));
                    assertTrue(stored >= lastReplace, "acknowledged replace " + lastReplace + " is lost: " + stored);
                }
                nextBatch = batches.keySet().stream()
                                .mapToInt(b -> Integer.parseInt(b.substring(1)))
                                .max()
                                .orElse(-1)
                        + 1;
            }
        }
        assertTrue(acks.size() > 16, "the writers were killed too early to show much: " + acks.size());
    }

    /** The child process: upserts batches (and now and then replaces a catalog), printing each acknowledged one. */
    static final class Writer {
        public static void main(String[] args) {
            int batch = Integer.parseInt(args[1]);
            try (CatalogStore store = JdbcCatalogStore.sqlite(Path.of(args[0]))) {
                for (; ; batch++) {
                    int b = batch;
                    store.upsert(
                            UPSERTED,
                            IntStream.range(0, BATCH)
                                    .mapToObj(i -> new OptionRecord("b" + b + "-" + i, "batch " + b + " item " + i))
                                    .toList());
                    System.out.println("acked batch " + b);
                    if (batch % 5 == 0) {
                        store.replace(
                                REPLACED,
                                IntStream.range(0, REPLACE_SIZE)
                                        .mapToObj(i -> new OptionRecord("r" + i, "g" + b + " item " + i))
                                        .iterator());
                        System.out.println("acked replace " + b);
                    }
                    System.out.flush();
                }
            }
        }
    }
}
