package dev.autocomplete.server.protocol;

import java.util.ArrayList;
import java.util.Collections;

import java.util.HashSet;
import java.util.IllformedLocaleException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.autocomplete.spi.Query;

/**
 * The baseline for {@link RequestReadingBenchmark}: the suggest body read as a Jackson tree and the tree then
 * validated, as the server did before {@link SuggestRequestReader} streamed it (a verbatim copy of that code;
 * both call the same {@link Placeholders}, {@link Timestamps} and {@link Uuids}, so the comparison isolates
 * the reading).
 */
final class TreeRequestReader {

    /** docs/protocol.md §3.9: at most this many bytes of compact JSON. */
    static final int MAX_CONTEXT_BYTES = 2000;
    /** More entries than this is no real query: refused before any is read. */
    static final int MAX_COMPLETED_PARAMS = 100;

    /** Tags seen so far and their normalized form ("" when malformed): clients send a handful, on every request. */
    private static final Map<String, String> LANGUAGES = new ConcurrentHashMap<>();
    private static final int MAX_REMEMBERED_LANGUAGES = 1024;

    private final ObjectMapper json;

    TreeRequestReader(ObjectMapper json) {
        this.json = json;
    }

    /** What the server's JsonRequests.parse and the tree reader did together. */
    SuggestRequest read(byte[] bytes) {
        JsonNode body;
        try {
            body = json.readTree(bytes);
        } catch (java.io.IOException e) {
            throw ApiException.badRequest("INVALID_JSON", "The body is not valid JSON.");
        }
        return read(body);
    }

    SuggestRequest read(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw ApiException.badRequest("INVALID_REQUEST", "The body must be a JSON object with 'data' and 'meta'.");
        }
        JsonNode meta = object(body, "meta", "meta");
        JsonNode data = object(body, "data", "data");

        String requestId = text(meta.get("request_id"));
        if (requestId == null || !Uuids.isUuid(requestId)) {
            throw ApiException.badRequest("INVALID_REQUEST_ID", "meta.request_id must be a UUID (8-4-4-4-12 hex).");
        }
        String requestAt = text(meta.get("request_at"));
        if (requestAt == null || !Timestamps.isZonedTimestamp(requestAt)) {
            throw ApiException.badRequest("INVALID_REQUEST_AT",
                    "meta.request_at must be an ISO 8601 timestamp with a zone, e.g. 2026-01-31T09:30:00Z.");
        }
        JsonNode session = meta.get("session_id");
        String sessionId = null;
        if (session != null && !session.isNull()) {
            if (!session.isTextual() || !Uuids.isUuidV4(session.textValue())) {
                throw ApiException.badRequest("INVALID_SESSION_ID", "meta.session_id must be a UUID version 4.");
            }
            sessionId = session.textValue();
        }
        String language = language(optionalString(meta, "language", "meta.language"));
        optionalString(meta, "client_version", "meta.client_version");

        JsonNode rawNode = data.get("raw_query");
        if (rawNode == null || !rawNode.isTextual()) {
            throw ApiException.badRequest("INVALID_REQUEST", "data.raw_query must be a string (it may be empty).");
        }
        String rawQuery = rawNode.textValue();
        Set<String> tokensInQuery = new HashSet<>();
        Placeholders.find(rawQuery).forEach(token -> tokensInQuery.add(token.token()));

        Map<String, SuggestRequest.Fill> fills = new LinkedHashMap<>();
        Set<String> dismissed = new HashSet<>();
        readCompletedParams(data.get("completed_params"), tokensInQuery, fills, dismissed);

