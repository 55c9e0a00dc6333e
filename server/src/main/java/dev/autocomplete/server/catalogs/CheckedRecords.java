package dev.autocomplete.server.catalogs;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.autocomplete.index.Folding;
import dev.autocomplete.server.store.InvalidRecordsException;
import dev.autocomplete.server.store.OptionRecord;
import dev.autocomplete.server.store.OptionRecords;
import dev.autocomplete.server.store.PlatformThreads;
import dev.autocomplete.spi.toolkit.TextFolding;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The records of one write, read whole and checked before any write transaction starts, for the records API and
 * {@code catalog import}. A client's body may take minutes to arrive, and the store's writes are serialized (one
 * SQLite writer, one PostgreSQL advisory lock): a transaction that read the body as it came in held every tenant's
 * writes for as long. So the body is first copied to a local file, then checked there without any transaction
 * (every bad record, each record's shape and the ids and folded texts repeated within the write), and only a
 * valid write reaches the store, which reads the local file: in short transactions for a large one (see
 * {@code JdbcCatalogStore}).
 *
 * <p>Repeats are found without holding the strings of a million records: a first read keeps a 64-bit hash of each
 * id and folded text (16 bytes a record); a second read, only when some hash repeats, confirms the repeats among
 * the records carrying those hashes. Not thread-safe.
 */
public final class CheckedRecords implements AutoCloseable {

    private final RecordReader.Format format;
    private final ObjectMapper json;
    private final Path file;
    private final boolean spooled;
    /** The tenant's default language, which no translation may name; null when unknown. */
    private final String defaultLanguage;

    private final List<InvalidRecordsException.Problem> problems;
    private final long invalid;
    private final List<RecordReader> readers = new ArrayList<>();

    private CheckedRecords(
            RecordReader.Format format, ObjectMapper json, Path file, boolean spooled, String defaultLanguage) {
        this.format = format;
        this.json = json;
        this.file = file;
        this.spooled = spooled;
        this.defaultLanguage = defaultLanguage;
        List<InvalidRecordsException.Problem> found = new ArrayList<>();
        this.invalid = check(found);
        found.sort(Comparator.comparingLong(InvalidRecordsException.Problem::index));
        this.problems = List.copyOf(found.subList(0, Math.min(found.size(), RecordReader.MAX_KEPT_PROBLEMS)));
    }

    /**
     * Copies {@code body} to a file of {@code spool} (readable by this user only, deleted by {@link #close}) and
     * checks its records.
     *
     * @throws IOException when the file cannot be written (the disk is full)
     * @throws RecordReader.MalformedBody when the body cannot be read as records at all
     */
    public static CheckedRecords spool(
            WriteSpool spool, RecordReader.Format format, ObjectMapper json, InputStream body, String defaultLanguage)
            throws IOException {
        Path file = spool.newFile();
        try {
            try (OutputStream out = Files.newOutputStream(file)) {
                body.transferTo(out);
            }
            // Seconds of parsing for a large body: off the virtual thread's carrier.
            return PlatformThreads.call(() -> new CheckedRecords(format, json, file, true, defaultLanguage));
        } catch (IOException | RuntimeException | Error e) {
            Files.deleteIfExists(file);
            throw e;
        }
    }

    /**
     * Checks the records of a local file, which is left in place.
     *
     * @throws IOException when the file cannot be read
     */
    public static CheckedRecords of(RecordReader.Format format, ObjectMapper json, Path file, String defaultLanguage)
            throws IOException {
        try {
            return new CheckedRecords(format, json, file, false, defaultLanguage);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** Every refused record (the first {@value RecordReader#MAX_KEPT_PROBLEMS}), by index or line, in order. */
    public List<InvalidRecordsException.Problem> problems() {
        return problems;
    }

    /** How many records are refused. */
    public long invalid() {
        return invalid;
    }

    public RecordReader.Format format() {
        return format;
    }

    /**
     * The records, read again from the file: for the store to apply once {@link #problems} is empty. Its
     * {@link RecordReader#positionOf} places a record the store refuses back in the body.
     */
    public RecordReader records() {
        RecordReader reader = open();
        readers.add(reader);
        return reader;
    }

    /** Reads the file's records; returns how many are refused, and adds them (the first ones) to {@code found}. */
    private long check(List<InvalidRecordsException.Problem> found) {
        RepeatedHashes ids = new RepeatedHashes(1024);
        RepeatedHashes texts = new RepeatedHashes(1024);
        long refused = 0;
        try (RecordReader reader = open()) {
            for (long index = 0; reader.hasNext(); index++) {
                OptionRecord record = reader.next();
                ids.add(hash(record.id()));
                texts.add(Folding.foldedHash(record.text()));
                Optional<String> language =
                        OptionRecords.defaultLanguageProblem(record.translations(), defaultLanguage);
                if (language.isPresent()) {
                    refused++;
                    if (found.size() < 2 * RecordReader.MAX_KEPT_PROBLEMS) {
                        found.add(new InvalidRecordsException.Problem(reader.positionOf(index), language.get()));
                    }
                }
            }
            found.addAll(reader.problems());
            refused += reader.invalid();
        }
        Set<Long> repeatedIds = ids.repeated();
        Set<Long> repeatedTexts = texts.repeated();
        if (repeatedIds.isEmpty() && repeatedTexts.isEmpty()) {
            return refused;
        }
        // Where each id and folded text was first seen, to name that record in the refusal of a later one.
        Map<String, Long> seenIds = new HashMap<>();
        Map<String, Long> seenTexts = new HashMap<>();
        String at = format == RecordReader.Format.NDJSON ? "line " : "index ";
        try (RecordReader reader = open()) {
            for (long index = 0; reader.hasNext(); index++) {
                OptionRecord record = reader.next();
                String reason = null;
                Long sameId = repeatedIds.contains(hash(record.id()))
                        ? seenIds.putIfAbsent(record.id(), reader.positionOf(index))
                        : null;
                if (sameId != null) {
                    reason = OptionRecords.repeatedId(record.id(), at + sameId);
                } else {
                    String folded = TextFolding.fold(record.text());
                    Long sameText = repeatedTexts.contains(Folding.hash(folded))
                            ? seenTexts.putIfAbsent(folded, reader.positionOf(index))
                            : null;
                    if (sameText != null) {
                        reason = OptionRecords.repeatedText(record.text(), at + sameText);
                    }
                }
                if (reason != null
                        && OptionRecords.defaultLanguageProblem(record.translations(), defaultLanguage)
                                .isEmpty()) { // else counted already
                    refused++;
                    if (found.size() < 2 * RecordReader.MAX_KEPT_PROBLEMS) {
                        found.add(new InvalidRecordsException.Problem(reader.positionOf(index), reason));
                    }
                }
            }
        }
        return refused;
    }

    private RecordReader open() {
        InputStream in;
        try {
            in = Files.newInputStream(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            return RecordReader.of(format, json, in);
        } catch (RuntimeException e) {
            try {
                in.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** FNV-1a over the UTF-16 units, then mixed (SplitMix64's finalizer): a repeat is confirmed on the strings. */
    private static long hash(String value) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < value.length(); i++) {
            h = (h ^ value.charAt(i)) * 0x100000001b3L;
        }
        h = (h ^ (h >>> 30)) * 0xbf58476d1ce4e5b9L;
        h = (h ^ (h >>> 27)) * 0x94d049bb133111ebL;
        return h ^ (h >>> 31);
    }

    /** Closes the readers and deletes the file when it was a spooled copy. */
    @Override
    public void close() {
        readers.forEach(RecordReader::close);
        if (spooled) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
