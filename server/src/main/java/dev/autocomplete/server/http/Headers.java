package dev.autocomplete.server.http;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;

/** Header names of this API that Helidon does not define. */
final class Headers {

    /** Picks the product for a secret key: product id or slug. */
    static final HeaderName APP_IDENTIFIER = HeaderNames.create("X-App-Identifier");

    private Headers() {
    }
}
