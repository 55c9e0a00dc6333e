package dev.autocomplete.server.protocol;

import java.util.Optional;
import java.util.UUID;

/**
 * The one check of a UUID the server reads, wherever it comes from ({@code meta} of a request, a product id in
 * {@code tenant.yaml}, {@code X-App-Identifier}, {@code product_id} of a token request, a token's claims,
 * {@code keys.yaml}): {@code 8-4-4-4-12} hex digits, either case; version 4 also needs the version digit {@code 4}
 * and a variant digit of {@code 8}, {@code 9}, {@code a} or {@code b}. Written out rather than as regular
 * expressions, since they run on every request. {@link UUID#fromString} alone is not a check: it takes
 * {@code 1-2-3-4-5}.
 */
public final class Uuids {

    private static final int LENGTH = 36;

    private Uuids() {}

    public static boolean isUuid(String text) {
        if (text == null || text.length() != LENGTH) {
            return false;
        }
        for (int i = 0; i < LENGTH; i++) {
            char c = text.charAt(i);
            boolean ok = i == 8 || i == 13 || i == 18 || i == 23 ? c == '-' : Character.digit(c, 16) >= 0 && c < 128;
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    public static boolean isUuidV4(String text) {
        return isUuid(text) && text.charAt(14) == '4' && "89abAB".indexOf(text.charAt(19)) >= 0;
    }

    /** The UUID written in {@code text}, or empty when {@code text} is not one (see {@link #isUuid}). */
    public static Optional<UUID> parse(String text) {
        return isUuid(text) ? Optional.of(UUID.fromString(text)) : Optional.empty();
    }

    /**
     * The UUID written in {@code text}.
     *
     * @throws IllegalArgumentException naming {@code what} when {@code text} is not a UUID
     */
    public static UUID require(String text, String what) {
        return parse(text).orElseThrow(() -> new IllegalArgumentException(what + " must be a UUID (8-4-4-4-12 hex)"));
    }
}
