package dev.autocomplete.server.catalogs;

import dev.autocomplete.index.CatalogEntry;
import dev.autocomplete.index.LiveOptions;
import dev.autocomplete.server.store.CatalogRef;
import dev.autocomplete.server.store.CatalogStore;
import dev.autocomplete.server.store.InvalidRecordsException;
import dev.autocomplete.server.store.OptionPatch;
import dev.autocomplete.server.store.OptionRecord;
import dev.autocomplete.server.store.PlatformThreads;
import dev.autocomplete.server.store.StorageUnavailableException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The live catalogs of every loaded tenant: one in-memory index ({@link LiveOptions}) per catalog, kept in step
 * with the {@link CatalogStore}, the source of truth. A write goes to the store first, then the index catches up
 * from the store's change log, in the log's order, before the write is acknowledged; changes other processes made
 * (another replica, the {@code catalog} command) arrive the same way when the store announces them (PostgreSQL's
 * {@code NOTIFY}, or SQLite's data version looked at every second), with a safety look every 30 s. An index survives tenant reloads: products of a reloaded tenant serve the same one.
 *
 * <p>With a shared store (PostgreSQL), a local snapshot (SQLite in the data directory) follows every catalog, so
 * that a replica that starts while the shared store is down serves what it last knew; writes then answer
 * {@link StorageUnavailableException} until the store is back, and the catalogs are rebuilt from it.
 * Thread-safe.
 */
public final class LiveCatalogs implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(LiveCatalogs.class.getName());
    /** Changes read from the store at once while catching up. */
    private static final int CHANGES_PER_READ = 10_000;
    /** How often a store that could not be reached is tried again, and the change log looked at. */
    private static final long LOOK_MILLIS = 1_000;
    /** How often the change log is read whether or not the store announced a change. */
    private static final long SAFETY_SECONDS = 30;
    /** How often what dead writers left in the store is looked for. */
    private static final long TIDY_MINUTES = 10;

    private final Supplier<CatalogStore> connect;
    private volatile CatalogStore store;
    /** The local copy every catalog is written to, or null when the store is local itself. */
    private final CatalogStore snapshot;

    private final Map<CatalogRef, LiveCatalog> open = new ConcurrentHashMap<>();
    /** What {@link #open} synchronizes on, one object a catalog. */
    private final Map<CatalogRef, Object> opening = new ConcurrentHashMap<>();
    /** Catalogs served from the snapshot while the store was away: rebuilt from the store once it is back. */
    private final Set<CatalogRef> fromSnapshot = ConcurrentHashMap.newKeySet();
    /** Catalogs whose snapshot is behind the store. */
    private final Set<CatalogRef> snapshotBehind = ConcurrentHashMap.newKeySet();

    private final List<Runnable> whenAvailable = new CopyOnWriteArrayList<>();
    /** Held while changes are applied, so they are applied once each and in order. */
    private final ReentrantLock applying = new ReentrantLock();
    /** The store's sequence up to which changes are applied; guarded by {@link #applying}. */
    private long applied;
    /** Writes applied from the changes their own transaction returned; guarded by {@link #applying}. */
    private long directlyApplied;
    /** Catalogs whose replace is being built off the {@link #applying} lock; guarded by it. */
    private final Map<CatalogRef, Rebuild> rebuilding = new HashMap<>();

    private final ScheduledExecutorService background;

    /** Live catalogs over a store this process alone writes (SQLite), opened now. */
    public LiveCatalogs(CatalogStore store) {
        this(() -> store, null);
    }

    /**
     * Live catalogs over a shared store, connected by {@code connect} now or, while it is unreachable, again every
     * second; {@code snapshot} keeps a local copy.
     */
    public LiveCatalogs(Supplier<CatalogStore> connect, CatalogStore snapshot) {
        this.connect = connect;
        this.snapshot = snapshot;
        this.background = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("live-catalogs").factory());
        try {
            connected(connect.get());
        } catch (StorageUnavailableException e) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "The catalog store is unreachable (" + e.getMessage() + "); serving"
                            + " catalogs from the local snapshot until it is back, and refusing writes meanwhile");
        }
        background.scheduleWithFixedDelay(this::look, LOOK_MILLIS, LOOK_MILLIS, TimeUnit.MILLISECONDS);
        // A safety net only: changes made elsewhere arrive through the store's notice; a catch-up that failed
        // meanwhile (the store busy or away for a moment) is made good here.
        background.scheduleWithFixedDelay(this::catchUpQuietly, SAFETY_SECONDS, SAFETY_SECONDS, TimeUnit.SECONDS);
        background.scheduleWithFixedDelay(this::dropAbandonedQuietly, TIDY_MINUTES, TIDY_MINUTES, TimeUnit.MINUTES);
    }

    private void connected(CatalogStore reached) {
        applying.lock();
        try {
            applied = reached.lastSequence();
            store = reached;
        } finally {
            applying.unlock();
        }
        reached.onExternalChange(this::catchUpSoon);
        background.execute(this::dropAbandonedQuietly);
    }

    /** A change made elsewhere: caught up on the background thread, unless this is closing (the store closes next). */
    private void catchUpSoon() {
        try {
            background.execute(this::catchUpQuietly);
        } catch (RejectedExecutionException closing) {
            // Stopped between the store's poll and its close: nothing is left to keep up to date.
        }
    }

    /** Drops what dead writers left in the store: at each connection, then every {@link #TIDY_MINUTES} minutes. */
    private void dropAbandonedQuietly() {
        try {
            CatalogStore reached = store;
            if (reached != null) {
                reached.dropAbandoned();
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "live catalogs: dropping what dead writers left failed", e);
        }
    }

    /** The store; {@link StorageUnavailableException} while it has not been reached. */
    public CatalogStore store() {
        CatalogStore reached = store;
        if (reached == null) {
            throw new StorageUnavailableException(
                    "the catalog store has not been reached since the server started", null);
        }
        return reached;
    }

    /** Runs {@code action} each time the store is reached after being away at start (tenants may load now). */
    public void whenAvailable(Runnable action) {
        whenAvailable.add(action);
    }

    /** Whether every open catalog is served from the store (not from a snapshot of it). */
    public boolean current() {
        return store != null && fromSnapshot.isEmpty();
    }

    /**
     * Whether {@link #open} would import the catalog's seed: it is not open here and the store, reached, does not hold
     * it. False when the store cannot be asked ({@link #open} then says why).
     */
    public boolean wouldSeed(CatalogRef ref) {
        CatalogStore reached = store;
        if (open.containsKey(ref) || reached == null) {
            return false;
        }
        try {
            return !reached.holds(ref);
        } catch (StorageUnavailableException e) {
            return false;
        }
    }

    /**
     * The live catalog, opened on first use: built from the store, after importing {@code seed} when the store
     * does not hold the catalog yet; from the local snapshot while the store is away.
     *
     * @throws StorageUnavailableException when neither the store nor a snapshot holds it
     */
    public LiveCatalog open(CatalogRef ref, Seed seed) {
        LiveCatalog live = open.get(ref);
        if (live != null) {
            reportEditedSeed(ref, seed);
            return live;
        }
        // One opener a catalog; the seed and the build (seconds at a million options) hold no other catalog's
        // writes: the lock that applies changes is taken only to put the catalog in.
        synchronized (opening.computeIfAbsent(ref, any -> new Object())) {
            live = open.get(ref);
            if (live != null) {
                return live;
            }
            CatalogStore reached = store;
            try {
                if (reached == null) {
                    throw new StorageUnavailableException("the catalog store has not been reached", null);
                }
                List<OptionRecord> first =
                        reached.holds(ref) ? null : seed.records().get();
                if (first != null && reached.seed(ref, first.iterator(), seed.digest())) {
                    // A catalog declared without a file or options starts empty: nothing was imported from anywhere.
                    LOG.log(
                            System.Logger.Level.INFO,
                            first.isEmpty()
                                    ? "catalog {0}: created empty in the store (fill it with the records API or"
                                            + " catalog import)"
                                    : "catalog {0}: imported {1} options from {2} into the store",
                            ref,
                            first.size(),
                            seed.source());
                } else {
                    reportEditedSeed(ref, seed);
                }
                // Read after the seed's own change and before the build: the changes up to here are in the index,
                // and the first catch-up need not rebuild the catalog for the seed's replace (seconds at a million).
                long builtThrough = reached.lastSequence();
                live = new LiveCatalog(ref, build(reached, ref), builtThrough);
                applying.lock();
                try {
                    open.put(ref, live);
                    snapshotBehind.add(ref);
                    // Changes applied meanwhile passed this catalog by (it was not open): read its own again.
                    applyMissed(reached, live, builtThrough);
                } catch (StorageUnavailableException e) {
                    open.remove(ref);
                    throw e;
                } finally {
                    applying.unlock();
                }
                finishRebuilds(reached, Set.of(ref)); // a replace among them
            } catch (StorageUnavailableException e) {
                if (snapshot == null || !snapshot.holds(ref)) {
                    throw new StorageUnavailableException(
                            "the catalog store is unreachable (" + e.getMessage()
                                    + ") and no local snapshot holds catalog " + ref,
                            e);
                }
                applying.lock();
                try {
                    live = new LiveCatalog(ref, build(snapshot, ref), 0);
                    fromSnapshot.add(ref);
                    open.put(ref, live);
                } finally {
                    applying.unlock();
                }
            }
            return live;
        }
    }

    /**
     * Applies to a catalog just opened its changes after {@code builtThrough} up to those applied already, which
     * passed it by; under {@link #applying}. (Later ones reach it as every catalog's do.)
     */
    private void applyMissed(CatalogStore reached, LiveCatalog live, long builtThrough) {
        long from = builtThrough;
        while (from < applied) {
            List<CatalogStore.Change> changes = reached.changesSince(from, CHANGES_PER_READ);
            if (changes.isEmpty()) {
                return;
            }
            List<CatalogStore.Change> missed = changes.stream()
                    .filter(change ->
                            change.sequence() <= applied && change.catalog().equals(live.ref()))
                    .toList();
            if (!missed.isEmpty()) {
                apply(reached, missed);
            }
            from = changes.getLast().sequence();
        }
    }

    /** Every open catalog (the console lists their sizes and generations). */
    public List<LiveCatalog> opened() {
        return List.copyOf(open.values());
    }

    /** The open catalog, if a loaded tenant declares it. */
    public Optional<LiveCatalog> find(CatalogRef ref) {
        return Optional.ofNullable(open.get(ref));
    }

    private void reportEditedSeed(CatalogRef ref, Seed seed) {
        if (seed.digest() == null) {
            return;
        }
        Optional<String> imported;
        try {
            imported = store().seedDigest(ref);
        } catch (StorageUnavailableException e) {
            return; // told at a load while the store is reachable
        }
        if (imported.isPresent() && !imported.get().equals(seed.digest())) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "catalog {0}: {1} changed since it was imported; the store is the"
                            + " source of truth and the file is not merged. Bring it in with: ./autocomplete catalog import"
                            + " --tenant {2} --catalog {3} {1}",
                    ref,
                    seed.source(),
                    ref.tenant(),
                    ref.catalog());
        }
    }

    /** A catalog's index, built from the store on a platform thread (seconds of work at a million options). */
    private static LiveOptions build(CatalogStore from, CatalogRef ref) {
        return PlatformThreads.call(() -> {
            List<CatalogEntry> entries = new ArrayList<>();
            from.forEach(ref, record -> entries.add(entry(record)));
            return LiveOptions.of(entries);
        });
    }

    static CatalogEntry entry(OptionRecord record) {
        return new CatalogEntry(
                record.text(), record.aliases(), record.weight(), record.translations(), record.attributes());
    }

    /** Upserts records; the index holds them when this returns. */
    public int upsert(CatalogRef ref, List<OptionRecord> records) {
        catchUp(store().upsert(ref, records));
        return records.size();
    }

    /** Removes a record; false when the catalog had no such id. The index has dropped it when this returns. */
    public boolean delete(CatalogRef ref, String id) {
        Optional<CatalogStore.Change> deleted = store().delete(ref, id);
        catchUp(deleted.map(List::of).orElse(List.of()));
        return deleted.isPresent();
    }

    /**
     * Changes stored records by their patches, all or nothing ({@link CatalogStore#patch}); the index holds the
     * changed records when this returns.
     */
    public int patch(CatalogRef ref, List<OptionPatch> patches) {
        catchUp(store().patch(ref, patches));
        return patches.size();
    }

    /** Removes the records of these ids; how many there were. The index has dropped them when this returns. */
    public int delete(CatalogRef ref, Collection<String> ids) {
        List<CatalogStore.Change> deleted = store().delete(ref, ids);
        catchUp(deleted);
        return deleted.size();
    }

    /** The stored record of this id, if any. */
    public Optional<OptionRecord> get(CatalogRef ref, String id) {
        return store().get(ref, id);
    }

    /**
     * What the catalog holds: from this replica's index once it is open (its generation grows with every change
     * the index takes), otherwise counted in the store (generation 0).
     */
    public Summary summary(CatalogRef ref) {
        LiveCatalog live = open.get(ref);
        if (live != null) {
            return new Summary(live.options().size(), live.generation());
        }
        return new Summary(store().count(ref), 0);
    }

    /**
     * @param options how many options the catalog holds
     * @param generation this replica's count of the changes its index took
     */
    public record Summary(long options, long generation) {}

    /** Replaces the whole catalog atomically; the index serves the new one when this returns. */
    public long replace(CatalogRef ref, Iterator<OptionRecord> records) {
        long count = store().replace(ref, records);
        CatalogStore reached = store();
        applyChanges(reached);
        finishRebuilds(reached, Set.of(ref));
        return count;
    }

    /**
     * Applies a write's own changes, as its transaction returned them, without reading them back: when they follow
     * the last applied change with no gap, nothing else can come before them. Otherwise (another writer's changes
     * in between, or a gap in the sequence) reads the change log as {@link #catchUp()} does.
     */
    private void catchUp(List<CatalogStore.Change> written) {
        if (written.isEmpty()) {
            return;
        }
        long first = written.getFirst().sequence();
        long last = written.getLast().sequence();
        CatalogStore reached = store();
        boolean direct = false;
        applying.lock();
        try {
            if (last <= applied) {
                direct = true; // applied by another thread's catch-up (perhaps into a rebuild, waited for below)
            } else if (first == applied + 1 && last - first + 1 == written.size()) {
                apply(reached, written);
                applied = last;
                directlyApplied++;
                direct = true;
            }
        } finally {
            applying.unlock();
        }
        if (!direct) {
            applyChanges(reached);
        }
        // Waits only for a catalog of this write being rebuilt: its changes go in after the new index.
        finishRebuilds(
                reached, written.stream().map(CatalogStore.Change::catalog).collect(Collectors.toSet()));
    }

    /** How many writes were applied from their own changes, without reading the change log (for tests). */
    long directlyApplied() {
        applying.lock();
        try {
            return directlyApplied;
        } finally {
            applying.unlock();
        }
    }

    /** Applies the store's changes not applied yet, in order; every replace among them is served on return. */
    public void catchUp() {
        CatalogStore reached = store();
        applyChanges(reached);
        finishRebuilds(reached, null);
    }

    /**
     * Applies the store's changes not applied yet, in order, but for the new index of a replaced catalog, which is
     * left to {@link #finishRebuilds}: building it takes seconds at a million options, and the lock held here is
     * every catalog's.
     */
    private void applyChanges(CatalogStore reached) {
        applying.lock();
        try {
            while (true) {
                List<CatalogStore.Change> changes = reached.changesSince(applied, CHANGES_PER_READ);
                if (changes.isEmpty()) {
                    return;
                }
                apply(reached, changes);
                applied = changes.getLast().sequence();
                if (changes.size() < CHANGES_PER_READ) {
                    return;
                }
            }
        } finally {
            applying.unlock();
        }
    }

    /**
     * Once a second: reach a store that was away, rebuild what the snapshot served, bring the snapshot up to date.
     * Changes made elsewhere arrive through the store's own notice ({@link CatalogStore#onExternalChange}), not here.
     */
    private void look() {
        try {
            if (store == null) {
                connected(connect.get());
                LOG.log(System.Logger.Level.INFO, "The catalog store is reachable; catalogs now follow it");
                rebuildFromStore();
                whenAvailable.forEach(Runnable::run);
            } else if (!fromSnapshot.isEmpty()) {
                rebuildFromStore();
            }
            writeSnapshots();
        } catch (StorageUnavailableException e) {
            // Still away: serve what is held, try again at the next look.
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "live catalogs: following the store failed", e);
        }
    }

    private void catchUpQuietly() {
        try {
            CatalogStore reached = store;
            if (reached != null && reached.lastSequence() > appliedSequence()) {
                applyChanges(reached);
                finishRebuilds(reached, Set.of());
            }
        } catch (StorageUnavailableException e) {
            // Serve what is held; the store's reconnection or the next safety look catches up.
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "live catalogs: catching up with the store failed", e);
        }
    }

    /** The catalogs opened from the snapshot, rebuilt from the store that is back. */
    private void rebuildFromStore() {
        CatalogStore reached = store();
        applying.lock();
        try {
            for (CatalogRef ref : List.copyOf(fromSnapshot)) {
                LiveCatalog live = open.get(ref);
                if (live != null) {
                    live.replaceWith(build(reached, ref));
                    snapshotBehind.add(ref);
                }
                fromSnapshot.remove(ref);
            }
        } finally {
            applying.unlock();
        }
    }

    private long appliedSequence() {
        applying.lock();
        try {
            return applied;
        } finally {
            applying.unlock();
        }
    }

    /** Applies consecutive changes of one catalog as one batch: one new snapshot, not one per record. */
    private void apply(CatalogStore from, List<CatalogStore.Change> changes) {
        int start = 0;
        while (start < changes.size()) {
            CatalogRef ref = changes.get(start).catalog();
            int end = start;
            while (end < changes.size() && changes.get(end).catalog().equals(ref)) {
                end++;
            }
            LiveCatalog live = open.get(ref);
            if (live != null && !fromSnapshot.contains(ref)) {
                int first = start;
                while (first < end && changes.get(first).sequence() <= live.builtThrough()) {
                    first++; // already in the index it was built with
                }
                if (first < end) {
                    apply(from, live, changes.subList(first, end));
                    snapshotBehind.add(ref);
                }
            }
            start = end;
        }
    }

    private void apply(CatalogStore from, LiveCatalog live, List<CatalogStore.Change> changes) {
        Rebuild pending = rebuilding.get(live.ref());
        if (pending != null) {
            pending.after.addAll(changes);
            return;
        }
        if (changes.stream().anyMatch(change -> change.kind() == CatalogStore.Kind.REPLACE)) {
            // Everything before the last replace is replaced: built anew from the store, which holds what follows,
            // off this lock (finishRebuilds); meanwhile the old index serves.
            rebuilding.put(live.ref(), new Rebuild());
            return;
        }
        List<CatalogEntry> upserts = new ArrayList<>();
        List<String> removed = new ArrayList<>();
        for (CatalogStore.Change change : changes) {
            if (change.previousText() != null) {
                removed.add(change.previousText());
            }
            if (change.record() != null) {
                upserts.add(entry(change.record()));
            }
        }
        live.apply(upserts, removed);
        if (live.options().wantsFold()) {
            background.execute(live::fold);
        }
    }

    /** A replaced catalog whose new index is not in yet; guarded by {@link #applying}. */
    private static final class Rebuild {
        /** Changes of the catalog after the replace, applied to the new index once it is in. */
        final List<CatalogStore.Change> after = new ArrayList<>();
        /** Completed when the new index is in; failed (and replaced) when building it failed. */
        CompletableFuture<Void> done = new CompletableFuture<>();

        boolean building;
        /** Failed attempts so far: only the first is logged (the store may be away for minutes). */
        int failures;
    }

    /**
     * Puts in the new index of every replaced catalog, built outside the lock: those of {@code waitFor} (null: all)
     * on this thread, or waited for when another thread builds them, the others on the background thread.
     */
    private void finishRebuilds(CatalogStore reached, Set<CatalogRef> waitFor) {
        List<CatalogRef> pending;
        applying.lock();
        try {
            pending = List.copyOf(rebuilding.keySet());
        } finally {
            applying.unlock();
        }
        for (CatalogRef ref : pending) {
            if (waitFor == null || waitFor.contains(ref)) {
                finishRebuild(reached, ref, true);
            } else {
                background.execute(() -> finishRebuildQuietly(reached, ref));
            }
        }
    }

    private void finishRebuildQuietly(CatalogStore reached, CatalogRef ref) {
        try {
            finishRebuild(reached, ref, false);
        } catch (RuntimeException e) {
            // Logged and retried by finishRebuild.
        }
    }

    /**
     * Builds the catalog's new index from the store, then, under the lock, puts it in with the changes that came
     * after it; when another thread builds it, waits for it if {@code wait}, else returns. A failure is retried a
     * second later (the old index serves until then) and thrown.
     */
    private void finishRebuild(CatalogStore reached, CatalogRef ref, boolean wait) {
        Rebuild rebuild;
        CompletableFuture<Void> done;
        LiveCatalog live = open.get(ref);
        applying.lock();
        try {
            rebuild = rebuilding.get(ref);
            if (rebuild == null) {
                return;
            }
            if (live == null) { // its opening failed after the replace was queued: nothing to build
                rebuilding.remove(ref);
                rebuild.done.complete(null);
                return;
            }
            done = rebuild.done;
            if (!rebuild.building) {
                rebuild.building = true;
                done = null;
            } else if (!wait) {
                return; // another thread builds it; the background thread does not wait for it
            }
        } finally {
            applying.unlock();
        }
        if (done != null) {
            try {
                done.join();
            } catch (CompletionException e) {
                throw e.getCause() instanceof RuntimeException cause ? cause : e;
            }
            return;
        }
        try {
            while (true) {
                // Changes up to here are in what the build reads; later ones may be too, and are applied again.
                long through = reached.lastSequence();
                LiveOptions built = build(reached, ref);
                applying.lock();
                try {
                    List<CatalogStore.Change> after = rebuild.after.stream()
                            .filter(change -> change.sequence() > through)
                            .toList();
                    rebuild.after.clear();
                    if (after.stream().anyMatch(change -> change.kind() == CatalogStore.Kind.REPLACE)) {
                        rebuild.after.addAll(after);
                        continue; // replaced again meanwhile: build again
                    }
                    rebuilding.remove(ref);
                    live.replaceWith(built);
                    if (!after.isEmpty()) {
                        apply(reached, live, after);
                    }
                    snapshotBehind.add(ref);
                    rebuild.done.complete(null);
                    return;
                } finally {
                    applying.unlock();
                }
            }
        } catch (RuntimeException | Error e) {
            CompletableFuture<Void> failed;
            int failures;
            applying.lock();
            try {
                failed = rebuild.done;
                rebuild.done = new CompletableFuture<>();
                rebuild.building = false;
                failures = ++rebuild.failures;
            } finally {
                applying.unlock();
            }
            failed.completeExceptionally(e);
            if (failures == 1) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "catalog {0}: building its replaced index failed ({1}); the old one serves until it is"
                                + " built, tried again every second",
                        ref,
                        e.toString());
            }
            background.schedule(() -> finishRebuildQuietly(reached, ref), 1, TimeUnit.SECONDS);
            throw e;
        }
    }

    /** Copies the catalogs that changed to the local snapshot, off the request path. */
    private void writeSnapshots() {
        CatalogStore reached = store;
        if (snapshot == null || reached == null) {
            snapshotBehind.clear();
            return;
        }
        for (CatalogRef ref : List.copyOf(snapshotBehind)) {
            snapshotBehind.remove(ref);
            Map<String, OptionRecord> records = new LinkedHashMap<>();
            reached.forEach(ref, record -> records.put(record.id(), record));
            try {
                snapshot.replace(ref, records.values().iterator());
            } catch (InvalidRecordsException e) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "catalog {0}: the local snapshot refused the store''s records: {1}",
                        ref,
                        e.problems());
            }
        }
    }

    /**
     * What a catalog is first imported from: its declaration's file or inline options.
     *
     * @param source names it in messages ({@code data/cities.csv})
     * @param records read only when the store does not hold the catalog yet
     * @param digest the file's digest (a later edit is reported), or null for inline options
     */
    public record Seed(String source, Supplier<List<OptionRecord>> records, String digest) {}

    @Override
    public void close() {
        background.shutdownNow();
        try {
            background.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        CatalogStore reached = store;
        if (reached != null) {
            reached.close();
        }
        if (snapshot != null) {
            snapshot.close();
        }
    }
}
