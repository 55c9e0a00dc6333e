package dev.autocomplete.server.files;

import static java.nio.file.StandardWatchEventKinds.ENTRY_CREATE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_DELETE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_MODIFY;
import static java.nio.file.StandardWatchEventKinds.OVERFLOW;
import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Watches every directory under a root that holds a marker file (the tenants directory and its
 * {@code tenant.yaml}), and reports what changed in one once its files stayed the same for one more look, so
 * a file being copied is not read half-written. Hidden, {@code *.lock} and {@code *.tmp} files and
 * directories are not watched. One thread looks, for every subscriber; each subscriber receives its changes
 * in order on a thread of its own, so a slow tenant load does not hold up a revoked key.
 *
 * <p>With file events ({@link WatchService}, inotify on Linux) an idle server only takes a safety look at
 * every directory every 30 s. Where events do not arrive (some network and container mounts; the JDK's
 * watch service on macOS polls every few seconds) it looks at every file once a second instead:
 * {@link WatchMode#AUTO} switches to that when the event of a test file written at start does not come within
 * a second, when the OS refuses more watches, or when a safety look finds a change that no event announced.
 *
 * <p>Construct (this takes the current files as the reported state), {@link #subscribe}, then {@link #start}.
 */
public final class FileWatcher implements AutoCloseable {

    /**
     * What changed in one watched directory since it was last reported.
     *
     * @param files the changed, added and removed files, relative to the directory
     * @param present whether the directory still holds the marker file (false: it is gone)
     */
    public record Change(Path directory, Set<Path> files, boolean present) {
        public Change {
            requireNonNull(directory, "directory is null");
            files = Set.copyOf(files);
        }
    }

    /**
     * @param settle time between two looks at a changed directory; the change is reported when they agree
     * @param poll time between two looks at everything while polling
     * @param safety time between two looks at everything while file events arrive
     * @param probe how long the event of the start-up test file may take
     */
    record Timing(Duration settle, Duration poll, Duration safety, Duration probe) {
        static final Timing DEFAULT = new Timing(
                Duration.ofMillis(250), Duration.ofSeconds(1), Duration.ofSeconds(30), Duration.ofSeconds(1));
    }

    private static final System.Logger LOG = System.getLogger(FileWatcher.class.getName());

    /** What a look finds in a directory without the marker file: nothing is watched there. */
    private static final Map<Path, FileStamp> ABSENT = Map.of();

    private record FileStamp(long size, long modifiedNanos, Object fileKey) {}

    private record Subscriber(Consumer<Change> listener, ExecutorService thread) {}

    private final Path root;
    private final Path marker;
    private final WatchMode requested;
    private final Timing timing;
    private final List<Subscriber> subscribers = new CopyOnWriteArrayList<>();

    // Used by the constructor, then by the watcher thread alone.
    private final Map<Path, Map<Path, FileStamp>> reported = new HashMap<>();
    private final Map<Path, Map<Path, FileStamp>> candidates = new HashMap<>();
    private final Map<Path, Long> due = new HashMap<>();
    /** Directories a safety look found changed with no event: when the change holds, events missed it. */
    private final Set<Path> unannounced = new HashSet<>();
    /** Each watch key to the directory under the root whose change its events announce (the root for itself). */
    private final Map<WatchKey, Path> watchedFor = new HashMap<>();

    private String pollingBecause;
    private boolean started;

    private volatile WatchService events;
    private volatile WatchMode mode;
    private volatile boolean closed;
    private Thread thread;

    /**
     * @param root the directory whose sub-directories are watched
     * @param marker the file a sub-directory must hold to be watched
     * @throws IOException when the root is not a directory
     */
    public FileWatcher(Path root, String marker, WatchMode requested) throws IOException {
        this(root, marker, requested, Timing.DEFAULT);
    }

    FileWatcher(Path root, String marker, WatchMode requested, Timing timing) throws IOException {
        if (!Files.isDirectory(root)) {
            throw new IOException("tenants directory not found: " + root);
        }
        this.root = root;
        this.marker = Path.of(marker);
        this.requested = requested;
        this.timing = timing;
        mode = WatchMode.EVENTS;
        if (requested == WatchMode.POLL) {
            stopEvents("tenants.watch: poll");
        } else {
            openEvents();
        }
        for (Path directory : subdirectories()) {
            Map<Path, FileStamp> seen = look(directory, true);
            if (seen != null && !seen.isEmpty()) {
                reported.put(directory, seen);
            }
        }
        due.clear();
        unannounced.clear();
        LOG.log(
                System.Logger.Level.INFO,
                mode == WatchMode.EVENTS
                        ? "Watching " + root + " with file events and a safety look every " + shown(timing.safety())
                        : "Watching " + root + " by polling every " + shown(timing.poll()) + " (" + pollingBecause
                                + ")");
    }

    /** Hands every later change to {@code listener}, in order, on a thread of its own called {@code name}. */
    public void subscribe(String name, Consumer<Change> listener) {
        subscribers.add(new Subscriber(
                listener,
                Executors.newSingleThreadExecutor(
                        Thread.ofPlatform().daemon().name(name).factory())));
    }

    /** Starts looking. */
    public FileWatcher start() {
        started = true;
        thread = Thread.ofPlatform().daemon().name("file-watcher").start(this::run);
        return this;
    }

    /** How changes are noticed now: {@link WatchMode#EVENTS} or {@link WatchMode#POLL}. */
    public WatchMode mode() {
        return mode;
    }

    private void openEvents() {
        try {
            events = root.getFileSystem().newWatchService();
        } catch (IOException | UnsupportedOperationException e) {
            stopEvents("no file events here: " + e.getMessage());
            return;
        }
        watch(root, root);
        if (requested == WatchMode.AUTO && events != null) {
            probe();
        }
    }

    /** Writes a test file into the root and switches to polling unless its event arrives in time. */
    private void probe() {
        Path file;
        try {
            file = Files.createTempFile(root, ".watch-probe-", ".tmp");
        } catch (IOException e) {
            return; // A read-only root: nothing to learn here; the safety look still notices missed events.
        }
        try {
            long deadline = System.nanoTime() + timing.probe().toNanos();
            while (!due.containsKey(file)) {
                long left = deadline - System.nanoTime();
                WatchKey key = left > 0 ? events.poll(left, TimeUnit.NANOSECONDS) : null;
                if (key == null) {
                    stopEvents("no file event came within " + timing.probe().toMillis() + " ms of writing a test file");
                    return;
                }
                take(key, System.nanoTime());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopEvents("interrupted while testing file events");
        } finally {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // Hidden and *.tmp: never watched, merely left behind.
            }
        }
    }

    private void stopEvents(String why) {
        mode = WatchMode.POLL;
        pollingBecause = why;
        WatchService service = events;
        events = null;
        watchedFor.clear();
        if (service != null) {
            try {
                service.close();
            } catch (IOException ignored) {
                // Nothing more to read from it either way.
            }
        }
        if (started) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Watching " + root + " by polling every " + shown(timing.poll()) + " from now on: " + why);
        }
    }

    private void watch(Path directory, Path owner) {
        WatchService service = events;
        if (service == null) {
            return;
        }
        try {
            watchedFor.put(directory.register(service, ENTRY_CREATE, ENTRY_DELETE, ENTRY_MODIFY), owner);
        } catch (NoSuchFileException | NotDirectoryException | AccessDeniedException e) {
            // Gone meanwhile, or not ours to read: the next look at it decides.
        } catch (IOException | UnsupportedOperationException e) {
            stopEvents("cannot watch " + directory + ": " + e.getMessage()); // e.g. the OS limit of inotify watches
        }
    }

    private void run() {
        long nextScan = System.nanoTime() + interval();
        while (!closed) {
            try {
                long now = System.nanoTime();
                nextScan = Math.min(nextScan, now + interval()); // A switch to polling brings the next look closer.
                long until = nextScan;
                for (long when : due.values()) {
                    until = Math.min(until, when);
                }
                boolean overflow = await(until - now);
                now = System.nanoTime();
                if (overflow || now - nextScan >= 0) {
                    nextScan = now + interval();
                    scan(now, overflow);
                }
                lookAtDue(now);
            } catch (InterruptedException | ClosedWatchServiceException e) {
                if (closed) {
                    return;
                }
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "Watching " + root + " failed: " + e.getMessage());
            }
        }
    }

    private long interval() {
        return (mode == WatchMode.EVENTS ? timing.safety() : timing.poll()).toNanos();
    }

    /** Waits for events until the deadline and takes them; true when some were lost (look at everything). */
    private boolean await(long nanos) throws InterruptedException {
        WatchService service = events;
        if (service == null) {
            if (nanos > 0) {
                TimeUnit.NANOSECONDS.sleep(nanos);
            }
            return false;
        }
        boolean overflow = false;
        WatchKey key = nanos > 0 ? service.poll(nanos, TimeUnit.NANOSECONDS) : service.poll();
        while (key != null) {
            overflow |= take(key, System.nanoTime());
            key = service.poll();
        }
        return overflow;
    }

    /** Marks the directories a key's events touched for a look; true when events were lost. */
    private boolean take(WatchKey key, long now) {
        Path owner = watchedFor.get(key);
        boolean overflow = false;
        for (WatchEvent<?> event : key.pollEvents()) {
            if (event.kind() == OVERFLOW) {
                overflow = true;
            } else if (owner != null) {
                Path directory = owner.equals(root) ? root.resolve((Path) event.context()) : owner;
                unannounced.remove(directory);
                due.putIfAbsent(directory, now + timing.settle().toNanos());
            }
        }
        if (!key.reset()) {
            watchedFor.remove(key);
        }
        return overflow;
    }

    /**
     * Looks at every directory. With events on, a change found here that no event announced is suspect,
     * unless {@code eventsLost}: then directories are watched again, in case some were created meanwhile.
     */
    private void scan(long now, boolean eventsLost) {
        Set<Path> directories = new TreeSet<>(reported.keySet());
        try {
            directories.addAll(subdirectories());
        } catch (IOException | DirectoryIteratorException e) {
            LOG.log(System.Logger.Level.WARNING, "Cannot list " + root + ": " + e.getMessage());
            return;
        }
        for (Path directory : directories) {
            Map<Path, FileStamp> seen = look(directory, eventsLost);
            if (seen == null) {
                continue;
            }
            if (!eventsLost
                    && mode == WatchMode.EVENTS
                    && !due.containsKey(directory)
                    && !candidates.containsKey(directory)
                    && !seen.equals(reported.getOrDefault(directory, ABSENT))) {
                unannounced.add(directory);
            }
            settle(directory, seen, now);
        }
    }

    private void lookAtDue(long now) {
        List<Path> ready = new ArrayList<>();
        due.forEach((directory, when) -> {
            if (when - now <= 0) {
                ready.add(directory);
            }
        });
        for (Path directory : ready) {
            due.remove(directory);
            Map<Path, FileStamp> seen = look(directory, true);
            if (seen != null) {
                settle(directory, seen, System.nanoTime());
            }
        }
    }

    /** Reports a directory whose look agrees with the previous one and differs from what was reported. */
    private void settle(Path directory, Map<Path, FileStamp> seen, long now) {
        Map<Path, FileStamp> before = reported.getOrDefault(directory, ABSENT);
        if (seen.equals(before)) {
            candidates.remove(directory);
            unannounced.remove(directory);
            return;
        }
        if (!seen.equals(candidates.put(directory, seen))) {
            due.putIfAbsent(directory, now + timing.settle().toNanos());
            return;
        }
        candidates.remove(directory);
        if (seen.isEmpty()) {
            reported.remove(directory);
        } else {
            reported.put(directory, seen);
        }
        if (unannounced.remove(directory)) {
            eventsMissed(directory);
        }
        Change change = new Change(directory, differences(before, seen), !seen.isEmpty());
        for (Subscriber subscriber : subscribers) {
            subscriber.thread().execute(() -> {
                try {
                    subscriber.listener().accept(change);
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "Handling the change of " + directory + " failed", e);
                }
            });
        }
    }

    private void eventsMissed(Path directory) {
        if (requested == WatchMode.AUTO) {
            stopEvents("file events missed a change in " + directory);
        } else {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "File events missed a change in " + directory + "; the safety look "
                            + "found it. On this file system, set tenants.watch to auto or poll.");
        }
    }

    /**
     * The watched files of a directory; {@link #ABSENT} when it holds no marker file; null when it could not be
     * read (the next look tries again). {@code register}: watch its directories for events.
     */
    private Map<Path, FileStamp> look(Path directory, boolean register) {
        try {
            if (register && events != null && Files.isDirectory(directory)) {
                watch(directory, directory); // Even without the marker: its arrival is an event here.
            }
            if (!Files.isRegularFile(directory.resolve(marker))) {
                return ABSENT;
            }
            Path start = Files.isSymbolicLink(directory) ? directory.toRealPath() : directory;
            Map<Path, FileStamp> stamps = new HashMap<>();
            Files.walkFileTree(start, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
                    if (dir.equals(start)) {
                        return FileVisitResult.CONTINUE;
                    }
                    if (ignored(dir)) {
                        return FileVisitResult.SKIP_SUBTREE;
                    }
                    if (register) {
                        watch(dir, directory);
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                    if (ignored(file)) {
                        return FileVisitResult.CONTINUE;
                    }
                    BasicFileAttributes target = attributes;
                    if (attributes.isSymbolicLink()) {
                        // A link counts as the file it points to, whose replacement is then a change.
                        try {
                            target = Files.readAttributes(file, BasicFileAttributes.class);
                        } catch (IOException e) {
                            return FileVisitResult.CONTINUE; // Dangling: no file to read.
                        }
                    }
                    if (target.isRegularFile()) {
                        stamps.put(
                                start.relativize(file),
                                new FileStamp(
                                        target.size(),
                                        target.lastModifiedTime().to(TimeUnit.NANOSECONDS),
                                        target.fileKey()));
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE; // Moved or deleted meanwhile: the next look sees how it ends.
                }
            });
            return stamps.containsKey(marker) ? stamps : ABSENT;
        } catch (IOException e) {
            return null;
        }
    }

    private static boolean ignored(Path path) {
        String name = path.getFileName().toString();
        return name.startsWith(".") || name.endsWith(".lock") || name.endsWith(".tmp");
    }

    private static String shown(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
    }

    private List<Path> subdirectories() throws IOException {
        List<Path> directories = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(root, Files::isDirectory)) {
            stream.forEach(directories::add);
        }
        return directories;
    }

    private static Set<Path> differences(Map<Path, FileStamp> before, Map<Path, FileStamp> after) {
        Set<Path> files = new TreeSet<>();
        before.forEach((file, stamp) -> {
            if (!stamp.equals(after.get(file))) {
                files.add(file);
            }
        });
        after.forEach((file, stamp) -> {
            if (!stamp.equals(before.get(file))) {
                files.add(file);
            }
        });
        return files;
    }

    @Override
    public void close() {
        closed = true;
        WatchService service = events;
        if (service != null) {
            try {
                service.close();
            } catch (IOException ignored) {
                // Closing anyway.
            }
        }
        if (thread != null) {
            thread.interrupt();
        }
        subscribers.forEach(subscriber -> subscriber.thread().shutdownNow());
    }
}
