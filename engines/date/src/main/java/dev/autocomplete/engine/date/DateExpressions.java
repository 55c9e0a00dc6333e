package dev.autocomplete.engine.date;

import static java.util.Objects.requireNonNull;

import dev.autocomplete.spi.Reading;
import dev.autocomplete.spi.ReadingState;
import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.format.TextStyle;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The date expressions the engine understands, reckoned from one day: {@code today}, {@code tomorrow},
 * {@code day after tomorrow}, a weekday ({@code friday} and {@code this friday}: the first one after
 * today; {@code next friday}: the one in next week, weeks starting on Monday), {@code in N days},
 * {@code in N weeks}, and ISO dates such as {@code 2026-12-24}. Immutable; build one per read.
 */
final class DateExpressions {

    /**
     * One way to say a date.
     *
     * @param words the folded words that say it
     * @param display how an option shows it, without the date
     * @param date the date it means
     */
    record Expression(List<String> words, String display, LocalDate date) {
        Expression {
            words = List.copyOf(requireNonNull(words, "words is null"));
            requireNonNull(display, "display is null");
            requireNonNull(date, "date is null");
        }

        /** The option: {@code Next Friday (2026-12-04)}, with the ISO date as alias for context ranking. */
        Reading.Option option() {
            return new Reading.Option(display + " (" + date + ")", List.of(date.toString()), true);
        }
    }

    /**
     * A date found in typed text.
     *
     * @param start index of the span in the text
     * @param end index just past the span in the text
     * @param state {@code COMPLETED} for a whole expression, {@code IN_PROGRESS} for a proper prefix of one
     * @param options for {@code IN_PROGRESS}, the options the prefix may become; else empty
     */
    record DateReading(int start, int end, ReadingState state, List<Reading.Option> options) {
        DateReading {
            requireNonNull(state, "state is null");
            options = List.copyOf(requireNonNull(options, "options is null"));
        }
    }

