package dev.autocomplete.server.protocol;

import static java.util.Objects.requireNonNull;

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
