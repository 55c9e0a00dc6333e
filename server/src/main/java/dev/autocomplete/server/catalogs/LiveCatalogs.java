package dev.autocomplete.server.catalogs;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import dev.autocomplete.engine.catalog.CatalogEntry;
import dev.autocomplete.engine.catalog.LiveOptions;
import dev.autocomplete.server.store.CatalogRef;
import dev.autocomplete.server.store.CatalogStore;
import dev.autocomplete.server.store.OptionRecord;
import dev.autocomplete.server.store.StorageUnavailableException;

/**
 * The live catalogs of every loaded tenant: one in-memory index ({@link LiveOptions}) per catalog, kept in step
 * with the {@link CatalogStore}, the source of truth. A write goes to the store first, then the index catches up
 * from the store's change log, in the log's order, before the write is acknowledged; changes other processes made
 * (another replica, the {@code catalog} command) arrive the same way, when the store announces them or at the
 * next poll, within a second. An index survives tenant reloads: products of a reloaded tenant serve the same one.
 * Thread-safe.
 */
public final class LiveCatalogs implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(LiveCatalogs.class.getName());
    /** Changes read from the store at once while catching up. */
    private static final int CHANGES_PER_READ = 10_000;

    private final CatalogStore store;
    private final Map<CatalogRef, LiveCatalog> open = new ConcurrentHashMap<>();
    /** Held while changes are applied, so they are applied once each and in order. */
    private final ReentrantLock applying = new ReentrantLock();
    /** The store's sequence up to which changes are applied; guarded by {@link #applying}. */
    private long applied;
    private final ScheduledExecutorService background;

    public LiveCatalogs(CatalogStore store) {
        this.store = store;
        this.applied = store.lastSequence();
        this.background = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon()
                .name("live-catalogs").factory());
        store.onExternalChange(() -> background.execute(this::catchUpQuietly));
        background.scheduleWithFixedDelay(this::catchUpQuietly, 1, 1, TimeUnit.SECONDS);
    }

    public CatalogStore store() {
        return store;
    }

    /**
     * The live catalog, opened on first use: built from the store, after importing {@code seed} when the store
     * does not hold the catalog yet.
     *
     * @throws StorageUnavailableException when the store cannot be read
     */
    public LiveCatalog open(CatalogRef ref, Seed seed) {
        LiveCatalog live = open.get(ref);
        if (live != null) {
            reportEditedSeed(ref, seed);
            return live;
        }
        applying.lock();
        try {
            live = open.get(ref);
            if (live != null) {
                return live;
            }
            List<OptionRecord> first = store.holds(ref) ? null : seed.records().get();
            if (first != null && store.seed(ref, first.iterator(), seed.digest())) {
                LOG.log(System.Logger.Level.INFO, "catalog {0}: imported {1} options from {2} into the store",
                        ref, first.size(), seed.source());
            } else {
                reportEditedSeed(ref, seed);
            }
            live = new LiveCatalog(ref, build(ref));
            open.put(ref, live);
            return live;
        } finally {
            applying.unlock();
        }
    }

    /** The open catalog, if a loaded tenant declares it. */
    public Optional<LiveCatalog> find(CatalogRef ref) {
        return Optional.ofNullable(open.get(ref));
    }

    private void reportEditedSeed(CatalogRef ref, Seed seed) {
        if (seed.digest() == null) {
            return;
        }
        Optional<String> imported = store.seedDigest(ref);
        if (imported.isPresent() && !imported.get().equals(seed.digest())) {
            LOG.log(System.Logger.Level.WARNING, "catalog {0}: {1} changed since it was imported; the store is the"
                    + " source of truth and the file is not merged. Bring it in with: ./autocomplete catalog import"
                    + " --tenant {2} --catalog {3} {1}", ref, seed.source(), ref.tenant(), ref.catalog());
        }
    }

    private LiveOptions build(CatalogRef ref) {
        List<CatalogEntry> entries = new ArrayList<>();
        store.forEach(ref, record -> entries.add(entry(record)));
        return LiveOptions.of(entries);
    }

    static CatalogEntry entry(OptionRecord record) {
        return new CatalogEntry(record.text(), record.aliases(), record.weight(), record.translations());
    }

    /** Upserts records; the index holds them when this returns. */
    public int upsert(CatalogRef ref, List<OptionRecord> records) {
        store.upsert(ref, records);
        catchUp();
        return records.size();
    }

    /** Removes a record; false when the catalog had no such id. The index has dropped it when this returns. */
    public boolean delete(CatalogRef ref, String id) {
        boolean deleted = store.delete(ref, id).isPresent();
        catchUp();
        return deleted;
    }

    /** Replaces the whole catalog atomically; the index serves the new one when this returns. */
    public long replace(CatalogRef ref, Iterator<OptionRecord> records) {
        long count = store.replace(ref, records);
        catchUp();
        return count;
    }

    /** Applies the store's changes not applied yet, in order. */
    public void catchUp() {
        applying.lock();
        try {
            while (true) {
                List<CatalogStore.Change> changes = store.changesSince(applied, CHANGES_PER_READ);
                if (changes.isEmpty()) {
                    return;
                }
                apply(changes);
                applied = changes.getLast().sequence();
                if (changes.size() < CHANGES_PER_READ) {
                    return;
                }
            }
        } finally {
            applying.unlock();
        }
    }

    private void catchUpQuietly() {
        try {
            if (store.lastSequence() > appliedSequence()) {
                catchUp();
            }
        } catch (StorageUnavailableException e) {
            // Serve what is held; the next poll or the store's reconnection catches up.
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "live catalogs: catching up with the store failed", e);
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
    private void apply(List<CatalogStore.Change> changes) {
        int start = 0;
        while (start < changes.size()) {
            CatalogRef ref = changes.get(start).catalog();
            int end = start;
            while (end < changes.size() && changes.get(end).catalog().equals(ref)) {
                end++;
            }
            LiveCatalog live = open.get(ref);
            if (live != null) {
                apply(live, changes.subList(start, end));
            }
            start = end;
        }
    }

    private void apply(LiveCatalog live, List<CatalogStore.Change> changes) {
        if (changes.stream().anyMatch(change -> change.kind() == CatalogStore.Kind.REPLACE)) {
            // Everything before the last replace is replaced: build anew from the store, which holds what follows.
            live.replaceWith(build(live.ref()));
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

    /**
     * What a catalog is first imported from: its declaration's file or inline options.
     *
     * @param source names it in messages ({@code data/cities.csv})
     * @param records read only when the store does not hold the catalog yet
     * @param digest the file's digest (a later edit is reported), or null for inline options
     */
    public record Seed(String source, Supplier<List<OptionRecord>> records, String digest) {
    }

    @Override
    public void close() {
        background.shutdownNow();
        store.close();
    }

    /** Changes applied as one batch; visible to a background fold that must re-apply them. */
    record Batch(Collection<CatalogEntry> upserts, Collection<String> removed) {
    }
}
