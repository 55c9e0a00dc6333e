package dev.autocomplete.server.protocol;

import static java.util.Objects.requireNonNull;

/**
 * A request the server refuses, with its HTTP status and the protocol's error code. The message is for the
 * caller: it never carries credentials, {@code additional_context} or internals.
 */
public final class ApiException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final String code;

    public ApiException(int status, String code, String message) {
        super(requireNonNull(message, "message is null"), null, false, false);
        this.status = status;
        this.code = requireNonNull(code, "code is null");
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
}
