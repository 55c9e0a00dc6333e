package dev.autocomplete.server.catalogs;

import dev.autocomplete.index.CatalogEntry;
import dev.autocomplete.index.LiveOptions;
import dev.autocomplete.server.store.CatalogRef;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One live catalog's index: an immutable {@link LiveOptions} snapshot swapped on every applied batch, and a
 * generation that grows with each, which keys the response cache. Writers are serialized by {@link LiveCatalogs};
 * readers take {@link #options()} without a lock.
 */
public final class LiveCatalog {

    private static final System.Logger LOG = System.getLogger(LiveCatalog.class.getName());

    private final CatalogRef ref;
    private volatile LiveOptions options;
    private final AtomicLong generation = new AtomicLong();
    /** The store's last change when the first index was built from it: changes up to it are in that index. */
    private final long builtThrough;
    /** Batches applied since a fold started, to re-apply on the folded index; null when no fold runs. */
    private List<Batch> sinceFold;
    /** Folds finished, and the wall time they took: counters an operator scrapes. */
    private final AtomicLong folds = new AtomicLong();

    private final AtomicLong foldNanos = new AtomicLong();

    /** Changes applied as one batch, kept while a fold runs to be applied again to the folded index. */
    private record Batch(Collection<CatalogEntry> upserts, Collection<String> removed) {}

    LiveCatalog(CatalogRef ref, LiveOptions options, long builtThrough) {
        this.ref = ref;
        this.options = options;
        this.builtThrough = builtThrough;
    }

    public CatalogRef ref() {
        return ref;
    }

    /** The current snapshot. */
    public LiveOptions options() {
        return options;
    }

    long builtThrough() {
        return builtThrough;
    }

    /** Grows with every change the index takes. */
    public long generation() {
        return generation.get();
    }

    /** Folds of pending changes into one index this catalog finished since the server started. */
    public long folds() {
        return folds.get();
    }

    /** The wall time those folds took, in nanoseconds. */
    public long foldNanos() {
        return foldNanos.get();
    }

    synchronized void apply(Collection<CatalogEntry> upserts, Collection<String> removed) {
        options = options.with(upserts, removed);
        if (sinceFold != null) {
            sinceFold.add(new Batch(List.copyOf(upserts), List.copyOf(removed)));
        }
        generation.incrementAndGet();
    }

    synchronized void replaceWith(LiveOptions rebuilt) {
        options = rebuilt;
        sinceFold = null; // a fold under way started from what is now gone
        generation.incrementAndGet();
    }

    /**
     * Rebuilds the main index from the main and the pending changes, off the request path, then re-applies the
     * batches that arrived meanwhile: queries see the pending-change snapshot until the folded one is ready.
     */
    void fold() {
        LiveOptions start;
        synchronized (this) {
            if (sinceFold != null || !options.wantsFold()) {
                return;
            }
            start = options;
            sinceFold = new ArrayList<>();
        }
        LiveOptions folded;
        long started = System.nanoTime();
        try {
            folded = start.folded();
        } catch (RuntimeException | OutOfMemoryError e) {
            synchronized (this) {
                sinceFold = null; // the next batch tries again
            }
            throw e;
        }
        synchronized (this) {
            if (sinceFold == null) {
                return; // replaced meanwhile
            }
            for (Batch batch : sinceFold) {
                folded = folded.with(batch.upserts(), batch.removed());
            }
            int meanwhile = sinceFold.size();
            sinceFold = null;
            options = folded;
            generation.incrementAndGet();
            long nanos = System.nanoTime() - started;
            folds.incrementAndGet();
            foldNanos.addAndGet(nanos);
            // Seconds of CPU at a million options: an operator sees when and how often a catalog pays for one.
            LOG.log(
                    System.Logger.Level.INFO,
                    "catalog {0}: pending changes folded into one index of {1} options in {2} ms"
                            + " ({3} writes arrived meanwhile, applied again)",
                    ref,
                    start.size(),
                    nanos / 1_000_000,
                    meanwhile);
        }
    }
}
