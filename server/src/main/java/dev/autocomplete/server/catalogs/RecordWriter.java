package dev.autocomplete.server.catalogs;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.autocomplete.server.store.OptionRecord;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes option records as the records API and {@code catalog export} give them: every field present, translations
 * ordered by language; as NDJSON (one record a line) or as a JSON array.
 */
public final class RecordWriter {

    private final JsonGenerator out;
    private final boolean array;

    /** A writer of a whole stream of records. */
    public RecordWriter(ObjectMapper json, OutputStream stream, boolean array) throws IOException {
        this(json.getFactory().createGenerator(stream), array);
    }

    /** The same, onto characters: a command's standard output. */
    public RecordWriter(ObjectMapper json, Writer writer, boolean array) throws IOException {
        this(json.getFactory().createGenerator(writer), array);
    }

    private RecordWriter(JsonGenerator out, boolean array) throws IOException {
        this.out = out;
        this.array = array;
        out.setRootValueSeparator(null);
        if (array) {
            out.writeStartArray();
        }
    }

    public void write(OptionRecord record) throws IOException {
        write(out, record);
        if (!array) {
            out.writeRaw('\n');
            out.flush();
        }
    }

    /** Ends the array, if any, and flushes. */
    public void finish() throws IOException {
        if (array) {
            out.writeEndArray();
            out.writeRaw('\n');
        }
        out.flush();
    }

    /** One record as a JSON object, into a generator the caller holds. */
    public static void write(JsonGenerator out, OptionRecord record) throws IOException {
        out.writeStartObject();
        out.writeStringField("id", record.id());
        out.writeStringField("text", record.text());
        out.writeArrayFieldStart("aliases");
        for (String alias : record.aliases()) {
            out.writeString(alias);
        }
        out.writeEndArray();
        double weight = record.weight();
        if (weight == Math.rint(weight) && Math.abs(weight) < 1e15) {
            // A whole weight as it was sent (12, not 12.0), as the CSV export writes it: an export diffs clean.
            out.writeNumberField("weight", (long) weight);
        } else {
            out.writeNumberField("weight", weight);
        }
        out.writeObjectFieldStart("translations");
        for (Map.Entry<String, String> translation : new TreeMap<>(record.translations()).entrySet()) {
            out.writeStringField(translation.getKey(), translation.getValue());
        }
        out.writeEndObject();
        out.writeObjectFieldStart("attributes");
        for (Map.Entry<String, java.util.List<String>> attribute :
                record.attributes().entrySet()) {
            out.writeArrayFieldStart(attribute.getKey());
            for (String value : attribute.getValue()) {
                out.writeString(value);
            }
            out.writeEndArray();
        }
        out.writeEndObject();
        out.writeEndObject();
    }
}
