package dev.autocomplete.engine.date;

import static dev.autocomplete.engine.date.Slot.words;
import static dev.autocomplete.engine.date.Template.calendar;
import static dev.autocomplete.engine.date.Template.comingWeekday;
import static dev.autocomplete.engine.date.Template.counted;
import static dev.autocomplete.engine.date.Template.daysFromToday;
import static dev.autocomplete.engine.date.Template.weekdayOfNextWeek;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The date expressions the engine reads, per language, as {@link Template}s over folded words. Immutable.
 *
 * <ul>
 * <li>en: {@code today}, {@code tomorrow}, {@code day after tomorrow}, {@code friday}, {@code this friday},
 *     {@code next friday}, {@code in 3 days}, {@code in a week}, {@code 12 March}, {@code 12th of March},
 *     {@code March 12}, each with an optional year and leading weekday ({@code Thursday 12 March 2026});</li>
 * <li>fr: {@code aujourd'hui}, {@code demain}, {@code après-demain}, {@code vendredi}, {@code ce vendredi},
 *     {@code vendredi prochain}, {@code dans 3 jours}, {@code dans une semaine}, {@code 12 mars},
 *     {@code 1er avril 2027}, {@code jeudi 12 mars 2026}, {@code 12/03/2026};</li>
 * <li>de: {@code heute}, {@code morgen}, {@code übermorgen}, {@code Freitag}, {@code diesen Freitag},
 *     {@code nächsten Freitag}, {@code in 3 Tagen}, {@code in einer Woche}, {@code 12. März},
 *     {@code Donnerstag, 12. März 2026}, {@code 12.03.2026};</li>
 * <li>any language: ISO dates, {@code 2026-03-12}.</li>
 * </ul>
 */
final class Grammar {

    /** The most words an expression has: a span longer than this is no date. */
    static final int LONGEST = 4;

    /**
     * Words that join other words ("from Paris to London", "de Paris à Londres", "von Paris nach London") and
     * happen to start a date word ({@code to}: {@code today}; {@code nach}: {@code nächsten}). Alone they are
     * no date in progress, so a connecting word between two params is never read as one.
     */
    static final Set<String> CONNECTING_WORDS = Set.of(
            "a", "an", "and", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to", "with",
            "au", "aux", "d", "de", "des", "du", "en", "et", "l", "la", "le", "les", "ou", "par", "pour", "sur",
            "ab", "am", "bis", "den", "der", "die", "das", "fur", "im", "mit", "nach", "oder",
            "um", "und", "von", "vom", "zu", "zum", "zur");

    private static final Slot DAY = Slot.day();
    private static final Slot MONTH_NUMBER = Slot.monthNumber();
    private static final Slot YEAR = Slot.year();

    private static final Map<DateLanguage, List<Template>> BY_LANGUAGE = byLanguage();
    private static final Map<Set<DateLanguage>, List<Template>> BY_LANGUAGES = byLanguages();

    private Grammar() {
    }

    /** The templates of the given languages, plus those of any language. */
    static List<Template> templates(Set<DateLanguage> languages) {
        return BY_LANGUAGES.get(languages);
    }

    private static Map<DateLanguage, List<Template>> byLanguage() {
        Map<DateLanguage, List<Template>> templates = new EnumMap<>(DateLanguage.class);
        templates.put(DateLanguage.EN, english());
        templates.put(DateLanguage.FR, french());
        templates.put(DateLanguage.DE, german());
        return templates;
    }

    private static Map<Set<DateLanguage>, List<Template>> byLanguages() {
        // Every set of languages a request may read in, built once: seven lists of a few dozen templates.
        Map<Set<DateLanguage>, List<Template>> templates = new HashMap<>();
        DateLanguage[] all = DateLanguage.values();
        for (int mask = 0; mask < 1 << all.length; mask++) {
            Set<DateLanguage> languages = EnumSet.noneOf(DateLanguage.class);
            List<Template> list = new ArrayList<>(List.of(calendar(YEAR, MONTH_NUMBER, DAY)));
            for (int i = 0; i < all.length; i++) {
                if ((mask & 1 << i) != 0) {
                    languages.add(all[i]);
                    list.addAll(BY_LANGUAGE.get(all[i]));
                }
            }
            templates.put(Set.copyOf(languages), List.copyOf(list));
        }
        return Map.copyOf(templates);
    }

    private static List<Template> english() {
        DateLanguage en = DateLanguage.EN;
        Slot weekday = Slot.weekday(en.weekdays(), Map.of());
        Slot month = Slot.monthName(en.months(), Map.of());
        Slot count = Slot.count(Map.of("a", 1, "one", 1, "two", 2, "three", 3));
        Slot of = words("of");
        List<Template> templates = new ArrayList<>(List.of(
                daysFromToday(0, words("today")),
                daysFromToday(1, words("tomorrow")),
                daysFromToday(2, words("day"), words("after"), words("tomorrow")),
                comingWeekday(weekday),
                comingWeekday(words("this"), weekday),
                weekdayOfNextWeek(words("next"), weekday),
                counted(1, words("in"), count, words("day", "days")),
                counted(7, words("in"), count, words("week", "weeks")),
                calendar(DAY, of, month),
                calendar(DAY, of, month, YEAR),
                calendar(month, DAY),
                calendar(month, DAY, YEAR),
                calendar(weekday, month, DAY),
                calendar(weekday, month, DAY, YEAR)));
        templates.addAll(dayFirst(weekday, month));
        return List.copyOf(templates);
    }

    private static List<Template> french() {
        DateLanguage fr = DateLanguage.FR;
        Slot weekday = Slot.weekday(fr.weekdays(), Map.of());
        Slot month = Slot.monthName(fr.months(), Map.of());
        Slot count = Slot.count(Map.of("un", 1, "une", 1, "deux", 2, "trois", 3));
        List<Template> templates = new ArrayList<>(List.of(
                daysFromToday(0, words("aujourd"), words("hui")),
                daysFromToday(0, words("aujourdhui")),
                daysFromToday(1, words("demain")),
                daysFromToday(2, words("après"), words("demain")),
                comingWeekday(weekday),
                comingWeekday(words("ce"), weekday),
                weekdayOfNextWeek(weekday, words("prochain")),
                counted(1, words("dans"), count, words("jour", "jours")),
                counted(7, words("dans"), count, words("semaine", "semaines")),
                calendar(DAY, MONTH_NUMBER, YEAR)));
        templates.addAll(dayFirst(weekday, month));
        return List.copyOf(templates);
    }

    private static List<Template> german() {
        DateLanguage de = DateLanguage.DE;
        Slot weekday = Slot.weekday(de.weekdays(), Map.of("Sonnabend", 6));
        Slot month = Slot.monthName(de.months(), Map.of("Maerz", 3));
        Slot count = Slot.count(Map.of("ein", 1, "eine", 1, "einem", 1, "einer", 1, "zwei", 2, "drei", 3));
        List<Template> templates = new ArrayList<>(List.of(
                daysFromToday(0, words("heute")),
                daysFromToday(1, words("morgen")),
                daysFromToday(2, words("übermorgen", "uebermorgen")),
                comingWeekday(weekday),
                comingWeekday(words("diesen", "dieser", "diese"), weekday),
                weekdayOfNextWeek(words("nächsten", "nächster", "nächste", "naechsten", "naechster", "naechste"),
                        weekday),
                counted(1, words("in"), count, words("Tag", "Tage", "Tagen")),
                counted(7, words("in"), count, words("Woche", "Wochen")),
                calendar(DAY, MONTH_NUMBER, YEAR)));
        templates.addAll(dayFirst(weekday, month));
        return List.copyOf(templates);
    }

    /** {@code 12 March}, {@code 12 March 2027}, {@code Thursday 12 March}, {@code Thursday 12 March 2026}. */
    private static List<Template> dayFirst(Slot weekday, Slot month) {
        return List.of(
                calendar(DAY, month),
                calendar(DAY, month, YEAR),
                calendar(weekday, DAY, month),
                calendar(weekday, DAY, month, YEAR));
    }
}
