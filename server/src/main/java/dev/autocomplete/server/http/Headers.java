package dev.autocomplete.server.http;

import dev.autocomplete.server.protocol.ApiException;
import io.helidon.http.Header;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.webserver.http.ServerRequest;
import java.util.List;
import java.util.Optional;

/** Header names of this API that Helidon does not define, and the reading of a header sent once. */
final class Headers {

    /** Picks the product for a secret key: product id or slug. */
    static final HeaderName APP_IDENTIFIER = HeaderNames.create("X-App-Identifier");

    /** The bucket's size (the burst), as in the IETF RateLimit header fields draft. */
    static final HeaderName RATE_LIMIT_LIMIT = HeaderNames.create("RateLimit-Limit");
    /** Requests left in the bucket now. */
    static final HeaderName RATE_LIMIT_REMAINING = HeaderNames.create("RateLimit-Remaining");
    /** Seconds until the bucket is full again. */
    static final HeaderName RATE_LIMIT_RESET = HeaderNames.create("RateLimit-Reset");

    /**
     * On every API response and every error: answers carry per-user suggestions and credentials' effects, so no
     * cache (browser or proxy) keeps them.
     */
    static final Header NO_STORE = HeaderValues.createCached(HeaderNames.CACHE_CONTROL, "no-store");

    /** {@code Vary: Origin}, made once: a header made from a name and a string is copied again when set. */
    static final Header VARY_ORIGIN = HeaderValues.createCached(HeaderNames.VARY, "Origin");

    /** On every API response and every error: a JSON answer is never sniffed into HTML or script. */
    static final Header NOSNIFF = HeaderValues.X_CONTENT_TYPE_OPTIONS_NOSNIFF;

    private Headers() {}

    /**
     * The value of a header that names one thing ({@code Content-Type}, {@code Origin}, {@code X-App-Identifier}), as
     * sent. Two lines of it are refused, as two {@code Authorization} headers are (protocol note 15): which one
     * counted would depend on which one a proxy in between kept.
     */
    static Optional<String> single(ServerRequest request, HeaderName name) {
        List<String> lines = request.headers().all(name, List::of);
        if (lines.size() > 1) {
            throw ApiException.badRequest(
                    "INVALID_REQUEST", "Send one " + name.defaultCase() + " header, not " + lines.size() + ".");
        }
        return lines.isEmpty() ? Optional.empty() : Optional.of(lines.getFirst());
    }
}
