package dev.autocomplete.engine.date;

import static java.util.Objects.requireNonNull;

import dev.autocomplete.spi.toolkit.TextFolding;
import dev.autocomplete.spi.toolkit.Typos;
import java.time.LocalDate;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * One word of a date expression: a fixed word, or one of the words that name a day, month, year, weekday or
 * count. Each form a word may take (folded) maps to the number it stands for; fixed words stand for 0.
 * Immutable.
 */
final class Slot {

    /** What a slot's number means. */
    enum Kind {
        WORD,
        DAY,
        MONTH,
        YEAR,
        WEEKDAY,
        COUNT
    }

    /** The years a date may name: wide enough for any booking, narrow enough to enumerate a typed prefix. */
    static final int FIRST_YEAR = 1900;

    static final int LAST_YEAR = 2199;

    private static final int[] NONE = new int[0];

    private final Kind kind;
    private final NavigableMap<String, Integer> forms;
    private final int[] untyped;
    /** The spelling of each form as written (case and accents), where it differs from the folded form. */
    private final Map<String, String> spellings;
    /** The forms that hold a letter: the only ones a typo may be forgiven in. */
    private final List<String> letterForms;
    /** How each value is written when nothing of it was typed: a word's first spelling, or the names; else empty. */
    private final List<String> usual;

    /**
     * @param kind what the word stands for
     * @param forms every folded form of the word, with the number it stands for
     * @param untyped the numbers to try when the word is not typed yet, to complete an expression (a year's
     *     depend on today and are not listed)
     */
    private Slot(Kind kind, NavigableMap<String, Integer> forms, List<Integer> untyped) {
        this(kind, forms, untyped, Map.of(), List.of());
    }

    private Slot(
            Kind kind,
            NavigableMap<String, Integer> forms,
            List<Integer> untyped,
            Map<String, String> spellings,
            List<String> usual) {
        this.usual = List.copyOf(usual);
        this.kind = requireNonNull(kind, "kind is null");
        this.forms = Collections.unmodifiableNavigableMap(new TreeMap<>(requireNonNull(forms, "forms is null")));
        this.untyped = untyped.stream().mapToInt(Integer::intValue).toArray();
        this.spellings = Map.copyOf(spellings);
        this.letterForms = forms.keySet().stream()
                .filter(form -> form.chars().anyMatch(Character::isLetter))
                .toList();
    }

    Kind kind() {
        return kind;
    }

    /** Whether the slot is a month or weekday by name. */
    boolean isNamed() {
        return kind != Kind.WORD && !usual.isEmpty();
    }

    /** A fixed word, in any of the spellings given (folded here). */
    static Slot words(String... spellings) {
        NavigableMap<String, Integer> forms = new TreeMap<>();
        Map<String, String> written = new LinkedHashMap<>();
        for (String spelling : spellings) {
            forms.put(TextFolding.fold(spelling), 0);
            written.putIfAbsent(TextFolding.fold(spelling), spelling);
        }
        // The first spelling is how an expression is written out when the word was not typed.
        return new Slot(Kind.WORD, forms, List.of(0), written, List.of(spellings[0]));
    }

    /** A day of the month: {@code 1} to {@code 31}, {@code 01}, and the ordinals {@code 1st}, {@code 1er}. */
    static Slot day() {
        NavigableMap<String, Integer> forms = numbers(1, 31);
        for (int day = 1; day <= 31; day++) {
            forms.put(ordinal(day), day);
        }
        forms.put("1er", 1);
        return new Slot(Kind.DAY, forms, range(1, 31));
    }

    /** An English ordinal: {@code 1st}, {@code 2nd}, {@code 11th}, {@code 23rd}. */
    static String ordinal(int day) {
        int last = day % 10;
        return day
                + (day / 10 % 10 == 1 || last > 3 || last == 0
                        ? "th"
                        : List.of("st", "nd", "rd").get(last - 1));
    }

    /** A month by number, {@code 1} to {@code 12} or {@code 01}, as in {@code 2026-03-12}. */
    static Slot monthNumber() {
        return new Slot(Kind.MONTH, numbers(1, 12), range(1, 12));
    }

    /** A month by name, January first, in the given names plus other spellings (folded here). */
    static Slot monthName(List<String> names, Map<String, Integer> otherSpellings) {
        return named(Kind.MONTH, names, otherSpellings);
    }

    /** A weekday by name, Monday first, in the given names plus other spellings (folded here). */
    static Slot weekday(List<String> names, Map<String, Integer> otherSpellings) {
        return named(Kind.WEEKDAY, names, otherSpellings);
    }

    /** A four-digit year. */
    static Slot year() {
        NavigableMap<String, Integer> forms = new TreeMap<>();
        for (int year = FIRST_YEAR; year <= LAST_YEAR; year++) {
            forms.put(Integer.toString(year), year);
        }
        return new Slot(Kind.YEAR, forms, List.of());
    }