    private static final Pattern ISO_DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}(?![\\p{L}\\p{N}])");
    private static final Pattern ISO_DATE_PREFIX = Pattern.compile("\\d{1,4}|\\d{4}-(\\d{1,2}|\\d{2}-\\d?)?");
    private static final Pattern COUNT = Pattern.compile("[0-9]{1,4}");
    private static final int DEFAULT_WEEKDAYS_FROM = 2;
    private static final int DEFAULT_WEEKDAYS_TO = 5;

    private final List<Expression> fixed;
    private final List<Reading.Option> defaults;

    DateExpressions(LocalDate today) {
        requireNonNull(today, "today is null");
        List<Expression> fixed = new ArrayList<>();
        fixed.add(new Expression(List.of("today"), "Today", today));
        fixed.add(new Expression(List.of("tomorrow"), "Tomorrow", today.plusDays(1)));
        fixed.add(new Expression(List.of("day", "after", "tomorrow"), "Day after tomorrow", today.plusDays(2)));
        for (int ahead = 1; ahead <= 7; ahead++) {
            LocalDate date = today.plusDays(ahead);
            fixed.add(new Expression(List.of(folded(date)), name(date), date));
        }
        for (int ahead = 1; ahead <= 7; ahead++) {
            LocalDate date = today.plusDays(ahead);
            fixed.add(new Expression(List.of("this", folded(date)), "This " + name(date), date));
        }
        LocalDate nextMonday = today.with(TemporalAdjusters.next(DayOfWeek.MONDAY));
        for (int day = 0; day < 7; day++) {
            LocalDate date = nextMonday.plusDays(day);
            fixed.add(new Expression(List.of("next", folded(date)), "Next " + name(date), date));
        }
        this.fixed = List.copyOf(fixed);

        List<Reading.Option> defaults = new ArrayList<>();
        defaults.add(fixed.get(0).option());
        defaults.add(fixed.get(1).option());
        for (int ahead = DEFAULT_WEEKDAYS_FROM; ahead <= DEFAULT_WEEKDAYS_TO; ahead++) {
            LocalDate date = today.plusDays(ahead);
            defaults.add(new Expression(List.of(folded(date)), name(date), date).option());
        }
        this.defaults = List.copyOf(defaults);
    }

    /** The options offered before anything is typed: today, tomorrow, then the next four weekdays. */
    List<Reading.Option> defaults() {
        return defaults;
    }

    /**
     * Reads the first date in the words from {@code from} on, directly there or after a cue. A whole
     * expression anywhere wins; failing that, when the text is the end of the query, a proper prefix of an
     * expression that runs to the end of the text.
     *
     * @param cues the folded cue words, each a word sequence
     * @param trailing whether the text ends the query, so its last word may still be being typed
     */
    Optional<DateReading> read(FoldedWords words, int from, List<List<String>> cues, boolean trailing) {
        List<Integer> starts = starts(words, from, cues);
        for (int start : starts) {
            OptionalInt end = completeAt(words, start);
            if (end.isPresent()) {
                int spanStart = words.words().get(start).start();
                return Optional.of(new DateReading(spanStart, end.getAsInt(), ReadingState.COMPLETED, List.of()));
            }
        }
        if (trailing) {
            for (int start : starts) {
                Optional<DateReading> partial = partialAt(words, start);
                if (partial.isPresent()) {
                    return partial;
                }
            }
        }
        return Optional.empty();
    }

    /** Where a date may begin: right at {@code from}, or just after any cue at or after it. */
    private static List<Integer> starts(FoldedWords words, int from, List<List<String>> cues) {
        List<Integer> starts = new ArrayList<>();
        if (from < words.size()) {
            starts.add(from);
        }
        for (int i = from; i < words.size(); i++) {
            for (List<String> cue : cues) {
                int after = i + cue.size();
                if (after < words.size() && words.startsWith(i, cue) && !starts.contains(after)) {
                    starts.add(after);
                }
            }
        }
        starts.sort(null);
        return starts;
    }

    /** The end of the longest whole expression starting at word {@code start}. */
    private OptionalInt completeAt(FoldedWords words, int start) {
        Matcher iso = ISO_DATE.matcher(words.text())
                .region(words.words().get(start).start(), words.text().length())
                .useTransparentBounds(true);
        if (iso.lookingAt() && isDate(iso.group())) {
            return OptionalInt.of(iso.end());
        }
        int longest = 0;
        for (Expression expression : candidates(words, start)) {
            if (expression.words().size() > longest && words.startsWith(start, expression.words())) {
                longest = expression.words().size();
            }
        }
        return longest == 0 ? OptionalInt.empty() : OptionalInt.of(words.words().get(start + longest - 1).end());
    }

    /** A proper prefix of an expression from word {@code start} to the end of the text, with its options. */
    private Optional<DateReading> partialAt(FoldedWords words, int start) {
        int spanStart = words.words().get(start).start();
        String tail = words.text().substring(spanStart);
        if (ISO_DATE_PREFIX.matcher(tail).matches()) {
            Map<LocalDate, Reading.Option> byDate = new LinkedHashMap<>();
            for (Expression expression : fixed) {
                if (expression.date().toString().startsWith(tail)) {
                    byDate.putIfAbsent(expression.date(), expression.option());
                }
            }
            return Optional.of(new DateReading(
                    spanStart, tail.length() + spanStart, ReadingState.IN_PROGRESS, List.copyOf(byDate.values())));
        }
        List<Reading.Option> options = candidates(words, start).stream()
                .filter(expression -> words.isProperPrefixOf(start, expression.words()))
                .map(Expression::option)
                .distinct()
                .toList();
        if (options.isEmpty()) {
            return Optional.empty();
        }
        int spanEnd = words.words().getLast().end();
        return Optional.of(new DateReading(spanStart, spanEnd, ReadingState.IN_PROGRESS, options));
    }

    /** The fixed expressions, plus the {@code in N days/weeks} forms the words at {@code start} may be. */
    private List<Expression> candidates(FoldedWords words, int start) {
        if (!"in".startsWith(words.folded(start))) {
            return fixed;
        }
        LocalDate today = fixed.get(0).date();
        List<Expression> candidates = new ArrayList<>(fixed);
        if (start + 1 >= words.size()) {
            candidates.addAll(relative(today, "2", false));
            candidates.addAll(relative(today, "3", false));
            candidates.addAll(relative(today, "1", true));
            candidates.addAll(relative(today, "2", true));
            return candidates;
        }
        String count = words.folded(start + 1);
        if (COUNT.matcher(count).matches() && Integer.parseInt(count) > 0) {
            candidates.addAll(relative(today, count, false));
            candidates.addAll(relative(today, count, true));
        }
        return candidates;
    }

    /** {@code in N days} or {@code in N weeks}, accepting the unit in singular and plural alike. */
    private static List<Expression> relative(LocalDate today, String count, boolean weeks) {
        int n = Integer.parseInt(count);
        LocalDate date = weeks ? today.plusWeeks(n) : today.plusDays(n);
        String singular = weeks ? "week" : "day";
        String display = "In " + n + " " + (n == 1 ? singular : singular + "s");
        return List.of(
                new Expression(List.of("in", count, singular + "s"), display, date),
                new Expression(List.of("in", count, singular), display, date));
    }

    private static boolean isDate(String iso) {
        try {
            LocalDate.parse(iso);
            return true;
        } catch (DateTimeException e) {
            return false;
        }
    }

    private static String name(LocalDate date) {
        return date.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH);
    }

    private static String folded(LocalDate date) {
        return name(date).toLowerCase(Locale.ROOT);
    }
}
