package dev.autocomplete.server.protocol;

import java.time.OffsetDateTime;
import java.time.Year;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * The check of {@code meta.request_at}: an ISO 8601 timestamp with a zone, exactly as
 * {@link DateTimeFormatter#ISO_OFFSET_DATE_TIME} accepts it. The shape every client sends
 * ({@code 2026-01-31T09:30:00Z}, {@code 2026-01-31T09:30:00.123+01:00}) is checked by hand, since it runs on
 * every request and the formatter cost several percent of a cached answer; any other shape goes to the
 * formatter.
 */
final class Timestamps {

    private static final int[] DAYS_IN_MONTH = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

    private Timestamps() {}

    static boolean isZonedTimestamp(String text) {
        int verdict = commonShape(text);
        return verdict >= 0 ? verdict == 1 : parses(text);
    }

    /** 1 or 0 when {@code text} has the shape {@code yyyy-MM-ddTHH:mm:ss[.S{1,9}](Z|±HH:mm)}; -1 otherwise. */
    static int commonShape(String text) {
        int n = text.length();
        if (n < 20
                || !digits(text, 0, 4)
                || text.charAt(4) != '-'
                || !digits(text, 5, 2)
                || text.charAt(7) != '-'
                || !digits(text, 8, 2)
                || (text.charAt(10) != 'T' && text.charAt(10) != 't')
                || !digits(text, 11, 2)
                || text.charAt(13) != ':'
                || !digits(text, 14, 2)
                || text.charAt(16) != ':'
                || !digits(text, 17, 2)) {
            return -1;
        }
        int at = 19;
        if (text.charAt(at) == '.') {
            int start = ++at;
            while (at < n && isDigit(text.charAt(at))) {
                at++;
            }
            if (at == start || at - start > 9) {
                return -1;
            }
        }
        int offsetMinutes;
        if (at == n - 1 && (text.charAt(at) == 'Z' || text.charAt(at) == 'z')) {
            offsetMinutes = 0;
        } else if (at == n - 6
                && (text.charAt(at) == '+' || text.charAt(at) == '-')
                && digits(text, at + 1, 2)
                && text.charAt(at + 3) == ':'
                && digits(text, at + 4, 2)) {
            int hours = number(text, at + 1, 2);
            int minutes = number(text, at + 4, 2);
            if (hours > 18 || minutes > 59) {
                return 0;
            }
            offsetMinutes = hours * 60 + minutes;
        } else {
            return -1;
        }
        int year = number(text, 0, 4);
        int month = number(text, 5, 2);
        int day = number(text, 8, 2);
        boolean valid = month >= 1
                && month <= 12
                && day >= 1
                && day <= (month == 2 && Year.isLeap(year) ? 29 : DAYS_IN_MONTH[month - 1])
                && number(text, 11, 2) <= 23
                && number(text, 14, 2) <= 59
                && number(text, 17, 2) <= 59
                && offsetMinutes <= 18 * 60;
        return valid ? 1 : 0;
    }

    private static boolean parses(String text) {
        try {
            OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME);
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    private static boolean digits(String text, int from, int count) {
        for (int i = from; i < from + count; i++) {
            if (!isDigit(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static int number(String text, int from, int count) {
        int value = 0;
        for (int i = from; i < from + count; i++) {
            value = value * 10 + (text.charAt(i) - '0');
        }
        return value;
    }
}
