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
        String expression =
                expression(reading, typed, language).replaceAll("\\s+", " ").strip();
        String display = language.display(date);
        if (display.toLowerCase(Locale.ROOT).startsWith(expression.toLowerCase(Locale.ROOT))
                || sameStart(display, expression, typed.text())) {
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
     * Whether the display text starts with what was typed and says its first word as the reading does: the words not
     * typed are then the display's own, so a German {@code Fr} offers {@code Freitag, 18. Dezember 2026} beside
     * {@code Freitag, 11. Dezember 2026}, not {@code Freitag 18 Dezember 2026} (an end-user trial saw both in one list),
     * while {@code t} still offers {@code tomorrow, …} (the display's {@code Thursday} is another word).
     */
    private static boolean sameStart(String display, String expression, String typed) {
        String typedText = typed.replaceAll("\\s+", " ").strip().toLowerCase(Locale.ROOT);
        return !typedText.isEmpty()
                && display.toLowerCase(Locale.ROOT).startsWith(typedText)
                && firstWord(display).equalsIgnoreCase(firstWord(expression));
    }

    private static String firstWord(String text) {
        int end = 0;
        while (end < text.length() && Character.isLetterOrDigit(text.codePointAt(end))) {
            end += Character.charCount(text.codePointAt(end));
        }
        return text.substring(0, end);
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
    private static String expression(Reading reading, Typed typed, DateLanguage language) {
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
            Slot slot = slots.get(i);
            if (!written.isEmpty()) {
                boolean numbers = !reading.template().namesDayAndMonth() && slot.kind() != Slot.Kind.WORD;
                String between = numbers ? separator : " ";
                if (language == DateLanguage.DE
                        && slot.kind() == Slot.Kind.MONTH
                        && slots.get(i - 1).kind() == Slot.Kind.DAY
                        && Character.isDigit(written.charAt(written.length() - 1))) {
                    written.append('.'); // `18` then the month is `18. Dezember`
                }
                if (!written.toString().endsWith(between)) {
                    written.append(between);
                }
            }
            boolean afterThe = written.toString().toLowerCase(Locale.ROOT).endsWith("the ");
            written.append(slot.kind() == Slot.Kind.DAY && afterThe ? Slot.ordinal(values[i]) : slot.usual(values[i]));
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
