package dev.autocomplete.server.protocol;

/**
 * The UUID checks of {@code meta}: {@code 8-4-4-4-12} hex digits, either case; version 4 also needs the
 * version digit {@code 4} and a variant digit of {@code 8}, {@code 9}, {@code a} or {@code b}. Written out
 * rather than as regular expressions, since they run on every request.
 */
final class Uuids {

    private static final int LENGTH = 36;

    private Uuids() {
    }

    static boolean isUuid(String text) {
        if (text.length() != LENGTH) {
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

    static boolean isUuidV4(String text) {
        return isUuid(text) && text.charAt(14) == '4' && "89abAB".indexOf(text.charAt(19)) >= 0;
    }
}