        return new SuggestRequest(rawQuery, Collections.unmodifiableMap(fills), Set.copyOf(dismissed),
                additionalContext(data.get("additional_context")),
                pairs(data, "identified_params", "value").stream()
                        .map(p -> new Query.EchoedParam(p[0], p[1])).toList(),
                pairs(data, "recently_suggested", "text").stream()
                        .map(p -> new Query.SuggestionRef(p[0], p[1])).toList(),
                requestId, requestAt, sessionId, language);
    }

    private static void readCompletedParams(JsonNode node, Set<String> tokensInQuery,
            Map<String, SuggestRequest.Fill> fills, Set<String> dismissed) {
        if (node == null || node.isNull()) {
            return;
        }
        if (!node.isArray()) {
            throw invalidParams("data.completed_params must be an array.");
        }
        if (node.size() > MAX_COMPLETED_PARAMS) {
            throw invalidParams("data.completed_params has " + node.size() + " entries; the limit is "
                    + MAX_COMPLETED_PARAMS + ".");
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < node.size(); i++) {
            JsonNode entry = node.get(i);
            String where = "data.completed_params[" + i + "]";
            if (!entry.isObject()) {
                throw invalidParams(where + " must be an object.");
            }
            JsonNode typeNode = entry.get("type");
            if (typeNode == null || !typeNode.isTextual() || typeNode.textValue().isBlank()) {
                throw invalidParams(where + ".type must be a non-empty string.");
            }
            String type = typeNode.textValue();
            JsonNode placeholderNode = entry.get("placeholder");
            if (placeholderNode != null && !placeholderNode.isNull() && !placeholderNode.isTextual()) {
                throw invalidParams(where + ".placeholder must be a string.");
            }
            JsonNode textNode = entry.get("text");
            if (textNode != null && !textNode.isNull() && !textNode.isTextual()) {
                throw invalidParams(where + ".text must be a string when present.");
            }
            String placeholder = placeholderNode == null || placeholderNode.isNull() ? "" : placeholderNode.textValue();
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
                fills.put(placeholder, new SuggestRequest.Fill(type, textNode == null || textNode.isNull()
                        ? null : textNode.textValue()));
            }
        }
    }

    private Object additionalContext(JsonNode node) {
        if (node == null || node.isNull() || (node.isContainerNode() && node.isEmpty())
                || (node.isTextual() && node.textValue().isEmpty())) {
            return null;
        }
        int size;
        try {
            size = json.writeValueAsBytes(node).length;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw ApiException.badRequest("INVALID_REQUEST", "data.additional_context cannot be read.");
        }
        if (size > MAX_CONTEXT_BYTES) {
            throw ApiException.badRequest("ADDITIONAL_CONTEXT_TOO_LARGE", "data.additional_context is " + size
                    + " bytes as compact JSON; the limit is " + MAX_CONTEXT_BYTES + ".");
        }
        return ContextTree.of(node);
    }

    private static List<String[]> pairs(JsonNode data, String field, String second) {
        JsonNode node = data.get(field);
        if (node == null || node.isNull()) {
            return List.of();
        }
        if (!node.isArray()) {
            throw ApiException.badRequest("INVALID_REQUEST", "data." + field + " must be an array.");
        }
        List<String[]> pairs = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            JsonNode entry = node.get(i);
            String type = entry.isObject() ? text(entry.get("type")) : null;
            String value = entry.isObject() ? text(entry.get(second)) : null;
            if (type == null || value == null) {
                throw ApiException.badRequest("INVALID_REQUEST",
                        "data." + field + "[" + i + "] needs string 'type' and '" + second + "'.");
            }
            pairs.add(new String[] {type, value});
        }
        return pairs;
    }

    private static JsonNode object(JsonNode parent, String field, String where) {
        JsonNode node = parent.get(field);
        if (node == null || !node.isObject()) {
            throw ApiException.badRequest("INVALID_REQUEST", where + " must be an object.");
        }
        return node;
    }

    private static String optionalString(JsonNode parent, String field, String where) {
        JsonNode node = parent.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            throw ApiException.badRequest("INVALID_REQUEST", where + " must be a string.");
        }
        return node.textValue();
    }

    private static String text(JsonNode node) {
        return node != null && node.isTextual() ? node.textValue() : null;
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
            normalized = new Locale.Builder().setLanguageTag(tag.replace('_', '-')).build().toLanguageTag();
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
