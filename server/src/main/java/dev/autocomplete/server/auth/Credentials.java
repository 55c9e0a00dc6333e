package dev.autocomplete.server.auth;

import dev.autocomplete.server.protocol.ApiException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.Optional;

/**
 * The credential in an {@code Authorization} header: {@code Bearer <credential>}, or {@code Basic base64(key)}
 * as the official client can send (a trailing or leading {@code :} from user:password tooling is ignored).
 * A header without one of these schemes is an invalid credential, not a missing one (protocol note 15):
 * {@code Authorization: pk_v1_...} does send a credential, in a form the server does not take.
 */
final class Credentials {

    private Credentials() {}

    /** The credential, or an empty string when the header is absent or carries none. */
    static String from(Optional<String> authorization, String missingCode, String invalidCode) {
        String header = authorization.map(String::strip).orElse("");
        if (header.isEmpty()) {
            throw new ApiException(
                    401, missingCode, "Send a key or access token as 'Authorization: Bearer <credential>'.");
        }
        int space = header.indexOf(' ');
        String scheme = (space < 0 ? header : header.substring(0, space)).toLowerCase(Locale.ROOT);
        if (!scheme.equals("bearer") && !scheme.equals("basic")) {
            throw new ApiException(
                    401,
                    invalidCode,
                    "Use 'Authorization: Bearer <credential>' or 'Authorization: Basic <base64 of the key>'.");
        }
        String value = space < 0 ? "" : header.substring(space + 1).strip();
        if (value.isEmpty()) {
            throw new ApiException(401, missingCode, "The Authorization header carries no credential.");
        }
        return scheme.equals("bearer") ? value : basic(value, invalidCode);
    }

    private static String basic(String encoded, String invalidCode) {
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8).strip();
        } catch (IllegalArgumentException e) {
            throw new ApiException(401, invalidCode, "The Basic credential is not valid base64.");
        }
        if (decoded.endsWith(":")) {
            decoded = decoded.substring(0, decoded.length() - 1);
        } else if (decoded.startsWith(":")) {
            decoded = decoded.substring(1);
        }
        return decoded;
    }
}
