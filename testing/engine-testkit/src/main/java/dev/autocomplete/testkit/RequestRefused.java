package dev.autocomplete.testkit;

/**
 * The server would refuse the request: its HTTP status, and the {@code code} and {@code message} of the error
 * body {@code {"error": {"code", "message"}}}.
 */
public final class RequestRefused extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final String code;

    RequestRefused(int status, String code, String message) {
        super(status + " " + code + ": " + message);
        this.status = status;
        this.code = code;
    }

    /** The HTTP status, e.g. 400. */
    public int status() {
        return status;
    }

    /** The protocol's error code, e.g. {@code INVALID_COMPLETED_PARAMS}. */
    public String code() {
        return code;
    }
}
