package dev.autocomplete.engine.date;

import static java.util.Objects.requireNonNull;

import dev.autocomplete.spi.toolkit.Words;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
     */
    record Typed(List<String> tokens, boolean open) {

        Typed {
            tokens = List.copyOf(requireNonNull(tokens, "tokens is null"));
        }

        static Typed of(String text) {
            List<String> tokens = new ArrayList<>();
            for (Words.Word word : Words.of(text, 0)) {
                tokens.addAll(List.of(word.folded().split(" ")));
            }
            boolean open = !tokens.isEmpty() && isWordChar(text.codePointBefore(text.length()));
            return new Typed(tokens, open);
        }

        /** The same words, each one whole. */
        Typed closed() {
            return new Typed(tokens, false);
        }

        private static boolean isWordChar(int codePoint) {
            int type = Character.getType(codePoint);
            return Character.isLetterOrDigit(codePoint) || type == Character.NON_SPACING_MARK
                    || type == Character.COMBINING_SPACING_MARK || type == Character.ENCLOSING_MARK;
        }
    }

    DateReader {
        templates = List.copyOf(requireNonNull(templates, "templates is null"));
        requireNonNull(today, "today is null");
    }

    /** The distinct dates the whole text says, earliest first; empty when it is no complete expression. */
    List<LocalDate> dates(Typed typed) {
        Set<LocalDate> dates = new LinkedHashSet<>();
        if (typed.tokens().size() <= Grammar.LONGEST) {
            for (Template template : templates) {
                walk(template, typed.closed(), 0, false, (date, complete, rank) -> {
                    dates.add(date);
                    return true;
                });
            }
        }
        return dates.stream().sorted().toList();
    }

    /** Whether the text is a proper prefix of an expression that says a date (any date, past ones too). */
    boolean startsDate(Typed typed) {
        if (typed.tokens().size() > Grammar.LONGEST) {
            return false;
        }
        for (Template template : templates) {
            if (!walk(template, typed, Grammar.LONGEST, false, (date, complete, rank) -> complete)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The dates, today or later, of the expressions the text is a proper prefix of: those that need the least
     * more typing first (a word completed, then each word added), earliest first among equals; enough of them
     * for {@code wanted} options, and possibly more.
     */
    List<LocalDate> completions(Typed typed, int wanted) {
        Map<LocalDate, Integer> ranks = new HashMap<>();
        if (typed.tokens().size() <= Grammar.LONGEST) {
            // Templates with more words to add only rank lower: stop adding words once enough dates rank higher.
            for (int untyped = 0; untyped <= MOST_UNTYPED_IN_OPTIONS; untyped++) {
                for (Template template : templates) {
                    if (template.slots().size() - typed.tokens().size() == untyped) {
                        walk(template, typed, untyped, true, (date, complete, rank) -> {
                            if (!complete && !date.isBefore(today)) {
                                ranks.merge(date, rank, Math::min);
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
        return ranks.entrySet().stream()
                .sorted(Map.Entry.<LocalDate, Integer>comparingByValue().thenComparing(Map.Entry.comparingByKey()))
                .map(Map.Entry::getKey)
                .toList();
    }

    /** Receives the dates a template may say; returns false to stop. */
    @FunctionalInterface
    private interface Sink {
        /**
         * @param complete whether the date is what the typed words say as they are (no word added or completed)
         * @param rank how much more typing the date needs: words added, plus one when the last word is completed
         */
        boolean accept(LocalDate date, boolean complete, int rank);
    }

    /**
     * Feeds the sink every date the template says with the typed words in its first slots: the last word, when
     * open, in any form it starts; the slots after the typed words (at most {@code mostUntyped}) filled with
     * their usual values. For options, a year being typed stands for the nearest years from this one only.
     * Returns false when the sink stopped.
     */
    private boolean walk(Template template, Typed typed, int mostUntyped, boolean forOptions, Sink sink) {
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
                if (forOptions && slot.kind() == Slot.Kind.YEAR) {
                    // A year's first digits start a century of years: offer the nearest ones only.
                    choices[i] = IntStream.of(choices[i]).filter(year -> year >= today.getYear())
                            .limit(YEARS_OFFERED).toArray();
                }
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
                if (!sink.accept(date, untyped == 0 && lastAsTyped, untyped + (lastAsTyped ? 0 : 1))) {
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
