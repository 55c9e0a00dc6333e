package dev.autocomplete.server.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The hand-written check of the common {@code request_at} shape agrees with java.time's ISO parser. */
class TimestampsTest {

    private static boolean javaTime(String text) {
        try {
            OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME);
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    @Test
    void the_common_shapes_are_decided_by_hand_and_other_shapes_by_the_iso_parser() {
        assertEquals(1, Timestamps.commonShape("2026-01-31T09:30:00Z"));
        assertEquals(1, Timestamps.commonShape("2026-01-31T09:30:00.123456789+01:00"));
        assertEquals(0, Timestamps.commonShape("2026-02-30T09:30:00Z"));
        assertEquals(-1, Timestamps.commonShape("2026-01-31T09:30Z"));
        assertTrue(Timestamps.isZonedTimestamp("2026-01-31T09:30Z"));
        assertTrue(Timestamps.isZonedTimestamp("2024-02-29T23:59:59-18:00"));
        assertFalse(Timestamps.isZonedTimestamp("2023-02-29T12:00:00Z"));
        assertFalse(Timestamps.isZonedTimestamp("2026-01-31T09:30:00"));
        assertFalse(Timestamps.isZonedTimestamp("2026-01-31T09:30:00+18:01"));
        assertFalse(Timestamps.isZonedTimestamp("yesterday"));
    }

    @Test
    void agrees_with_the_iso_parser_on_random_timestamps_and_mutations_of_them() {
        Random random = new Random(5);
        String alphabet = "0123456789-:T.Zz+ t";
        for (int i = 0; i < 40_000; i++) {
            StringBuilder text = new StringBuilder(String.format(
                    "%04d-%02d-%02dT%02d:%02d:%02d",
                    random.nextInt(10_000),
                    random.nextInt(14),
                    random.nextInt(33),
                    random.nextInt(26),
                    random.nextInt(62),
                    random.nextInt(62)));
            if (random.nextBoolean()) {
                text.append('.').append("123456789012".substring(0, random.nextInt(12)));
            }
            text.append(
                    switch (random.nextInt(4)) {
                        case 0 -> "Z";
                        case 1 -> "z";
                        default ->
                            String.format(
                                    "%c%02d:%02d",
                                    random.nextBoolean() ? '+' : '-', random.nextInt(20), random.nextInt(62));
                    });
            if (random.nextInt(4) == 0) {
                text.setCharAt(random.nextInt(text.length()), alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String candidate = text.toString();
            assertEquals(javaTime(candidate), Timestamps.isZonedTimestamp(candidate), candidate);
        }
    }
}
