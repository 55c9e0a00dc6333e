package dev.autocomplete.engine.date;

import static java.util.Objects.requireNonNull;

import dev.autocomplete.spi.toolkit.Words;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;

/**
 * Reads typed text as dates with the templates of some languages, reckoned from one day. Immutable and cheap
 * to build: one per question.
 *
 * @param templates the expressions to read
 * @param today the day "today" means
 */
record DateReader(List<Template> templates, LocalDate today) {

    /** More unfilled words than this make a completion too far from what was typed to offer. */
    private static final int MOST_UNTYPED_IN_OPTIONS = 2;

    private static final int YEARS_OFFERED = 3;

    /**
     * Typed text as folded tokens.
     *
     * @param tokens the folded words, split where folding put spaces ({@code aujourd'hui} is two)
     * @param open whether the text ends inside its last word, which the user may still be typing
     * @param text the text as typed
     */
    record Typed(List<String> tokens, boolean open, String text) {

        Typed {
            tokens = List.copyOf(requireNonNull(tokens, "tokens is null"));
            requireNonNull(text, "text is null");
        }

        static Typed of(String text) {
            List<String> tokens = new ArrayList<>();
            for (Words.Word word : Words.of(text, 0)) {
                tokens.addAll(List.of(word.folded().split(" ")));
            }
            boolean open = !tokens.isEmpty() && isWordChar(text.codePointBefore(text.length()));
            return new Typed(tokens, open, text);
        }

        /** The same words, each one whole. */
        Typed closed() {
            return new Typed(tokens, false, text);
        }

        /** The words {@code [from, to)}, each one whole unless the last of the text. */
        Typed part(int from, int to) {
            return new Typed(tokens.subList(from, to), open && to == tokens.size(), text);
        }

        /** The text as typed before the last word, when the text ends inside it; else the whole text. */
        String head() {
            if (!open) {
                return text.strip();
            }
            int end = text.length();
            while (end > 0 && isWordChar(text.codePointBefore(end))) {
                end -= Character.charCount(text.codePointBefore(end));
            }
            return text.substring(0, end);
        }

        /** The last word as typed, when the text ends inside it; else empty. */
        String openWord() {
            return open ? text.substring(head().length()) : "";
        }

        private static boolean isWordChar(int codePoint) {
            int type = Character.getType(codePoint);
            return Character.isLetterOrDigit(codePoint)
                    || type == Character.NON_SPACING_MARK
                    || type == Character.COMBINING_SPACING_MARK
                    || type == Character.ENCLOSING_MARK;
        }
    }

    /**
     * One way the typed words read as a date.
     *
     * @param date the date (for a period, its first day)
     * @param template the expression read
     * @param values the number of each of its slots
     * @param typed how many of its slots were typed; the others were filled with their usual values
     * @param typo whether a typed word was read with a typo forgiven
     */
    record Reading(LocalDate date, Template template, int[] values, int typed, boolean typo) {}

    DateReader {
        templates = List.copyOf(requireNonNull(templates, "templates is null"));
        requireNonNull(today, "today is null");
    }

    /**
     * The distinct dates the whole text says, earliest first: every day of a period ({@code next week}); a date
     * written twice ({@code 12 March 2027 (Friday)}, {@code tomorrow, Thursday 5 March}) when the two agree;
     * empty when it is no complete expression.
     */
    List<LocalDate> dates(Typed typed) {
        List<LocalDate> dates = daysOf(readings(typed));
        return dates.isEmpty() ? writtenTwice(typed) : dates;
    }

    /** Every day the readings say, earliest first. */
    private List<LocalDate> daysOf(List<Reading> readings) {
        Set<LocalDate> dates = new TreeSet<>();
        for (Reading reading : readings) {
            for (LocalDate day = reading.date(); covers(reading, day); day = day.plusDays(1)) {
                dates.add(day);
            }
        }
        return List.copyOf(dates);
    }

    /** Whether the reading says the date: it is its date, or a day of its period. */
    boolean covers(Reading reading, LocalDate date) {
        Template template = reading.template();
        LocalDate last =
                template.last() == null ? reading.date() : template.last().resolve(reading.values(), today);
        return !date.isBefore(reading.date()) && !date.isAfter(last);
    }

    /** The readings of the whole text as one expression, every word as typed. */
    List<Reading> readings(Typed typed) {
        List<Reading> readings = new ArrayList<>();
        if (typed.tokens().size() <= Grammar.LONGEST) {
            for (Template template : templates) {
                walk(template, typed.closed(), 0, Mode.WHOLE, (date, complete, rank, values) -> {
                    readings.add(new Reading(date, template, values, values.length, false));
                    return true;
                });
            }
        }
        return readings;
    }

