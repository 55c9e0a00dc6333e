package dev.autocomplete.server.protocol;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import java.util.List;
import java.util.Map;

/**
 * A request the server refuses, with its HTTP status and the protocol's error code. The message is for the
 * caller: it never carries credentials, {@code additional_context} or internals.
 */
public final class ApiException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final String code;
    private final List<Map<String, Object>> details;

    public ApiException(int status, String code, String message) {
        this(status, code, message, List.of());
    }

    /** @param details written as the error's {@code details} array when not empty (e.g. each refused record) */
    public ApiException(int status, String code, String message, List<Map<String, Object>> details) {
        super(requireNonNull(message, "message is null"), null, false, false);
        this.status = status;
        this.code = requireNonNull(code, "code is null");
        this.details = List.copyOf(details);
    }

    public static ApiException badRequest(String code, String message) {
        return new ApiException(400, code, message);
    }

    /**
     * {@code INVALID_JSON} for a body the JSON reader refused: which of its limits the body passed (a number longer than
     * 1000 characters read as plain invalid JSON, which told its sender nothing), else that it is not valid JSON.
     */
    public static ApiException invalidJson(Exception e) {
        return badRequest("INVALID_JSON", invalidJsonMessage(e));
    }

    /** The message of {@link #invalidJson}: the reader's limit the body passed, else "The body is not valid JSON." */
    public static String invalidJsonMessage(Exception e) {
        return e instanceof StreamConstraintsException limit
                ? "The body is JSON " + overLimit(limit) + "."
                : "The body is not valid JSON.";
    }

    /** Which JSON limit a body broke, naming its setting (docs/configuration.md). */
    public static String overLimit(StreamConstraintsException e) {
        String message = String.valueOf(e.getMessage());
        if (message.contains("nesting depth")) {
            return "nested deeper than limits.json-depth allows";
        }
        return message.contains("Number")
                ? "holding a number of more than 1000 digits"
                : "holding a string or name longer than limits.json-string-bytes allows";
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public List<Map<String, Object>> details() {
        return details;
    }
}
