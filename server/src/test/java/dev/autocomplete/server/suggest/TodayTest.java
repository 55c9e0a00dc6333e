package dev.autocomplete.server.suggest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.autocomplete.server.TestClock;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class TodayTest {

    private static final ZoneId LISBON = ZoneId.of("Europe/Lisbon");
    private static final ZoneId AUCKLAND = ZoneId.of("Pacific/Auckland");

    private static TestClock clock(String instant) {
        TestClock clock = new TestClock();
        clock.set(instant);
        return clock;
    }

    @Test
    void theSameDateAllDayAndTheNextAtItsMidnight() {
        TestClock clock = clock("2026-03-10T00:00:00Z");
        Today today = new Today(clock);
        LocalDate first = today.in(LISBON);
        assertEquals(LocalDate.of(2026, 3, 10), first);
        clock.set("2026-03-10T23:59:59.999Z");
        assertSame(first, today.in(LISBON), "one instance the whole day: the cache compares it by identity");
        clock.set("2026-03-11T00:00:00Z");
        assertEquals(LocalDate.of(2026, 3, 11), today.in(LISBON));
    }

    @Test
    void daysOfSummerTimeChangesEndAtTheirOwnMidnight() {
        // 2026-10-25 in Lisbon lasts 25 hours: from 00:00+01:00 (23:00Z the day before) to 00:00Z the next day.
        TestClock clock = clock("2026-10-24T23:00:00Z");
        Today today = new Today(clock);
        assertEquals(LocalDate.of(2026, 10, 25), today.in(LISBON));
        clock.set("2026-10-25T23:59:59Z");
        assertEquals(LocalDate.of(2026, 10, 25), today.in(LISBON));
        clock.set("2026-10-26T00:00:00Z");
        assertEquals(LocalDate.of(2026, 10, 26), today.in(LISBON));
        // 2026-03-29 lasts 23 hours: its midnight is 00:00Z, the next day's 23:00Z.
        clock.set("2026-03-29T00:00:00Z");
        assertEquals(LocalDate.of(2026, 3, 29), today.in(LISBON));
        clock.set("2026-03-29T23:00:00Z");
        assertEquals(LocalDate.of(2026, 3, 30), today.in(LISBON));
    }

    @Test
    void eachZoneGetsItsOwnDate() {
        // 11:00Z is 00:00 the next day in Auckland (UTC+13 in its summer).
        TestClock clock = clock("2026-12-01T11:00:00Z");
        Today today = new Today(clock);
        for (int i = 0; i < 3; i++) {
            assertEquals(LocalDate.of(2026, 12, 1), today.in(LISBON));
            assertEquals(LocalDate.of(2026, 12, 2), today.in(AUCKLAND));
            assertEquals(LocalDate.of(2026, 12, 1), today.in(ZoneOffset.UTC));
        }
    }

    @Test
    void aClockSetBackGetsThatDay() {
        TestClock clock = clock("2026-12-01T12:00:00Z");
        Today today = new Today(clock);
        assertEquals(LocalDate.of(2026, 12, 1), today.in(ZoneOffset.UTC));
        clock.set("2026-11-30T12:00:00Z");
        assertEquals(LocalDate.of(2026, 11, 30), today.in(ZoneOffset.UTC));
    }
}
