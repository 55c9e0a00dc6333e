package dev.autocomplete.engine.date;

import dev.autocomplete.engine.date.DateReader.Reading;
import dev.autocomplete.engine.date.DateReader.Typed;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;

/**
 * The text of an option for a date read from typed text. It starts with what was typed, its last word
 * completed, because the official client replaces only the tail of the typed text that starts the picked
 * option's text (docs/protocol.md §10): {@code 12 mar} is offered as {@code 12 March 2027 (Friday)},
 * {@code tomorrow} as {@code tomorrow, Thursday 5 March} (capitalised only when what was typed is). Every such text reads back as the same date
 * ({@link DateReader#dates}: a date written twice). Stateless.
 */
final class Wording {

    private Wording() {}

    /**
     * The option text of {@code date}, said by {@code reading} of {@code typed}: the display text when it
     * already starts with the expression; else the expression with the year and weekday for a day and month
     * by name ({@code 12 March 2027 (Friday)}); else the expression and the date
     * ({@code in 3 days, Saturday 7 March}, {@code next week, Tuesday 10 March}), its first letter a capital only
     * when the typed text's is.
     */
    static String text(Reading reading, LocalDate date, Typed typed, DateLanguage language, LocalDate today) {
        String expression = expression(reading, typed).replaceAll("\\s+", " ").strip();
        String display = language.display(date);
        if (display.toLowerCase(Locale.ROOT).startsWith(expression.toLowerCase(Locale.ROOT))) {
            return display;
        }
        Template template = reading.template();
        String text;
        if (template.namesDayAndMonth() && template.last() == null) {
            boolean monthFirst = template.slots().getLast().kind() == Slot.Kind.DAY;
            text = expression
                    + (template.has(Slot.Kind.YEAR) ? "" : (monthFirst ? ", " : " ") + date.getYear())
                    + (template.has(Slot.Kind.WEEKDAY)
                            ? ""
                            : " (" + language.weekdays().get(date.getDayOfWeek().getValue() - 1) + ")");
        } else {
            String yearSuffix = " " + date.getYear();
            String shortDisplay = date.getYear() == today.getYear() && display.endsWith(yearSuffix)
                    ? display.substring(0, display.length() - yearSuffix.length())
                    : display;
            text = expression + ", " + shortDisplay;
        }
        return typedCapital(typed.text()) ? text.substring(0, 1).toUpperCase(Locale.ROOT) + text.substring(1) : text;
    }

    /**
     * Whether the option starts with a capital because the typed text did: a pick replaces the typed tail with the
     * option, mid-sentence as a rule ({@code … to London tomorrow, Thursday 5 March}), so a word that is not a name
     * keeps the case it was typed in (an end-user trial read {@code … à Londres Demain, lundi 7 décembre}); names keep
     * their own ({@code next Friday}, {@code nächsten Freitag}).
     */
    private static boolean typedCapital(String typed) {
        String stripped = typed.strip();
        return !stripped.isEmpty() && Character.isUpperCase(stripped.codePointAt(0));
    }

    /**
     * The expression as typed, its last word completed and its untyped words added; written out in the usual
     * words when a typo was forgiven or what was typed cannot be completed.
     */
    private static String expression(Reading reading, Typed typed) {
        List<Slot> slots = reading.template().slots();
        int[] values = reading.values();
        StringBuilder written = new StringBuilder();
        int from = 0;
        if (!reading.typo()) {
            written.append(typed.head());
            if (typed.open()) {
                String completed =
                        slots.get(reading.typed() - 1).written(values[reading.typed() - 1], typed.openWord());
                if (completed == null) {
                    written.setLength(0);
                } else {
                    written.append(completed);
                }
            }
            from = written.isEmpty() ? 0 : reading.typed();
        }
        String separator = separator(typed.text());
        for (int i = from; i < slots.size(); i++) {
            if (!written.isEmpty()) {
                boolean numbers =
                        !reading.template().namesDayAndMonth() && slots.get(i).kind() != Slot.Kind.WORD;
                String between = numbers ? separator : " ";
                if (!written.toString().endsWith(between)) {
                    written.append(between);
                }
            }
            written.append(slots.get(i).usual(values[i]));
        }
        return written.toString();
    }

    /** What joins the numbers of a date written in numbers, as typed ({@code 12/03}, {@code 12.03.}). */
    private static String separator(String typed) {
        for (String separator : List.of("/", ".", "-")) {
            if (typed.contains(separator)) {
                return separator;
            }
        }
        return " ";
    }
}
