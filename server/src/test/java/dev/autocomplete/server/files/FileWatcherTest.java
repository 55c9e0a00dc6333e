package dev.autocomplete.server.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The one watcher of tenant files, on real files: what it reports and when, in each mode. A change made
 * through a hard link outside the watched directory is what a mount without file events looks like: the file
 * changes, and no event says so.
 */
class FileWatcherTest {

    private static final Path MARKER = Path.of("tenant.yaml");
    /** Events only: the safety look is too far away to help within a test. */
    private static final FileWatcher.Timing EVENTS_ONLY = timing(100, 300, 600_000);
    /** A safety look every half second, to find what events missed. */
    private static final FileWatcher.Timing QUICK_SAFETY = timing(100, 300, 500);

    @TempDir
    Path temp;

    private static FileWatcher.Timing timing(long settleMillis, long pollMillis, long safetyMillis) {
        return new FileWatcher.Timing(
                Duration.ofMillis(settleMillis),
                Duration.ofMillis(pollMillis),
                Duration.ofMillis(safetyMillis),
                Duration.ofSeconds(2));
    }

    /** A change and when the listener received it ({@link System#nanoTime}). */
    private record Received(FileWatcher.Change change, long at) {}

    /** A started watcher over {@code root} and the changes it reports. */
    private record Watch(FileWatcher watcher, BlockingQueue<Received> changes) implements AutoCloseable {

        static Watch start(Path root, WatchMode mode, FileWatcher.Timing timing) throws IOException {
            FileWatcher watcher = new FileWatcher(root, MARKER.toString(), mode, timing);
            BlockingQueue<Received> changes = new LinkedBlockingQueue<>();
            watcher.subscribe("test-listener", change -> changes.add(new Received(change, System.nanoTime())));
            return new Watch(watcher.start(), changes);
        }

        FileWatcher.Change next(long millis) throws InterruptedException {
            Received received = nextReceived(millis);
            return received == null ? null : received.change();
        }

        Received nextReceived(long millis) throws InterruptedException {
            return changes.poll(millis, TimeUnit.MILLISECONDS);
        }

        @Override
        public void close() {
            watcher.close();
        }
    }

    private Path tenants() throws IOException {
        Path root = Files.createDirectories(temp.resolve("tenants"));
        Files.createDirectories(root.resolve("shop/data"));
        Files.writeString(root.resolve("shop/data/items.csv"), "a\n");
        return root;
    }

    /** shop/tenant.yaml as a second name of a file outside the tenants directory, which is returned. */
    private Path linkedTenantFile(Path root) throws IOException {
        Path outside = Files.createDirectories(temp.resolve("outside")).resolve("tenant.yaml");
        Files.writeString(outside, "v: 1\n");
        Files.createLink(root.resolve("shop/tenant.yaml"), outside);
        return outside;
    }

