package dev.autocomplete.server.http;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.autocomplete.server.protocol.SuggestRequest;
import dev.autocomplete.server.protocol.SuggestResponse;

/**
 * One JSON line per request on the logger {@code dev.autocomplete.access}: time, request id, session id,
 * method, path, tenant, product, status, error code, duration, engine time and fallback reason. Never a
 * credential or {@code additional_context}; {@code raw_query} and the texts of completed params only for a
 * tenant with {@code log_queries: true}.
 */
final class AccessLog {

    static final String LOGGER = "dev.autocomplete.access";

    private final System.Logger logger = System.getLogger(LOGGER);
    private final ObjectMapper json;

    AccessLog(ObjectMapper json) {
        this.json = json;
    }

    /** What is known about a request once it was answered. */
    record Entry(String method, String path, String tenant, String product, SuggestRequest body,
            SuggestResponse answer, int status,
            String errorCode, long nanos, long engineNanos, String fallback, boolean logQuery) {
    }

    void write(Entry entry) {
        if (!logger.isLoggable(System.Logger.Level.INFO)) {
            return;
        }
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("time", Instant.now().toString());
        line.put("request_id", entry.body() == null ? null : entry.body().requestId());
        line.put("session_id", entry.answer() != null ? entry.answer().sessionId()
                : entry.body() == null ? null : entry.body().sessionId());
        line.put("method", entry.method());
        line.put("path", entry.path());
        line.put("tenant", entry.tenant());
        line.put("product", entry.product());
        line.put("status", entry.status());
        line.put("error", entry.errorCode());
        line.put("duration_ms", Math.round(entry.nanos() / 10_000.0) / 100.0);
        line.put("engine_ms", Math.round(entry.engineNanos() / 10_000.0) / 100.0);
        line.put("fallback", entry.fallback());
        if (entry.logQuery() && entry.body() != null) {
            line.put("raw_query", entry.body().rawQuery());
            Map<String, String> params = new LinkedHashMap<>();
            entry.body().fills().forEach((token, fill) -> params.put(token, fill.text()));
            line.put("params", params);
        }
        try {
            logger.log(System.Logger.Level.INFO, json.writeValueAsString(line));
        } catch (JsonProcessingException e) {
            logger.log(System.Logger.Level.WARNING, "Access log line not written: " + e.getClass().getName());
        }
    }
}
