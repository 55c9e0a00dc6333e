package dev.autocomplete.server.http;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;

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

    private Headers() {
    }
}
