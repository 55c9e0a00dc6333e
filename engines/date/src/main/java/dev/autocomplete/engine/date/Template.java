package dev.autocomplete.engine.date;

import static java.util.Objects.requireNonNull;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.temporal.TemporalAdjusters;
import java.util.List;

/**
 * One way to say a date: a sequence of slots, one per word, and how their numbers make the date. Immutable.
 *
 * @param slots the words, in order; never empty
 * @param resolver the date the slots' numbers say, reckoned from today
 */
record Template(List<Slot> slots, Resolver resolver) {

    /** The date that the numbers of a template's slots say, or null when they say none (30 February). */
    @FunctionalInterface
    interface Resolver {
        LocalDate resolve(int[] values, LocalDate today);
    }

    Template {
        slots = List.copyOf(requireNonNull(slots, "slots is null"));
        requireNonNull(resolver, "resolver is null");
        if (slots.isEmpty()) {
            throw new IllegalArgumentException("a template needs a slot");
        }
    }

    /** Today plus a fixed number of days: {@code tomorrow}, {@code demain}. */
    static Template daysFromToday(int days, Slot... slots) {
        return new Template(List.of(slots), (values, today) -> today.plusDays(days));
    }

    /**
     * The first given weekday after today ({@code friday}, {@code this friday}): on a Friday, {@code friday}
     * is a week ahead, because a day already named "today" is rarely meant by its weekday.
     */
    static Template comingWeekday(Slot... slots) {
        int weekday = indexOf(Slot.Kind.WEEKDAY, slots);
        return new Template(List.of(slots), (values, today) ->
                today.with(TemporalAdjusters.next(DayOfWeek.of(values[weekday]))));
    }

    /** The given weekday of next week, weeks starting on Monday ({@code next friday}, {@code vendredi prochain}). */
    static Template weekdayOfNextWeek(Slot... slots) {
        int weekday = indexOf(Slot.Kind.WEEKDAY, slots);
        return new Template(List.of(slots), (values, today) ->
                today.with(TemporalAdjusters.next(DayOfWeek.MONDAY)).plusDays(values[weekday] - 1L));
    }

    /** Today plus a typed count of days, times {@code daysEach} ({@code in 3 days}, {@code dans 2 semaines}). */
    static Template counted(int daysEach, Slot... slots) {
        int count = indexOf(Slot.Kind.COUNT, slots);
        return new Template(List.of(slots), (values, today) -> today.plusDays((long) values[count] * daysEach));
    }

    /**
     * A day and month, with an optional year and an optional weekday that must agree with the date. Without a
     * year, the next such date on or after today ({@code 12 March} typed in November is next year's).
     */
    static Template calendar(Slot... slots) {
        int day = indexOf(Slot.Kind.DAY, slots);
        int month = indexOf(Slot.Kind.MONTH, slots);
        int year = indexOf(Slot.Kind.YEAR, slots);
        int weekday = indexOf(Slot.Kind.WEEKDAY, slots);
        return new Template(List.of(slots), (values, today) -> {
            LocalDate date = year >= 0
                    ? dateOf(values[year], values[month], values[day])
                    : nextOnOrAfter(today, values[month], values[day]);
            boolean agrees = date != null && (weekday < 0 || date.getDayOfWeek().getValue() == values[weekday]);
            return agrees ? date : null;
        });
    }

    private static LocalDate nextOnOrAfter(LocalDate today, int month, int day) {
        // Eight years reach the next 29 February from any day.
        for (int year = today.getYear(); year <= today.getYear() + 8; year++) {
            LocalDate date = dateOf(year, month, day);
            if (date != null && !date.isBefore(today)) {
                return date;
            }
        }
        return null;
    }

    private static LocalDate dateOf(int year, int month, int day) {
        return YearMonth.of(year, month).isValidDay(day) ? LocalDate.of(year, month, day) : null;
    }

    private static int indexOf(Slot.Kind kind, Slot... slots) {
        for (int i = 0; i < slots.length; i++) {
            if (slots[i].kind() == kind) {
                return i;
            }
        }
        return -1;
    }
}