    private static void append(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardOpenOption.APPEND);
    }

    /** Changes {@code outside} (no event tells) and returns the change reported, soon after the next poll. */
    private static FileWatcher.Change seenByPolling(Watch watch, Path outside) throws Exception {
        long changedAt = System.nanoTime();
        append(outside, "polled: yes\n");
        FileWatcher.Change change = watch.next(2000);
        long millis = (System.nanoTime() - changedAt) / 1_000_000;
        assertNotNull(change, "polling saw the change");
        assertTrue(millis < 1500, "seen after " + millis + " ms, polling every 300");
        return change;
    }

    @Test
    void a_file_being_written_is_reported_once_after_it_stayed_the_same_for_one_look() throws Exception {
        Path root = tenants();
        Files.writeString(root.resolve("shop/tenant.yaml"), "v: 1\n");
        // Appends 20 ms apart, looks 500 ms apart: only a stalled writer could make two looks agree early.
        try (Watch watch = Watch.start(root, WatchMode.EVENTS, timing(500, 300, 600_000))) {
            Path data = root.resolve("shop/data/items.csv");
            long lastWrite = 0;
            for (int i = 0; i < 40; i++) {
                append(data, "row " + i + "\n");
                lastWrite = System.nanoTime();
                Thread.sleep(20);
            }
            Received received = watch.nextReceived(4000);
            assertNotNull(received, "the change was reported");
            assertTrue(received.at() > lastWrite, "reported while the file was still being written");
            assertEquals(
                    new FileWatcher.Change(root.resolve("shop"), Set.of(Path.of("data/items.csv")), true),
                    received.change());
            assertNull(watch.next(1000), "one change, one report");
        }
    }

    @Test
    void hidden_lock_and_temporary_files_are_not_watched_and_other_files_are_reported_by_name() throws Exception {
        Path root = tenants();
        Files.writeString(root.resolve("shop/tenant.yaml"), "v: 1\n");
        try (Watch watch = Watch.start(root, WatchMode.EVENTS, EVENTS_ONLY)) {
            Files.writeString(root.resolve("shop/.hidden"), "x");
            Files.writeString(root.resolve("shop/keys.yaml.lock"), "");
            Files.writeString(root.resolve("shop/.keys123.tmp"), "x");
            Files.createDirectories(root.resolve("shop/.git"));
            Files.writeString(root.resolve("shop/.git/config"), "x");
            Files.createDirectories(root.resolve("shop/upload.tmp"));
            Files.writeString(root.resolve("shop/upload.tmp/items.csv"), "x");
            assertNull(watch.next(1000), "ignored files were reported");

            Files.writeString(root.resolve("shop/keys.yaml"), "keys: []\n");
            assertEquals(Set.of(Path.of("keys.yaml")), watch.next(2000).files());
            Files.delete(root.resolve("shop/data/items.csv"));
            assertEquals(Set.of(Path.of("data/items.csv")), watch.next(2000).files());
        }
    }

    @Test
    void new_renamed_and_removed_directories_are_followed_by_file_events_alone() throws Exception {
        Path root = tenants();
        Files.writeString(root.resolve("shop/tenant.yaml"), "v: 1\n");
        try (Watch watch = Watch.start(root, WatchMode.EVENTS, EVENTS_ONLY)) {
            assertEquals(WatchMode.EVENTS, watch.watcher().mode());
            Files.createDirectories(root.resolve("notes"));
            Files.writeString(root.resolve("notes/todo.txt"), "not a tenant");
            Files.createDirectories(root.resolve("fresh/engines"));
            Files.writeString(root.resolve("fresh/tenant.yaml"), "v: 1\n");
            assertEquals(new FileWatcher.Change(root.resolve("fresh"), Set.of(MARKER), true), watch.next(2000));

            Files.move(root.resolve("shop"), root.resolve("store"));
            Map<Path, FileWatcher.Change> moved = new HashMap<>();
            for (int i = 0; i < 2; i++) {
                FileWatcher.Change change = watch.next(2000);
                assertNotNull(change, "both sides of the move were reported: " + moved);
                moved.put(change.directory(), change);
            }
            assertEquals(false, moved.get(root.resolve("shop")).present());
            assertEquals(
                    Set.of(MARKER, Path.of("data/items.csv")),
                    moved.get(root.resolve("store")).files());

            // The moved directory keeps its watches; their events now belong to its new name.
            append(root.resolve("store/data/items.csv"), "b\n");
            assertEquals(
                    new FileWatcher.Change(root.resolve("store"), Set.of(Path.of("data/items.csv")), true),
                    watch.next(2000));
            append(root.resolve("fresh/tenant.yaml"), "w: 2\n");
            assertEquals(root.resolve("fresh"), watch.next(2000).directory());

            Files.delete(root.resolve("fresh/tenant.yaml"));
            assertEquals(new FileWatcher.Change(root.resolve("fresh"), Set.of(MARKER), false), watch.next(2000));
            assertNull(watch.next(500));
            assertEquals(WatchMode.EVENTS, watch.watcher().mode());
        }
    }

    @ParameterizedTest
    @CsvSource({"AUTO, POLL", "EVENTS, EVENTS"})
    void a_change_no_event_announced_is_found_by_the_safety_look_and_auto_mode_turns_to_polling(
            WatchMode mode, WatchMode after) throws Exception {
        Path root = tenants();
        Path outside = linkedTenantFile(root);
        try (Watch watch = Watch.start(root, mode, QUICK_SAFETY)) {
            assertEquals(WatchMode.EVENTS, watch.watcher().mode(), "the test file's event arrived");
            append(outside, "v: 2\n");
            assertEquals(new FileWatcher.Change(root.resolve("shop"), Set.of(MARKER), true), watch.next(3000));
            assertEquals(after, watch.watcher().mode());
            if (after == WatchMode.POLL) {
                seenByPolling(watch, outside);
            }
        }
    }

    @Test
    void events_announce_a_change_before_the_safety_look_and_auto_mode_keeps_them() throws Exception {
        Path root = tenants();
        Files.writeString(root.resolve("shop/tenant.yaml"), "v: 1\n");
        try (Watch watch = Watch.start(root, WatchMode.AUTO, QUICK_SAFETY)) {
            for (int i = 0; i < 5; i++) {
                append(root.resolve("shop/tenant.yaml"), "v: " + i + "\n");
                assertNotNull(watch.next(2000), "change " + i);
                Thread.sleep(150);
            }
            assertEquals(WatchMode.EVENTS, watch.watcher().mode());
        }
    }

    @Test
    void polling_sees_a_change_no_event_announces_from_the_start() throws Exception {
        Path root = tenants();
        Path outside = linkedTenantFile(root);
        try (Watch watch = Watch.start(root, WatchMode.POLL, EVENTS_ONLY)) {
            assertEquals(WatchMode.POLL, watch.watcher().mode());
            assertEquals(
                    new FileWatcher.Change(root.resolve("shop"), Set.of(MARKER), true), seenByPolling(watch, outside));
        }
    }
}
