package dev.autocomplete.server.catalogs;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.autocomplete.server.store.InvalidRecordsException;
import dev.autocomplete.server.store.OptionPatch;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the body of a partial update ({@code PATCH}, docs/protocol.md §8): records of an {@code id} and the fields
 * to change, as a JSON array or NDJSON like {@link RecordReader}. Each field is checked as in a whole record, and
 * a null {@code aliases}, {@code weight} or {@code translations} resets it (none, 0, none); the merged records are
 * checked again by the store. The whole body is read before anything is written: a patch is in memory anyway.
 */
public final class PatchReader {

    private final RecordReader.Format format;
    /** The tenant's default language, which no translation may name; null when unknown. */
    private final String defaultLanguage;

    private final List<OptionPatch> patches = new ArrayList<>();
    /** The index or line of each patch read. */
    private final List<Long> positions = new ArrayList<>();

    private final List<InvalidRecordsException.Problem> problems = new ArrayList<>();

    private PatchReader(RecordReader.Format format, String defaultLanguage) {
        this.format = format;
        this.defaultLanguage = defaultLanguage;
    }

    /**
     * Reads the whole body.
     *
     * @throws RecordReader.MalformedBody when it is not records at all (not an array, broken JSON in an array, not
     *     UTF-8)
     */
    public static PatchReader read(
            RecordReader.Format format, ObjectMapper json, InputStream in, String defaultLanguage) {
        PatchReader reader = new PatchReader(format, defaultLanguage);
        try {
            BufferedReader text = RecordReader.withoutByteOrderMark(new BufferedReader(new InputStreamReader(
                    in,
                    StandardCharsets.UTF_8
                            .newDecoder()
                            .onMalformedInput(CodingErrorAction.REPORT)
                            .onUnmappableCharacter(CodingErrorAction.REPORT))));
            if (format == RecordReader.Format.ARRAY) {
                JsonNode array = json.reader()
                        .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                        .readTree(text);
                if (array == null || !array.isArray()) {
                    throw RecordReader.MalformedBody.noArray();
                }
                for (int i = 0; i < array.size(); i++) {
                    reader.add(i, array.get(i));
                }
            } else {
                long line = 0;
                for (String read = text.readLine(); read != null; read = text.readLine()) {
                    line++;
                    if (!read.isBlank()) {
                        reader.add(line, lineTree(json, read));
                    }
                }
            }
        } catch (CharacterCodingException e) {
            throw new RecordReader.MalformedBody("The body is not valid UTF-8.");
        } catch (JacksonException e) {
            throw new RecordReader.MalformedBody("The body is not valid JSON.");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return reader;
    }

    /** One NDJSON line's tree, or null when it is no JSON. */
    private static JsonNode lineTree(ObjectMapper json, String line) {
        try {
            return json.readTree(line);
        } catch (JacksonException e) {
            return null;
        }
    }

    private void add(long position, JsonNode node) {
        String problem = node == null ? "not valid JSON" : problem(node);
        if (problem != null) {
            problems.add(new InvalidRecordsException.Problem(position, problem));
            return;
        }
        OptionPatch patch = patch(node);
        Optional<String> language = OptionRecords.defaultLanguageProblem(patch.translations(), defaultLanguage);
        if (language.isPresent()) {
            problems.add(new InvalidRecordsException.Problem(position, language.get()));
            return;
        }
        positions.add(position);
        patches.add(patch);
    }

    /** Why a tree is no patch, or null: a record's rules, but for a text that may be left out. */
    private static String problem(JsonNode node) {
        if (node.isObject() && node.has("text") && !node.get("text").isTextual()) {
            return "'text' must be a string (it cannot be removed)";
        }
        if (node.isObject() && !node.has("text")) {
            ObjectNode withText = ((ObjectNode) node).deepCopy();
            withText.put("text", "unchanged");
            node = withText;
        }
        String shape = RecordReader.problem(node);
        if (shape != null) {
            return shape;
        }
        return OptionRecords.idProblem(node.get("id").asText()).orElse(null);
    }

    private static OptionPatch patch(JsonNode node) {
        List<String> aliases = null;
        if (node.has("aliases")) {
            List<String> given = new ArrayList<>();
            node.get("aliases").forEach(alias -> given.add(alias.asText()));
            aliases = given;
        }
        Map<String, String> translations = null;
        if (node.has("translations")) {
            Map<String, String> given = new LinkedHashMap<>();
            node.get("translations")
                    .properties()
                    .forEach(entry -> given.put(
                            entry.getKey().toLowerCase(Locale.ROOT),
                            entry.getValue().asText()));
            translations = given;
        }
        return new OptionPatch(
                node.get("id").asText(),
                node.has("text") ? node.get("text").asText() : null,
                aliases,
                node.has("weight") ? Double.valueOf(node.get("weight").asDouble(0)) : null,
                translations,
                node.has("attributes") ? RecordReader.attributes(node) : null);
    }

    public RecordReader.Format format() {
        return format;
    }

    /** The patches read, in order, without the refused ones. */
    public List<OptionPatch> patches() {
        return List.copyOf(patches);
    }

    /** The refused records, each with its index or line. */
    public List<InvalidRecordsException.Problem> problems() {
        return List.copyOf(problems);
    }

    /** Where the {@code index}-th patch stood in the body: its index in the array, or its line of NDJSON. */
    public long positionOf(long index) {
        return positions.get((int) index);
    }
}
