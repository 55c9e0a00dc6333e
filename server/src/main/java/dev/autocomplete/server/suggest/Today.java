package dev.autocomplete.server.suggest;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;

/**
 * What day it is in a product's time zone, worked out once a day rather than once a request: the same
 * {@link LocalDate} instance is handed out for the whole day, so the response cache compares a key's day by identity
 * (a cached key's date is not read from memory on every lookup). One day is remembered, for the zone last asked;
 * products of other zones work it out again (as every request did before). Thread-safe.
 */
final class Today {

    /**
     * A day of one zone, the epoch milliseconds it spans ({@code [from, until)}), and the clock in that zone (made
     * once, not per request).
     */
    private record Day(ZoneId zone, Clock clock, LocalDate date, long from, long until) {}

    private final Clock clock;
    private volatile Day last;

    Today(Clock clock) {
        this.clock = clock;
    }

    /**
     * Today's date in {@code zone}, by the clock in that zone ({@link Clock#withZone}: a test's clock may read another
     * instant in each zone, as the engine test kit's reads noon of its day in every zone).
     */
    LocalDate in(ZoneId zone) {
        Day day = last;
        if (day != null && (day.zone == zone || day.zone.equals(zone))) {
            long now = day.clock.millis();
            if (now >= day.from && now < day.until) {
                return day.date;
            }
        }
        Clock zoned = clock.withZone(zone);
        long now = zoned.millis();
        LocalDate date = LocalDate.ofInstant(Instant.ofEpochMilli(now), zone);
        // Days of 23 or 25 hours (summer time) and zones whose midnight is skipped are spanned by the rules.
        long from = date.atStartOfDay(zone).toInstant().toEpochMilli();
        long until = date.plusDays(1).atStartOfDay(zone).toInstant().toEpochMilli();
        last = new Day(zone, zoned, date, from, until);
        return date;
    }
}
