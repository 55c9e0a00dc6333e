package dev.autocomplete.server.protocol;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.autocomplete.spi.AdditionalContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.IllformedLocaleException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

/**
 * Reads and validates a suggest body as docs/protocol.md §3 says: a tolerant reader that
 * ignores unknown fields and refuses known fields of the wrong type.
 *
 * <p>One streaming pass over the body collects the known fields (of duplicate keys the last wins, as in a
 * tree); only {@code additional_context} is read as a tree. The whole body is read before any check, so
 * invalid JSON anywhere is {@code INVALID_JSON}, and the checks then run in a fixed order: the same error
 * wins whatever the order of the fields.
 */
public final class SuggestRequestReader {

    /** docs/protocol.md §3.9: at most this many bytes of compact JSON. */
    public static final int MAX_CONTEXT_BYTES = 2000;
    /** More entries than this is no real query: refused before any is read. */
    public static final int MAX_COMPLETED_PARAMS = 100;
    /**
     * docs/protocol.md §3.7: a longer {@code raw_query} is refused. Reading costs CPU in proportion to the words typed
     * (every span is a question to an engine), so a 50 KB query sent on purpose cost about a second of CPU, and a
     * few of them a second stalled every other request; a thousand characters is ten times a long command.
     */
    public static final int MAX_QUERY_CHARACTERS = 1000;

    /** Tags seen so far and their normalized form ("" when malformed): clients send a handful, on every request. */
    private static final Map<String, String> LANGUAGES = new ConcurrentHashMap<>();

    private static final int MAX_REMEMBERED_LANGUAGES = 1024;

    /** A known field holding neither a string nor null. */
    private static final Object NOT_A_STRING = new Object();
    /** A known list field holding neither an array nor null (compared by identity). */
    private static final List<Fields> NOT_AN_ARRAY = Collections.unmodifiableList(new ArrayList<>());

    private static final String[] META = {"request_id", "request_at", "session_id", "language", "client_version"};
    private static final byte[][] META_BYTES = KeyedScan.names(META);
    private static final String[] COMPLETED_PARAM = {"type", "placeholder", "text"};
    private static final String[] IDENTIFIED_PARAM = {"type", "value"};
    private static final String[] SUGGESTION = {"type", "text"};

    private final ObjectMapper json;
    /** Reads one value inside the body: the trailing-token check belongs to the whole body. */
    private final ObjectReader subtree;
    /** Reads {@code additional_context}: as {@link #subtree}, with numbers that have a fraction or an exponent as decimals. */
    private final ObjectReader context;

    public SuggestRequestReader(ObjectMapper json) {
        this.json = json;
        this.subtree = json.reader().without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        this.context = subtree.with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    }

    /** @throws ApiException for anything but a valid suggest body, and nothing else */
    public SuggestRequest read(byte[] body) {
        Utf8.requireUtf8Json(body);
        Envelope envelope;
        try (JsonParser parser = json.createParser(body)) {
            envelope = envelope(parser);
            if (envelope != null) {
                envelope.body = body;
            }
            if (parser.nextToken() != null) {
                throw new IOException("trailing tokens");
            }
        } catch (IOException e) {
            throw ApiException.invalidJson(e);
        }
        return validate(envelope);
    }

    /**
     * A body's identity for the response cache, found without reading {@code data}: the bytes of {@code data}'s object
     * without its {@code identified_params} member and one comma beside it (the one part of {@code data} that shapes no
     * answer; what is left is {@code data} as a client sends it without that member), and the rest of the body read and
     * checked as {@link #read} does ({@code meta}, {@code identified_params}, any other member). Two bodies of one
     * product with the same {@code data} bytes read the same but for that member, so an answer kept for one serves the
     * other; {@code data} was checked when that answer was computed.
     *
     * @param data {@code data}'s bytes without the {@code identified_params} member
     * @param hash the hash of {@code data}
     * @param echo {@code identified_params}, read
     */
    public record Keyed(
            byte[] data,
            int hash,
            List<SuggestRequest.EchoedParam> echo,
            String requestId,
            String requestAt,
            String sessionId,
            String language) {

        /** The request {@code cached} was read from, with this body's envelope and echo. */
        public SuggestRequest request(SuggestRequest cached) {
            return cached.withEnvelope(echo, requestId, requestAt, sessionId, language);
        }
    }

