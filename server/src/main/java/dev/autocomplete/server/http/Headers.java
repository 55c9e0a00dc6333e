package dev.autocomplete.server.http;

import io.helidon.http.Header;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;

/** Header names of this API that Helidon does not define. */
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
    /** On every API response and every error: a JSON answer is never sniffed into HTML or script. */
    static final Header NOSNIFF = HeaderValues.X_CONTENT_TYPE_OPTIONS_NOSNIFF;

    private Headers() {}
}