    /**
     * The readings of the whole text as one expression with its last word as typed or completed, in the order of
     * the templates: {@code 12 mar} is {@code 12 March} in English and {@code 12 mars} in French.
     */
    List<Reading> readingsAsTyped(Typed typed) {
        List<Reading> readings = new ArrayList<>();
        if (typed.tokens().size() <= Grammar.LONGEST) {
            for (Template template : templates) {
                walk(template, typed, 0, Mode.OPTIONS, (date, complete, rank, values) -> {
                    readings.add(new Reading(date, template, values, values.length, false));
                    return true;
                });
            }
        }
        return readings;
    }

    /** The readings of the whole text with typos forgiven in its words ({@code tomorow}, {@code fridya}). */
    List<Reading> corrected(Typed typed) {
        List<Reading> readings = new ArrayList<>();
        if (typed.tokens().size() <= Grammar.LONGEST) {
            for (Template template : templates) {
                walk(template, typed.closed(), 0, Mode.TYPOS, (date, complete, rank, values) -> {
                    if (template.last() == null) {
                        readings.add(new Reading(date, template, values, values.length, true));
                    }
                    return true;
                });
            }
        }
        return readings;
    }

    /**
     * A day and month that make no date ({@code 31 february}, {@code 31/04}) read as the last day of that month:
     * what the user most likely meant, to be confirmed.
     */
    List<Reading> lastDayInstead(Typed typed) {
        List<Reading> readings = new ArrayList<>();
        List<String> tokens = typed.tokens();
        for (Template template : templates) {
            List<Slot> slots = template.slots();
            int day = template.slotOf(Slot.Kind.DAY);
            if (day < 0 || !template.has(Slot.Kind.MONTH) || slots.size() != tokens.size()) {
                continue;
            }
            int[] values = new int[slots.size()];
            boolean whole = true;
            for (int i = 0; i < values.length; i++) {
                values[i] = slots.get(i).value(tokens.get(i));
                whole &= values[i] >= 0;
            }
            if (!whole || template.resolver().resolve(values, today) != null) {
                continue;
            }
            // The month's last day in its next occurrence: 28 February 2027 rather than 29 February 2028.
            Reading best = null;
            for (int shorter = values[day] - 1; shorter >= 28; shorter--) {
                values[day] = shorter;
                LocalDate date = template.resolver().resolve(values, today);
                if (date != null && (best == null || YearMonth.from(date).isBefore(YearMonth.from(best.date())))) {
                    best = new Reading(date, template, values.clone(), values.length, true);
                }
            }
            if (best != null) {
                readings.add(best);
            }
        }
        return readings;
    }

    /**
     * Whether the text ends inside a word that reads whole but is also the start of a longer one ({@code 12 mar}
     * of {@code 12 march}): the user may still be typing it.
     */
    boolean endsInShortForm(Typed typed) {
        if (!typed.open()) {
            return false;
        }
        int last = typed.tokens().size() - 1;
        for (Reading reading : readings(typed)) {
            if (reading.template().slots().get(last).isShortForm(typed.tokens().get(last))) {
                return true;
            }
        }
        return false;
    }

    /**
     * An expression followed by the date it says written out ({@code tomorrow, Thursday 5 March},
     * {@code 12 March 2027 (Friday)}, {@code 12/03, Thursday 12 March}), as the engine's options write it:
     * the days the first part says that the second part says too, reckoned from the day before each.
     */
    private List<LocalDate> writtenTwice(Typed typed) {
        int n = typed.tokens().size();
        Set<LocalDate> dates = new TreeSet<>();
        for (int split = Math.max(1, n - Grammar.LONGEST); split < n && split <= Grammar.LONGEST; split++) {
            Typed second = typed.part(split, n).closed();
            for (LocalDate date : daysOf(readings(typed.part(0, split)))) {
                if (new DateReader(templates, date.minusDays(1))
                        .readings(second).stream()
                                .anyMatch(reading -> reading.date().equals(date)
                                        && reading.template().last() == null)) {
                    dates.add(date);
                }
            }
        }
        return List.copyOf(dates);
    }