    /** A count of days or weeks: {@code 1} to {@code 999}, or a number word such as {@code a} or {@code une}. */
    static Slot count(Map<String, Integer> words) {
        NavigableMap<String, Integer> forms = new TreeMap<>();
        for (int n = 1; n <= 999; n++) {
            forms.put(Integer.toString(n), n);
        }
        words.forEach((word, n) -> forms.put(TextFolding.fold(word), n));
        return new Slot(Kind.COUNT, forms, List.of(1, 2, 3));
    }

    /** The number a whole folded token stands for, or -1. */
    int value(String token) {
        Integer value = forms.get(token);
        return value == null ? -1 : value;
    }

    /** The numbers of every form that starts with a folded token (the token may still be being typed). */
    int[] valuesStartingWith(String token) {
        // Most tokens start no form: answer those without building a view of the map.
        String first = forms.ceilingKey(token);
        if (first == null || !first.startsWith(token)) {
            return NONE;
        }
        return forms.subMap(token, true, token + Character.MAX_VALUE, false).values().stream()
                .mapToInt(Integer::intValue)
                .distinct()
                .toArray();
    }

    /** The numbers to try for this slot when nothing of it is typed; the caller must not change them. */
    int[] untyped(LocalDate today) {
        if (kind == Kind.YEAR) {
            return new int[] {today.getYear(), today.getYear() + 1};
        }
        return untyped;
    }

    private static Slot named(Kind kind, List<String> names, Map<String, Integer> otherSpellings) {
        NavigableMap<String, Integer> forms = new TreeMap<>();
        Map<String, String> written = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            forms.put(TextFolding.fold(names.get(i)), i + 1);
            written.put(TextFolding.fold(names.get(i)), names.get(i));
        }
        otherSpellings.forEach((spelling, n) -> {
            forms.put(TextFolding.fold(spelling), n);
            written.putIfAbsent(TextFolding.fold(spelling), spelling);
        });
        return new Slot(kind, forms, range(1, names.size()), written, names);
    }

    /**
     * The number a whole folded token stands for with the typos {@link Typos} forgives, other than itself:
     * {@code tomorow} for {@code tomorrow}, {@code fridya} for {@code friday}. Digits are never forgiven.
     */
    int[] valuesWithinTypos(String token) {
        if (Typos.budget(token) == 0 || token.chars().noneMatch(Character::isLetter)) {
            return NONE;
        }
        return letterForms.stream()
                .filter(form -> !form.equals(token) && Typos.distance(token, form) < Typos.NEVER)
                .mapToInt(forms::get)
                .distinct()
                .toArray();
    }

    /** Whether a whole folded token is a short name, the start of a longer one ({@code mar} of {@code march}). */
    boolean isShortForm(String token) {
        String next = forms.higherKey(token);
        return isNamed()
                && next != null
                && next.startsWith(token)
                && token.chars().allMatch(Character::isLetter);
    }

    /**
     * How the value is written when it completes a word typed as {@code typed} (as typed, not folded), so that it
     * starts with what was typed, ignoring case: its usual spelling when it does ({@code mar} gives
     * {@code March}), else the shortest other spelling that does ({@code 12t} gives {@code 12th}), else what was
     * typed completed by the rest of a folded form ({@code maer} gives {@code maerz}); null when none does.
     */
    String written(int value, String typed) {
        String folded = TextFolding.fold(typed);
        String best = usual(value);
        if (best.toLowerCase(Locale.ROOT).startsWith(typed.toLowerCase(Locale.ROOT))) {
            return best;
        }
        best = null;
        for (Map.Entry<String, Integer> form : forms.entrySet()) {
            if (form.getValue() != value || !form.getKey().startsWith(folded)) {
                continue;
            }
            String spelling = spellings.getOrDefault(form.getKey(), form.getKey());
            // What was typed, completed with the form's letters, only when it holds no accent the form lacks: `Mä`
            // is never completed as `Mäi` (an end-user trial), though `Ma` is as `Mar`.
            boolean plain = typed.toLowerCase(Locale.ROOT).equals(folded);
            String candidate = spelling.toLowerCase(Locale.ROOT).startsWith(typed.toLowerCase(Locale.ROOT))
                    ? spelling
                    : plain && folded.length() == typed.length()
                            ? typed + form.getKey().substring(folded.length())
                            : null;
            if (candidate != null && (best == null || candidate.length() < best.length())) {
                best = candidate;
            }
        }
        return best;
    }

    /** How the value is written when nothing of it was typed. */
    String usual(int value) {
        if (usual.isEmpty()) {
            return Integer.toString(value);
        }
        return kind == Kind.WORD ? usual.getFirst() : usual.get(value - 1);
    }

    private static NavigableMap<String, Integer> numbers(int from, int to) {
        NavigableMap<String, Integer> forms = new TreeMap<>();
        for (int n = from; n <= to; n++) {
            forms.put(Integer.toString(n), n);
            if (n < 10) {
                forms.put("0" + n, n);
            }
        }
        return forms;
    }

    private static List<Integer> range(int from, int to) {
        return IntStream.rangeClosed(from, to).boxed().toList();
    }
}
