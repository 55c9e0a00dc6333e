package dev.autocomplete.server.store;

import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Where live catalogs are kept: the source of truth once a catalog is in it. Every write is atomic and durable
 * before it returns (an acknowledged write survives {@code kill -9}); a write that cannot reach the store throws
 * {@link StorageUnavailableException}; records the store refuses throw {@link InvalidRecordsException}, nothing
 * of them applied. Thread-safe.
 *
 * <p>Texts are unique in a catalog once folded ({@code TextFolding.fold}): a picked option reaches the server
 * only as its text. Ids are unique and at most 200 characters.
 */
public interface CatalogStore extends AutoCloseable {

    /** What a write changed, for the in-memory index. */
    enum Kind {
        UPSERT,
        DELETE,
        REPLACE
    }

    /**
     * One applied change, as the change feed reports it (also the changes other replicas made).
     *
     * @param sequence increasing across the store
     * @param record the record now stored, for an upsert; null otherwise
     * @param previousText the text the id had before (to be dropped from the index), or null when it had none
     */
    record Change(long sequence, CatalogRef catalog, Kind kind, String id, OptionRecord record, String previousText) {}

    /** Whether the store holds this catalog (imported or written, even if now empty). */
    boolean holds(CatalogRef catalog);

    /** Every record of the catalog, ordered by id. */
    void forEach(CatalogRef catalog, Consumer<OptionRecord> each);

    /**
     * Upserts by id, all or nothing: a small batch in one transaction; a large one as {@link #replace} writes, a new
     * version of the catalog (its other records and the batch) written in short transactions and switched to in
     * one, with the catalog's writes made meanwhile applied again, so that other writes never wait for it long.
     *
     * @return the changes applied, in order, with the previous text of each replaced record; for a large batch,
     *     one {@link Kind#REPLACE}
     * @throws CatalogChangedException when a large batch met a replace of its catalog on each of its tries: nothing
     *     of it was written
     */
    List<Change> upsert(CatalogRef catalog, List<OptionRecord> records);

    /**
     * The records of a batch whose folded text another stored id holds and would keep after the batch, by index in
     * {@code records}: read without a write transaction, to report them with a batch's other problems. The
     * transaction of {@link #upsert} checks again.
     */
    List<InvalidRecordsException.Problem> textConflicts(CatalogRef catalog, List<OptionRecord> records);

    /** Removes one record; empty when the catalog had no such id. */
    Optional<Change> delete(CatalogRef catalog, String id);

    /**
     * Replaces every record of the catalog atomically, reading {@code records} as a stream (a million records need
     * not be in memory at once): they are written as a new version of the catalog in short transactions, so that
     * other writes wait for one of them at most, and the catalog is switched to it in one. Readers see the old
     * records until the switch; a crash leaves the old catalog or the new one, never a mix.
     *
     * @return how many records the catalog now holds
     */
    long replace(CatalogRef catalog, Iterator<OptionRecord> records);

    /** Up to {@code limit} records with ids after {@code afterId} (null: from the first), ordered by id. */
    List<OptionRecord> page(CatalogRef catalog, String afterId, int limit);

    /**
     * Up to {@code limit} records with ids after {@code afterId} (null: from the first), ordered by id, whose folded
     * text, or a word of it, starts with {@code foldedPrefix} ({@code TextFolding.fold} of what is looked for; null
     * or empty: every record).
     */
    List<OptionRecord> page(CatalogRef catalog, String afterId, int limit, String foldedPrefix);

    /** The record of this id, if the catalog has one. */
    Optional<OptionRecord> get(CatalogRef catalog, String id);

    /** How many records the catalog holds. */
    long count(CatalogRef catalog);

    /**
     * Changes stored records, as one transaction: each patch is applied to the record stored now (read, merged and
     * upserted in the transaction), and the results are checked as an upsert's records are. A patch of an id the
     * catalog does not hold is a refused record, numbered by its place in {@code patches}.
     * A large batch is read, merged and checked without a transaction, then written as a large upsert is; a write
     * meanwhile to one of its ids has the patch merged again into it.
     *
     * @return the changes applied, as {@link #upsert} returns them
     * @throws CatalogChangedException as {@link #upsert} does
     */
    List<Change> patch(CatalogRef catalog, List<OptionPatch> patches);

    /**
     * Removes the records of these ids, as one transaction; ids the catalog does not hold are passed over.
     *
     * @return a change for each record removed
     */
    List<Change> delete(CatalogRef catalog, Collection<String> ids);

    /** The digest of the seed file last imported into the catalog, if any (a later edit of the file is reported). */
    Optional<String> seedDigest(CatalogRef catalog);

    /**
     * Imports a seed file's records when the store does not hold the catalog yet, as {@link #replace} does; does
     * nothing and returns false when it does (another replica may have seeded it first).
     */
    boolean seed(CatalogRef catalog, Iterator<OptionRecord> records, String fileDigest);

    /**
     * Replaces the catalog as {@link #replace} does, with the records of its declared seed file, and remembers
     * the file's digest: {@code catalog import} of the file brings an edit in, so it is no longer reported.
     */
    long importSeed(CatalogRef catalog, Iterator<OptionRecord> records, String fileDigest);

    /** The newest sequence applied, for {@link #changesSince}. */
    long lastSequence();

    /** The changes after {@code sequence}, in order, at most {@code limit}: the catch-up of a replica. */
    List<Change> changesSince(long sequence, int limit);

    /**
     * Calls {@code listener} soon after another process changes the store (PostgreSQL's {@code LISTEN}); a store
     * that only this process writes never calls it. The listener then reads {@link #changesSince}.
     */
    default void onExternalChange(Runnable listener) {}

    /**
     * Drops what writers that died left in the store (a large write's rows never switched to, or not wholly dropped
     * after it); the server calls it now and then. Nothing to do in a store that leaves nothing behind.
     */
    default void dropAbandoned() {}

    @Override
    void close();
}
