package dev.autocomplete.engine.date;

import static java.util.Objects.requireNonNull;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.temporal.TemporalAdjusters;
import java.util.List;

/**
 * One way to say a date, or a few days ({@code next week}): a sequence of slots, one per word, and how their
 * numbers make the date. Immutable.
 *
 * @param slots the words, in order; never empty
 * @param resolver the date the slots' numbers say, reckoned from today; for a period, its first day
 * @param last for a period, its last day; null for one date
 */
record Template(List<Slot> slots, Resolver resolver, Resolver last) {

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

    Template(List<Slot> slots, Resolver resolver) {
        this(slots, resolver, null);
    }

    /** Whether the template names a day and a month, by name: written out as {@code 12 March 2027 (Friday)}. */
    boolean namesDayAndMonth() {
        return has(Slot.Kind.DAY) && slots.stream().anyMatch(slot -> slot.kind() == Slot.Kind.MONTH && slot.isNamed());
    }

    /** Whether the template has a slot of this kind. */
    boolean has(Slot.Kind kind) {
        return slotOf(kind) >= 0;
    }

    /** The index of the template's first slot of this kind, or -1. */
    int slotOf(Slot.Kind kind) {
        return indexOf(kind, slots.toArray(Slot[]::new));
    }

    /**
     * The next day of the month with the given number on or after today ({@code the 12th}), skipping months
     * too short for it.
     */
    static Template dayOfMonth(Slot... slots) {
        int day = indexOf(Slot.Kind.DAY, slots);
        return new Template(List.of(slots), (values, today) -> {
            for (int ahead = 0; ahead < 3; ahead++) {
                YearMonth month = YearMonth.from(today).plusMonths(ahead);
                if (month.isValidDay(values[day]) && !month.atDay(values[day]).isBefore(today)) {
                    return month.atDay(values[day]);
                }
            }
            return null;
        });
    }

    /** This week from today to Sunday ({@code weeksAhead} 0), or next week, Monday to Sunday (1). */
    static Template week(int weeksAhead, Slot... slots) {
        return new Template(
                List.of(slots),
                (values, today) -> weeksAhead == 0 ? today : today.with(TemporalAdjusters.next(DayOfWeek.MONDAY)),
                (values, today) -> today.with(TemporalAdjusters.nextOrSame(DayOfWeek.SUNDAY))
                        .plusWeeks(weeksAhead));
    }

    /** The coming weekend, today included on a Saturday or Sunday ({@code weeksAhead} 0), or next week's (1). */
    static Template weekend(int weeksAhead, Slot... slots) {
        return new Template(
                List.of(slots),
                (values, today) -> {
                    LocalDate sunday = today.with(TemporalAdjusters.nextOrSame(DayOfWeek.SUNDAY))
                            .plusWeeks(weeksAhead);
                    LocalDate saturday = sunday.minusDays(1);
                    return saturday.isBefore(today) ? today : saturday;
                },
                (values, today) -> today.with(TemporalAdjusters.nextOrSame(DayOfWeek.SUNDAY))
                        .plusWeeks(weeksAhead));
    }

    /** The last seven days of this month from today on ({@code end of the month}). */
    static Template endOfThisMonth(Slot... slots) {
        return new Template(
                List.of(slots),
                (values, today) -> {
                    LocalDate first =
                            today.with(TemporalAdjusters.lastDayOfMonth()).minusDays(END_DAYS - 1);
                    return first.isBefore(today) ? today : first;
                },
                (values, today) -> today.with(TemporalAdjusters.lastDayOfMonth()));
    }

    /**
     * Days {@code firstDay} to {@code lastDay} (0: the month's last) of a named month ({@code early March}: 1 to
     * 10), in the next year where they are not all past, from today on.
     */
    static Template partOfMonth(int firstDay, int lastDay, Slot... slots) {
        int month = indexOf(Slot.Kind.MONTH, slots);
        Resolver end = (values, today) -> {
            for (int year = today.getYear(); ; year++) {
                YearMonth yearMonth = YearMonth.of(year, values[month]);
                LocalDate last = lastDay == 0 ? yearMonth.atEndOfMonth() : yearMonth.atDay(lastDay);
                if (!last.isBefore(today)) {
                    return last;
                }
            }
        };
        return new Template(
                List.of(slots),
                (values, today) -> {
                    LocalDate last = end.resolve(values, today);
                    LocalDate first =
                            lastDay == 0 && firstDay < 0 ? last.minusDays(END_DAYS - 1) : last.withDayOfMonth(firstDay);
                    return first.isBefore(today) ? today : first;
                },
                end);
    }

    /** How many days "the end of" a month covers. */
    static final int END_DAYS = 7;

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
        return new Template(
                List.of(slots), (values, today) -> today.with(TemporalAdjusters.next(DayOfWeek.of(values[weekday]))));
    }

    /** The given weekday of next week, weeks starting on Monday ({@code next friday}, {@code vendredi prochain}). */
    static Template weekdayOfNextWeek(Slot... slots) {
        int weekday = indexOf(Slot.Kind.WEEKDAY, slots);
        return new Template(List.of(slots), (values, today) -> today.with(TemporalAdjusters.next(DayOfWeek.MONDAY))
                .plusDays(values[weekday] - 1L));
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