    /**
     * {@link Keyed} for a body of the usual shape; null for any other (not an object, {@code data} or {@code meta}
     * missing, repeated or of another type, {@code identified_params} repeated or not an array) and for any body that
     * {@link #read} would refuse outside {@code data}: {@link #read} then reads it and says why. A hit reads none of
     * {@code data}'s strings, lists and trees: the shape clients send on every keystroke is found by one pass over the
     * bytes ({@link KeyedScan}), any other by walking the streaming parser's tokens.
     */
    public Keyed keyed(byte[] body) {
        try {
            Utf8.requireUtf8Json(body);
            KeyedScan.Found found = KeyedScan.scan(body, META_BYTES);
            return found != null
                    ? keyed(body, found.dataStart(), found.dataEnd(), -1, -1, null, new Fields(META, found.meta()))
                    : parsedKey(body);
        } catch (ApiException e) {
            return null; // read says what is wrong
        }
    }

    /** {@link #keyed} by the streaming parser, for any shape; the body is well-formed UTF-8. */
    Keyed parsedKey(byte[] body) {
        try {
            Fields meta = null;
            int dataStart = -1;
            int dataEnd = -1;
            int cutStart = -1;
            int cutEnd = -1;
            List<Fields> echo = null;
            try (JsonParser parser = json.createParser(body)) {
                if (parser.nextToken() != JsonToken.START_OBJECT) {
                    return null;
                }
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String name = parser.currentName();
                    JsonToken token = parser.nextToken();
                    if (name.equals("meta")) {
                        if (meta != null || token != JsonToken.START_OBJECT) {
                            return null;
                        }
                        meta = fields(parser, META);
                    } else if (name.equals("data")) {
                        if (dataStart >= 0 || token != JsonToken.START_OBJECT) {
                            return null;
                        }
                        dataStart = offset(parser.currentTokenLocation().getByteOffset());
                        boolean first = true;
                        while (parser.nextToken() == JsonToken.FIELD_NAME) {
                            if (parser.currentName().equals("identified_params")) {
                                if (cutStart >= 0) {
                                    return null;
                                }
                                int nameStart =
                                        offset(parser.currentTokenLocation().getByteOffset());
                                echo = entries(parser, parser.nextToken(), IDENTIFIED_PARAM);
                                if (echo == NOT_AN_ARRAY) {
                                    return null;
                                }
                                int valueEnd = offset(parser.currentLocation().getByteOffset());
                                // The member and the comma that parts it from the one before it, or from the one after
                                // it when it comes first: what is left is data as sent without the member.
                                if (first) {
                                    cutStart = nameStart;
                                    int next = skipSpace(body, valueEnd, 1);
                                    cutEnd = next < body.length && body[next] == ',' ? next + 1 : valueEnd;
                                } else {
                                    cutStart = skipSpace(body, nameStart - 1, -1);
                                    cutEnd = valueEnd;
                                    if (body[cutStart] != ',') {
                                        return null;
                                    }
                                }
                            } else {
                                parser.nextToken();
                                parser.skipChildren();
                            }
                            first = false;
                        }
                        dataEnd = offset(parser.currentLocation().getByteOffset());
                    } else {
                        skip(parser);
                    }
                }
                if (parser.nextToken() != null || meta == null || dataStart < 0) {
                    return null;
                }
            }
            return keyed(body, dataStart, dataEnd, cutStart, cutEnd, echo, meta);
        } catch (IOException | ApiException e) {
            return null; // read says what is wrong
        }
    }

    /**
     * The key of a body whose {@code data} is {@code [dataStart, dataEnd)} less {@code [cutStart, cutEnd)} (none when
     * {@code cutStart} is negative), its {@code meta} checked as {@link #read} checks it.
     *
     * @throws ApiException when {@code meta} or {@code echo} is not what {@link #read} accepts
     */
    private static Keyed keyed(
            byte[] body, int dataStart, int dataEnd, int cutStart, int cutEnd, List<Fields> echo, Fields meta) {
        Meta checked = meta(meta);
        List<SuggestRequest.EchoedParam> echoed =
                pairs(echo, "identified_params", "value", SuggestRequest.EchoedParam::new);
        byte[] data;
        if (cutStart < 0) {
            data = Arrays.copyOfRange(body, dataStart, dataEnd);
        } else {
            data = new byte[(dataEnd - dataStart) - (cutEnd - cutStart)];
            System.arraycopy(body, dataStart, data, 0, cutStart - dataStart);
            System.arraycopy(body, cutEnd, data, cutStart - dataStart, dataEnd - cutEnd);
        }
        return new Keyed(
                data,
                Arrays.hashCode(data),
                echoed,
                checked.requestId(),
                checked.requestAt(),
                checked.sessionId(),
                checked.language());
    }

    /** The first index from {@code at} on, stepping by {@code step}, that is not JSON whitespace (or the end). */
    private static int skipSpace(byte[] body, int at, int step) {
        while (at >= 0
                && at < body.length
                && (body[at] == ' ' || body[at] == '\t' || body[at] == '\n' || body[at] == '\r')) {
            at += step;
        }
        return at;
    }

    /** A byte offset of the body: bodies are far below 2 GiB (the server's body limit). */
    private static int offset(long offset) {
        return Math.toIntExact(offset);
    }

    /** The known fields of a body, as read. */
    private static final class Envelope {
        Fields meta;
        Data data;
        /** The bytes it was read from. */
        byte[] body;
    }

    /** The known fields of {@code data}: null when absent or null, else as read (or NOT_A_STRING, NOT_AN_ARRAY). */
    private static final class Data {
        Object rawQuery;
        List<Fields> completedParams;
        JsonNode additionalContext;
        /** Where {@code additional_context}'s value starts and ends in the body. */
        int contextFrom;

        int contextTo;
        List<Fields> identifiedParams;
        List<Fields> recentlySuggested;
    }

    /** The wanted string fields of an object: each null (absent or null), a String, or NOT_A_STRING. */
    private record Fields(String[] names, Object[] values) {

        Object get(String name) {
            return values[indexOf(names, name)];
        }

        String text(String name) {
            return get(name) instanceof String text ? text : null;
        }
    }

    /** The body's top-level object, or null when the body is another value. */
    private Envelope envelope(JsonParser parser) throws IOException {
        JsonToken first = parser.nextToken();
        if (first == null) {
            throw new IOException("no JSON value, only whitespace");
        }
        if (first != JsonToken.START_OBJECT) {
            skip(parser);
            return null;
        }
        Envelope envelope = new Envelope();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            boolean object = parser.nextToken() == JsonToken.START_OBJECT;
            switch (name) {
                case "meta" -> envelope.meta = object ? fields(parser, META) : skipped(parser);
                case "data" -> envelope.data = object ? data(parser) : skipped(parser);
                default -> skip(parser);
            }
        }
        return envelope;
    }

    private Data data(JsonParser parser) throws IOException {
        Data data = new Data();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken token = parser.nextToken();
            switch (name) {
                case "raw_query" -> data.rawQuery = string(parser, token);
                case "completed_params" -> data.completedParams = entries(parser, token, COMPLETED_PARAM);
                case "additional_context" -> {
                    // Its bytes are measured as sent (CompactJsonSize); its numbers read as decimals, so that one
                    // beyond
                    // a double's range (1e400) is a number like any other rather than an infinity.
                    data.contextFrom = (int) parser.currentTokenLocation().getByteOffset();
                    try {
                        data.additionalContext = context.readTree(parser);
                    } catch (NumberFormatException | ArithmeticException e) {
                        // A decimal whose exponent has more digits than a decimal holds (1e99999999999): a hostile
                        // trial got a 500 and a stack trace with it.
                        throw ApiException.badRequest(
                                "INVALID_JSON",
                                "data.additional_context holds a number that cannot be read: its exponent is beyond"
                                        + " " + Integer.MAX_VALUE + ".");
                    }
                    data.contextTo = (int) parser.currentLocation().getByteOffset();
                }
                case "identified_params" -> data.identifiedParams = entries(parser, token, IDENTIFIED_PARAM);
                case "recently_suggested" -> data.recentlySuggested = entries(parser, token, SUGGESTION);
                default -> skip(parser);
            }
        }
        return data;
    }

    /** An object's wanted fields; the parser is on its start. */
    private static Fields fields(JsonParser parser, String[] names) throws IOException {
        Object[] values = new Object[names.length];
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken token = parser.nextToken();
            int i = indexOf(names, name);
            if (i < 0) {
                skip(parser);
            } else {
                values[i] = string(parser, token);
            }
        }
        return new Fields(names, values);
    }

    /** An array of objects: each entry's wanted fields, null for an entry that is not an object. */
    private static List<Fields> entries(JsonParser parser, JsonToken token, String[] names) throws IOException {
        if (token != JsonToken.START_ARRAY) {
            skip(parser);
            return token == JsonToken.VALUE_NULL ? null : NOT_AN_ARRAY;
        }
        List<Fields> entries = new ArrayList<>();
        for (JsonToken entry = parser.nextToken(); entry != JsonToken.END_ARRAY; entry = parser.nextToken()) {
            if (entry == JsonToken.START_OBJECT) {
                entries.add(fields(parser, names));
            } else {
                skip(parser);
                entries.add(null);
            }
        }
        return entries;
    }

    private static Object string(JsonParser parser, JsonToken token) throws IOException {
        if (token == JsonToken.VALUE_STRING) {
            return parser.getText();
        }
        skip(parser);
        return token == JsonToken.VALUE_NULL ? null : NOT_A_STRING;
    }

    /**
     * Steps over the current value. Its strings and numbers are still decoded, as a tree would decode them:
     * that is where the parser applies its limits (string and number lengths), so a skipped value is refused
     * exactly like a read one.
     */
    private static void skip(JsonParser parser) throws IOException {
        int depth = 0;
        JsonToken token = parser.currentToken();
        do {
            switch (token) {
                case START_OBJECT, START_ARRAY -> depth++;
                case END_OBJECT, END_ARRAY -> depth--;
                case VALUE_STRING -> parser.getText();
                case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> parser.getNumberValue();
                default -> {}
            }
        } while (depth > 0 && (token = parser.nextToken()) != null);
    }

    private static <T> T skipped(JsonParser parser) throws IOException {
        skip(parser);
        return null;
    }

    private static int indexOf(String[] names, String name) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }

    private SuggestRequest validate(Envelope body) {
        if (body == null) {
            throw ApiException.badRequest("INVALID_REQUEST", "The body must be a JSON object with 'data' and 'meta'.");
        }
        if (body.meta == null) {
            throw ApiException.badRequest("INVALID_REQUEST", "meta must be an object.");
        }
        if (body.data == null) {
            throw ApiException.badRequest("INVALID_REQUEST", "data must be an object.");
        }
        Meta meta = meta(body.meta);
        Data data = body.data;

        if (!(data.rawQuery instanceof String rawQuery)) {
            throw ApiException.badRequest("INVALID_REQUEST", "data.raw_query must be a string (it may be empty).");
        }
        int length = rawQuery.codePointCount(0, rawQuery.length());
        if (length > MAX_QUERY_CHARACTERS) {
            throw ApiException.badRequest(
                    "RAW_QUERY_TOO_LONG",
                    "data.raw_query is " + length + " characters; at most " + MAX_QUERY_CHARACTERS + " are read.");
        }
        Set<String> tokensInQuery = new HashSet<>();
        Placeholders.find(rawQuery).forEach(token -> tokensInQuery.add(token.token()));

        Map<String, SuggestRequest.Fill> fills = new LinkedHashMap<>();
        Set<String> dismissed = new HashSet<>();
        readCompletedParams(data.completedParams, tokensInQuery, fills, dismissed);

        return new SuggestRequest(
                rawQuery,
                Collections.unmodifiableMap(fills),
                Set.copyOf(dismissed),
                additionalContext(data, body.body),
                pairs(data.identifiedParams, "identified_params", "value", SuggestRequest.EchoedParam::new),
                pairs(data.recentlySuggested, "recently_suggested", "text", SuggestRequest.SuggestionRef::new),
                meta.requestId(),
                meta.requestAt(),
                meta.sessionId(),
                meta.language());
    }

    /** What {@code meta} says, checked. */
    private record Meta(String requestId, String requestAt, String sessionId, String language) {}

    private static Meta meta(Fields meta) {
        String requestId = meta.text("request_id");
        if (requestId == null || !Uuids.isUuid(requestId)) {
            throw ApiException.badRequest("INVALID_REQUEST_ID", "meta.request_id must be a UUID (8-4-4-4-12 hex).");
        }
        String requestAt = meta.text("request_at");
        if (requestAt == null || !Timestamps.isZonedTimestamp(requestAt)) {
            throw ApiException.badRequest(
                    "INVALID_REQUEST_AT",
                    "meta.request_at must be an ISO 8601 timestamp with a zone, e.g. 2026-01-31T09:30:00Z.");
        }
        Object sessionId = meta.get("session_id");
        if (sessionId != null && !(sessionId instanceof String session && Uuids.isUuidV4(session))) {
            throw ApiException.badRequest("INVALID_SESSION_ID", "meta.session_id must be a UUID version 4.");
        }
        String language = language(optionalString(meta, "language", "meta.language"));
        optionalString(meta, "client_version", "meta.client_version");
        return new Meta(requestId, requestAt, (String) sessionId, language);
    }

    private static void readCompletedParams(
            List<Fields> entries,
            Set<String> tokensInQuery,
            Map<String, SuggestRequest.Fill> fills,
            Set<String> dismissed) {
        if (entries == null) {
            return;
        }
        if (entries == NOT_AN_ARRAY) {
            throw invalidParams("data.completed_params must be an array.");
        }
        if (entries.size() > MAX_COMPLETED_PARAMS) {
            throw invalidParams("data.completed_params has " + entries.size() + " entries; the limit is "
                    + MAX_COMPLETED_PARAMS + ".");
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < entries.size(); i++) {
            Fields entry = entries.get(i);
            String where = "data.completed_params[" + i + "]";
            if (entry == null) {
                throw invalidParams(where + " must be an object.");
            }
            String type = entry.text("type");
            if (type == null || type.isBlank()) {
                throw invalidParams(where + ".type must be a non-empty string.");
            }
            if (entry.get("placeholder") == NOT_A_STRING) {
                throw invalidParams(where + ".placeholder must be a string.");
            }
            if (entry.get("text") == NOT_A_STRING) {
                throw invalidParams(where + ".text must be a string when present.");
            }
            String placeholder = entry.text("placeholder") == null ? "" : entry.text("placeholder");
            if (placeholder.isEmpty()) {
                dismissed.add(type);
                continue;
            }
            Placeholders.Token token = Placeholders.parse(placeholder);
            if (token == null) {
                throw invalidParams(where + ".placeholder must be a token like {{TYPE_1}} or empty.");
            }
            if (!token.name().equals(Placeholders.mintedName(type))) {
                throw invalidParams(where + ".placeholder " + placeholder + " does not match type '" + type
                        + "' (expected {{" + Placeholders.mintedName(type) + "_N}}).");
            }
            if (!seen.add(placeholder)) {
                throw invalidParams("data.completed_params has two entries for " + placeholder + ".");
            }
            if (tokensInQuery.contains(placeholder)) {
                fills.put(placeholder, new SuggestRequest.Fill(type, entry.text("text")));
            }
        }
    }

    private AdditionalContext additionalContext(Data data, byte[] body) {
        JsonNode node = data.additionalContext;
        if (node == null
                || node.isNull()
                || (node.isContainerNode() && node.isEmpty())
                || (node.isTextual() && node.textValue().isEmpty())) {
            return AdditionalContext.NONE;
        }
        long size;
        try {
            size = CompactJsonSize.of(json.getFactory(), body, data.contextFrom, data.contextTo);
        } catch (IOException | IllegalArgumentException e) {
            throw ApiException.badRequest("INVALID_REQUEST", "data.additional_context cannot be read.");
        }
        if (size > MAX_CONTEXT_BYTES) {
            throw ApiException.badRequest(
                    "ADDITIONAL_CONTEXT_TOO_LARGE",
                    "data.additional_context is " + size + " bytes as compact JSON; the limit is " + MAX_CONTEXT_BYTES
                            + ".");
        }
        return ContextTree.of(node);
    }

    /** The entries of a list of {@code type} and {@code second} string pairs, each made into a {@code T}. */
    private static <T> List<T> pairs(
            List<Fields> entries, String field, String second, BiFunction<String, String, T> pair) {
        if (entries == null) {
            return List.of();
        }
        if (entries == NOT_AN_ARRAY) {
            throw ApiException.badRequest("INVALID_REQUEST", "data." + field + " must be an array.");
        }
        if (entries.isEmpty()) {
            return List.of(); // most requests: no list and no stream made for it (a stream each cost 1 % of a request)
        }
        List<T> pairs = new ArrayList<>(entries.size());
        for (int i = 0; i < entries.size(); i++) {
            Fields entry = entries.get(i);
            String type = entry == null ? null : entry.text("type");
            String value = entry == null ? null : entry.text(second);
            if (type == null || value == null) {
                throw ApiException.badRequest(
                        "INVALID_REQUEST", "data." + field + "[" + i + "] needs string 'type' and '" + second + "'.");
            }
            pairs.add(pair.apply(type, value));
        }
        return Collections.unmodifiableList(pairs);
    }

    private static String optionalString(Fields fields, String field, String where) {
        Object value = fields.get(field);
        if (value == NOT_A_STRING) {
            throw ApiException.badRequest("INVALID_REQUEST", where + " must be a string.");
        }
        return (String) value;
    }

    /** docs/protocol.md §3.6: a well-formed BCP-47 tag, or null; a malformed one is ignored, never an error. */
    private static String language(String tag) {
        if (tag == null || tag.isBlank()) {
            return null;
        }
        String known = LANGUAGES.get(tag);
        if (known != null) {
            return known.isEmpty() ? null : known;
        }
        String normalized;
        try {
            normalized = new Locale.Builder()
                    .setLanguageTag(tag.replace('_', '-'))
                    .build()
                    .toLanguageTag();
        } catch (IllformedLocaleException e) {
            normalized = "";
        }
        if (LANGUAGES.size() < MAX_REMEMBERED_LANGUAGES) {
            LANGUAGES.put(tag, normalized);
        }
        return normalized.isEmpty() ? null : normalized;
    }

    private static ApiException invalidParams(String message) {
        return ApiException.badRequest("INVALID_COMPLETED_PARAMS", message);
    }
}
