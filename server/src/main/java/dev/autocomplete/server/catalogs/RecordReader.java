package dev.autocomplete.server.catalogs;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.autocomplete.server.protocol.ApiException;
import dev.autocomplete.server.store.InvalidRecordsException;
import dev.autocomplete.server.store.OptionRecord;
import dev.autocomplete.server.store.OptionRecords;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;

/**
 * Reads option records as a stream, from a JSON array or from NDJSON (one record a line), for the records API
 * and {@code catalog import}: each valid record is handed out as it is read, each invalid one is skipped and
 * noted with its position (an index in an array, a line of NDJSON, from 1). Writes read a local copy through
 * {@link CheckedRecords}, which checks every record before the store is asked to apply any. Not thread-safe.
 *
 * <p>A record is {@code {"id", "text", "aliases", "weight", "translations"}}: {@code id} and {@code text}
 * required, the values' rules those of {@link OptionRecords}; an unknown field is refused, since a misspelt
 * {@code aliases} would otherwise be dropped without a word.
 */
public final class RecordReader implements Iterator<OptionRecord>, AutoCloseable {

    /** Problems listed at most in an answer; the count says how many there were. */
    public static final int MAX_LISTED_PROBLEMS = 100;
    /** Problems kept at most, so that a million bad lines do not fill the memory; {@link #invalid} counts all. */
    static final int MAX_KEPT_PROBLEMS = 1000;

    private static final char BYTE_ORDER_MARK = '\uFEFF';

    private static final Set<String> FIELDS = Set.of("id", "text", "aliases", "weight", "translations", "attributes");

    /** How records are laid out. */
    public enum Format {
        /** A JSON array of records. */
        ARRAY,
        /** One record a line; blank lines are skipped. */
        NDJSON
    }

    private final Format format;
    private final ObjectMapper json;
    /** Reads one record inside the array: the trailing-token check belongs to the whole body. */
    private final ObjectReader element;

    private final JsonParser parser;
    private final BufferedReader lines;
    private final List<InvalidRecordsException.Problem> problems = new ArrayList<>();
    private long invalid;
    private long position;
    private long count;
    /** The position (index or line) of each record handed out, for problems the store finds among them. */
    private long[] handedPositions = new long[64];

    private int handed;
    private OptionRecord next;
    private boolean done;

    private RecordReader(Format format, ObjectMapper json, InputStream in) {
        this.format = format;
        this.json = json;
        this.element = json.reader().without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        try {
            if (format == Format.ARRAY) {
                // Through a strict decoder: Jackson alone reads overlong forms and encoded surrogates as text.
                this.parser = json.createParser(withoutByteOrderMark(new BufferedReader(utf8(in))));
                this.lines = null;
                if (parser.nextToken() != JsonToken.START_ARRAY) {
                    throw MalformedBody.noArray();
                }
            } else {
                this.parser = null;
                this.lines = withoutByteOrderMark(new BufferedReader(utf8(in)));
            }
        } catch (CharacterCodingException e) {
            throw new MalformedBody("The body is not valid UTF-8.");
        } catch (JacksonException e) {
            throw new MalformedBody("The body is not valid JSON.");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@code reader} past a leading byte order mark (U+FEFF), if any: Excel's "CSV UTF-8", Notepad's "UTF-8 with BOM"
     * and PowerShell write one, which JSON forbids a sender to add but lets a reader ignore (RFC 8259 §8.1), and
     * which would otherwise glue itself to a CSV file's first column name ({@code text} not found).
     */
    public static BufferedReader withoutByteOrderMark(BufferedReader reader) throws IOException {
        reader.mark(1);
        if (reader.read() != BYTE_ORDER_MARK) {
            reader.reset();
        }
        return reader;
    }

    /** {@code text} without a leading byte order mark, as {@link #withoutByteOrderMark(BufferedReader)} reads. */
    public static String withoutByteOrderMark(String text) {
        return !text.isEmpty() && text.charAt(0) == BYTE_ORDER_MARK ? text.substring(1) : text;
    }

    private static InputStreamReader utf8(InputStream in) {
        return new InputStreamReader(
                in,
                StandardCharsets.UTF_8
                        .newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT));
    }

    /** Records from {@code in}, read as it arrives. */
    public static RecordReader of(Format format, ObjectMapper json, InputStream in) {
        return new RecordReader(format, json, in);
    }