    /** Whether the text is a proper prefix of an expression that says a date (any date, past ones too). */
    boolean startsDate(Typed typed) {
        if (typed.tokens().size() > Grammar.LONGEST) {
            return false;
        }
        for (Template template : templates) {
            if (!walk(template, typed, Grammar.LONGEST, Mode.WHOLE, (date, complete, rank, values) -> complete)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The readings, today or later, of the expressions the text is a proper prefix of, one per date: those that
     * need the least more typing first (a word completed, then each word added), earliest first among equals;
     * enough of them for {@code wanted} options, and possibly more.
     */
    List<Reading> completions(Typed typed, int wanted) {
        Map<LocalDate, Reading> best = new HashMap<>();
        Map<LocalDate, Integer> ranks = new HashMap<>();
        if (typed.tokens().size() <= Grammar.LONGEST) {
            // Templates with more words to add only rank lower: stop adding words once enough dates rank higher.
            for (int untyped = 0; untyped <= MOST_UNTYPED_IN_OPTIONS; untyped++) {
                for (Template template : templates) {
                    if (template.slots().size() - typed.tokens().size() == untyped) {
                        walk(template, typed, untyped, Mode.OPTIONS, (date, complete, rank, values) -> {
                            if (!complete
                                    && !date.isBefore(today)
                                    && rank < ranks.getOrDefault(date, Integer.MAX_VALUE)) {
                                ranks.put(date, rank);
                                best.put(
                                        date,
                                        new Reading(
                                                date,
                                                template,
                                                values,
                                                typed.tokens().size(),
                                                false));
                            }
                            return true;
                        });
                    }
                }
                int settled = untyped;
                if (ranks.values().stream().filter(rank -> rank <= settled).count() >= wanted) {
                    break;
                }
            }
        }
        return best.values().stream()
                .sorted(Comparator.<Reading>comparingInt(reading -> ranks.get(reading.date()))
                        .thenComparing(Reading::date))
                .toList();
    }

    /** How {@link #walk} reads the typed words. */
    private enum Mode {
        /** As typed. */
        WHOLE,
        /** As typed, a year being typed standing for the nearest years from this one only. */
        OPTIONS,
        /** Each whole word as typed or, when it is no form of its slot, with a typo forgiven. */
        TYPOS
    }

    /** Receives the dates a template may say; returns false to stop. */
    @FunctionalInterface
    private interface Sink {
        /**
         * @param complete whether the date is what the typed words say as they are (no word added or completed)
         * @param rank how much more typing the date needs: words added, plus one when the last word is completed
         * @param values the number of each slot, the sink's own copy
         */
        boolean accept(LocalDate date, boolean complete, int rank, int[] values);
    }

    /**
     * Feeds the sink every date the template says with the typed words in its first slots: the last word, when
     * open, in any form it starts; the slots after the typed words (at most {@code mostUntyped}) filled with
     * their usual values. For options, a year being typed stands for the nearest years from this one only.
     * Returns false when the sink stopped.
     */
    private boolean walk(Template template, Typed typed, int mostUntyped, Mode mode, Sink sink) {
        List<Slot> slots = template.slots();
        List<String> tokens = typed.tokens();
        int typedCount = tokens.size();
        int length = slots.size();
        int untyped = length - typedCount;
        if (typedCount == 0 || untyped < 0 || untyped > mostUntyped) {
            return true;
        }
        int[][] choices = new int[length][];
        int lastWhole = -1;
        for (int i = 0; i < typedCount; i++) {
            Slot slot = slots.get(i);
            int whole = slot.value(tokens.get(i));
            boolean last = i == typedCount - 1;
            if (last) {
                lastWhole = whole;
            }
            if (last && typed.open()) {
                choices[i] = slot.valuesStartingWith(tokens.get(i));
                if (mode == Mode.OPTIONS && slot.kind() == Slot.Kind.YEAR) {
                    // A year's first digits start a century of years: offer the nearest ones only.
                    choices[i] = IntStream.of(choices[i])
                            .filter(year -> year >= today.getYear())
                            .limit(YEARS_OFFERED)
                            .toArray();
                }
            } else if (whole < 0 && mode == Mode.TYPOS) {
                choices[i] = slot.valuesWithinTypos(tokens.get(i));
            } else {
                choices[i] = whole < 0 ? new int[0] : new int[] {whole};
            }
            if (choices[i].length == 0) {
                return true;
            }
        }
        for (int i = typedCount; i < length; i++) {
            choices[i] = slots.get(i).untyped(today);
            if (choices[i].length == 0) {
                return true;
            }
        }
        int[] at = new int[length];
        int[] values = new int[length];
        while (true) {
            for (int i = 0; i < length; i++) {
                values[i] = choices[i][at[i]];
            }
            LocalDate date = template.resolver().resolve(values, today);
            if (date != null) {
                boolean lastAsTyped = values[typedCount - 1] == lastWhole;
                if (!sink.accept(date, untyped == 0 && lastAsTyped, untyped + (lastAsTyped ? 0 : 1), values.clone())) {
                    return false;
                }
            }
            int i = length - 1;
            while (i >= 0 && ++at[i] == choices[i].length) {
                at[i] = 0;
                i--;
            }
            if (i < 0) {
                return true;
            }
        }
    }
}