    /** The body cannot be read as records at all (not an array, broken JSON in an array): nothing is applied. */
    public static final class MalformedBody extends RuntimeException {

        private static final long serialVersionUID = 1L;

        private final boolean notAnArray;

        MalformedBody(String message) {
            this(message, false);
        }

        private MalformedBody(String message, boolean notAnArray) {
            super(message, null, false, false);
            this.notAnArray = notAnArray;
        }

        /** A body read as a JSON array that is no array, told as the records API tells it. */
        static MalformedBody noArray() {
            return new MalformedBody(
                    "The body must be a JSON array of records (or NDJSON, one record a line, with Content-Type:"
                            + " application/x-ndjson).",
                    true);
        }

        /** Whether the body was read as a JSON array and is none (a file of NDJSON, read as a JSON array). */
        public boolean notAnArray() {
            return notAnArray;
        }
    }

    @Override
    public boolean hasNext() {
        while (next == null && !done) {
            JsonNode node = nextNode();
            if (node != null) {
                next = record(node);
            }
        }
        return next != null;
    }

    @Override
    public OptionRecord next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        OptionRecord record = next;
        next = null;
        if (handed == handedPositions.length) {
            handedPositions = java.util.Arrays.copyOf(handedPositions, handed * 2);
        }
        handedPositions[handed++] = position;
        return record;
    }

    /** The records refused so far, each with its index or line (the first {@value #MAX_KEPT_PROBLEMS}). */
    public List<InvalidRecordsException.Problem> problems() {
        return List.copyOf(problems);
    }

    /** How many records were refused so far. */
    public long invalid() {
        return invalid;
    }

    private void refuse(String reason) {
        invalid++;
        if (problems.size() < MAX_KEPT_PROBLEMS) {
            problems.add(new InvalidRecordsException.Problem(position, reason));
        }
    }

    public Format format() {
        return format;
    }

    /**
     * Where the {@code index}-th record handed out stood in the input: its index in the array, or its line of
     * NDJSON (from 1). The store's problems count the records it was given.
     */
    public long positionOf(long index) {
        return index >= 0 && index < handed ? handedPositions[(int) index] : index;
    }

    /** Reads every remaining record, for callers that need the whole batch. */
    public List<OptionRecord> readAll() {
        List<OptionRecord> records = new ArrayList<>();
        forEachRemaining(records::add);
        return records;
    }

    /** The next record's tree, or null when the input is done or the line could not be read as one. */
    private JsonNode nextNode() {
        try {
            if (format == Format.ARRAY) {
                JsonToken token = parser.nextToken();
                if (token == JsonToken.END_ARRAY) {
                    if (parser.nextToken() != null) {
                        throw new MalformedBody("The body holds more after its array.");
                    }
                    done = true;
                    return null;
                }
                if (token == null) {
                    throw new MalformedBody("The body's array is not closed.");
                }
                position = count++;
                return element.readTree(parser);
            }
            String line;
            do {
                line = lines.readLine();
                position++;
                if (line == null) {
                    done = true;
                    return null;
                }
            } while (line.isBlank());
            count++;
            try {
                JsonNode node = json.readTree(line);
                return node;
            } catch (StreamConstraintsException e) {
                refuse(overLimit(e));
                return null;
            } catch (JacksonException e) {
                refuse("not valid JSON");
                return null;
            }
        } catch (CharacterCodingException e) {
            throw new MalformedBody("The body is not valid UTF-8.");
        } catch (StreamConstraintsException e) {
            throw new MalformedBody("The body is " + overLimit(e) + " (record " + count + ").");
        } catch (JacksonException e) {
            throw new MalformedBody("The body is not valid JSON (record " + count + ").");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The record a tree holds, or null with its problem noted. */
    private OptionRecord record(JsonNode node) {
        String problem = problem(node);
        if (problem != null) {
            refuse(problem);
            return null;
        }
        List<String> aliases = new ArrayList<>();
        node.path("aliases").forEach(alias -> aliases.add(alias.asText()));
        Map<String, String> translations = new LinkedHashMap<>();
        node.path("translations")
                .properties()
                .forEach(entry -> translations.put(
                        entry.getKey().toLowerCase(Locale.ROOT),
                        entry.getValue().asText()));
        OptionRecord record = new OptionRecord(
                node.get("id").asText(),
                node.get("text").asText(),
                aliases,
                node.path("weight").asDouble(0),
                translations,
                attributes(node));
        Optional<String> invalid = OptionRecords.problem(record);
        if (invalid.isPresent()) {
            refuse(invalid.get());
            return null;
        }
        return record;
    }

    /** Why a tree is no valid record, or null: its JSON shape here, the values' rules in {@link OptionRecords}. */
    static String problem(JsonNode node) {
        if (!node.isObject()) {
            return "a record is a JSON object";
        }
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name)) {
                return "unknown field '" + shortened(name) + "' (a record has id, text, aliases, weight, translations,"
                        + " attributes)";
            }
        }
        if (!node.path("id").isTextual()) {
            return stringRequired("id", node.get("id"));
        }
        if (!node.path("text").isTextual()) {
            return stringRequired("text", node.get("text"));
        }
        JsonNode aliases = node.get("aliases");
        if (aliases != null && !aliases.isNull()) {
            if (!aliases.isArray()) {
                return "'aliases' must be an array of strings";
            }
            for (JsonNode alias : aliases) {
                if (!alias.isTextual()) {
                    return "'aliases' must hold strings only";
                }
            }
        }
        JsonNode weight = node.get("weight");
        if (weight != null && !weight.isNull() && !weight.isNumber()) {
            return "'weight' must be a number";
        }
        JsonNode attributes = node.get("attributes");
        if (attributes != null && !attributes.isNull()) {
            if (!attributes.isObject()) {
                return "'attributes' must be an object of name to a string or an array of strings, e.g."
                        + " {\"team\": \"Sales\"}";
            }
            for (Map.Entry<String, JsonNode> entry : attributes.properties()) {
                JsonNode value = entry.getValue();
                boolean strings = value.isTextual() || value.isArray() && !value.isEmpty();
                for (JsonNode item : value.isArray() ? value : List.<JsonNode>of()) {
                    strings &= item.isTextual();
                }
                if (!strings) {
                    return "'attributes." + shortened(entry.getKey()) + "' must be a string or a non-empty array of"
                            + " strings";
                }
            }
        }
        JsonNode translations = node.get("translations");
        if (translations != null && !translations.isNull()) {
            if (!translations.isObject()) {
                return "'translations' must be an object of language tag to text, e.g. {\"fr\": \"...\"}";
            }
            for (Map.Entry<String, JsonNode> entry : translations.properties()) {
                if (!entry.getValue().isTextual()) {
                    return "'translations." + shortened(entry.getKey()) + "' must be a string";
                }
            }
        }
        return null;
    }

    /** A record tree's attributes, as name to values (a string is one value); empty when absent or null. */
    static Map<String, List<String>> attributes(JsonNode node) {
        JsonNode attributes = node.get("attributes");
        if (attributes == null || !attributes.isObject()) {
            return Map.of();
        }
        Map<String, List<String>> read = new LinkedHashMap<>();
        attributes.properties().forEach(entry -> {
            List<String> values = new ArrayList<>();
            if (entry.getValue().isArray()) {
                entry.getValue().forEach(item -> values.add(item.asText()));
            } else {
                values.add(entry.getValue().asText());
            }
            read.put(entry.getKey(), values);
        });
        return read;
    }

    /** Why an id is refused, or null: for ids the API takes in a path or a cursor. */
    public static String idProblem(String id) {
        return OptionRecords.idProblem(id).orElse(null);
    }

    /** Why a required string field is refused: missing, or of another JSON type (a number id: {@code "42"}). */
    static String stringRequired(String field, JsonNode value) {
        return value == null || value.isNull() || value.isMissingNode()
                ? "'" + field + "' is required"
                : "'" + field + "' must be a string (it is "
                        + (value.isNumber()
                                ? "a number"
                                : value.getNodeType().name().toLowerCase(java.util.Locale.ROOT))
                        + ")";
    }

    /** Which JSON limit a body broke, naming its setting (docs/configuration.md). */
    static String overLimit(StreamConstraintsException e) {
        return ApiException.overLimit(e);
    }

    private static String shortened(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "…";
    }

    @Override
    public void close() {
        try {
            if (parser != null) {
                parser.close();
            }
            if (lines != null) {
                lines.close();
            }
        } catch (IOException e) {
            // The input is gone either way.
        }
    }
}
