package dev.autocomplete.engine.date;

import static dev.autocomplete.engine.date.Slot.words;
import static dev.autocomplete.engine.date.Template.calendar;
import static dev.autocomplete.engine.date.Template.comingWeekday;
import static dev.autocomplete.engine.date.Template.counted;
import static dev.autocomplete.engine.date.Template.dayOfMonth;
import static dev.autocomplete.engine.date.Template.daysFromToday;
import static dev.autocomplete.engine.date.Template.endOfThisMonth;
import static dev.autocomplete.engine.date.Template.partOfMonth;
import static dev.autocomplete.engine.date.Template.week;
import static dev.autocomplete.engine.date.Template.weekdayOfNextWeek;
import static dev.autocomplete.engine.date.Template.weekend;

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
 * Besides: short month and weekday names ({@code Dec 24th}, {@code 3 déc}, {@code 24. Dez}), a day alone
 * ({@code the 12th}), periods ({@code next week}, {@code ce week-end}, {@code Anfang März}), and days and months
 * in numbers in the order of the request's region ({@link #numeric}).
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
            "a", "an", "and", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to", "with", "au", "aux", "d",
            "de", "des", "du", "en", "et", "l", "la", "le", "les", "ou", "par", "pour", "sur", "ab", "am", "bis", "den",
            "der", "die", "das", "fur", "im", "mit", "nach", "oder", "um", "und", "von", "vom", "zu", "zum", "zur");

    private static final Slot DAY = Slot.day();
    private static final Slot MONTH_NUMBER = Slot.monthNumber();
    private static final Slot YEAR = Slot.year();

    private static final Map<DateLanguage, List<Template>> BY_LANGUAGE = byLanguage();
    private static final Map<Set<DateLanguage>, List<Template>> BY_LANGUAGES = byLanguages();

    private Grammar() {}

    /** The templates of the given languages, plus those of any language. */
    static List<Template> templates(Set<DateLanguage> languages) {
        return BY_LANGUAGES.get(languages);
    }

    /** How a language and region write a day and month in numbers: {@code 12/03} is 12 March or 3 December. */
    enum DayOrder {
        /** Day first: fr, de, en-GB and every other English but the US's. */
        DAY_MONTH,
        /** Month first: en-US. */
        MONTH_DAY,
        /** English without a region: either, so {@code 12/03} is both dates. */
        EITHER;

        /** The order of a language tag such as {@code en-us}, {@code en}, {@code fr-ca}. */
        static DayOrder of(String tag) {
            String lower = tag.toLowerCase(java.util.Locale.ROOT);
            if (lower.equals("en-us") || lower.startsWith("en-us-")) {
                return MONTH_DAY;
            }
            return lower.equals("en") ? EITHER : DAY_MONTH;
        }
    }

    /** {@code 12/03}, {@code 12.03.2026}, {@code 12-03} in the given order, with or without a year. */
    static List<Template> numeric(DayOrder order) {
        return switch (order) {
            case DAY_MONTH -> DAY_MONTH_NUMBERS;
            case MONTH_DAY -> MONTH_DAY_NUMBERS;
            case EITHER -> EITHER_NUMBERS;
        };
    }

    private static final List<Template> DAY_MONTH_NUMBERS =
            List.of(calendar(DAY, MONTH_NUMBER), calendar(DAY, MONTH_NUMBER, YEAR));
    private static final List<Template> MONTH_DAY_NUMBERS =
            List.of(calendar(MONTH_NUMBER, DAY), calendar(MONTH_NUMBER, DAY, YEAR));
    private static final List<Template> EITHER_NUMBERS = java.util.stream.Stream.concat(
                    DAY_MONTH_NUMBERS.stream(), MONTH_DAY_NUMBERS.stream())
            .toList();

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
        Slot weekday = Slot.weekday(
                en.weekdays(),
                Map.of(
                        "Mon", 1, "Tue", 2, "Tues", 2, "Wed", 3, "Thu", 4, "Thur", 4, "Thurs", 4, "Fri", 5, "Sat", 6,
                        "Sun", 7));
        Slot month = Slot.monthName(
                en.months(),
                Map.ofEntries(
                        Map.entry("Jan", 1),
                        Map.entry("Feb", 2),
                        Map.entry("Mar", 3),
                        Map.entry("Apr", 4),
                        Map.entry("Jun", 6),
                        Map.entry("Jul", 7),
                        Map.entry("Aug", 8),
                        Map.entry("Sep", 9),
                        Map.entry("Sept", 9),
                        Map.entry("Oct", 10),
                        Map.entry("Nov", 11),
                        Map.entry("Dec", 12)));
        Slot count = Slot.count(Map.of("a", 1, "one", 1, "two", 2, "three", 3, "four", 4, "five", 5, "ten", 10));
        Slot of = words("of");
        Slot the = words("the");
        Slot week = words("week");
        Slot weekend = words("weekend");
        Slot monthWord = words("month");
        List<Template> templates = new ArrayList<>(List.of(
                dayOfMonth(the, DAY),
                week(0, words("this"), week),
                week(1, words("next"), week),
                weekend(0, words("this"), weekend),
                weekend(0, weekend),
                weekend(0, the, weekend),
                weekend(1, words("next"), weekend),
                endOfThisMonth(words("end"), of, the, monthWord),
                endOfThisMonth(words("end"), of, words("this"), monthWord),
                endOfThisMonth(words("end"), of, monthWord),
                partOfMonth(1, 10, words("early"), month),
                partOfMonth(11, 20, words("mid"), month),
                partOfMonth(21, 0, words("late"), month),
                partOfMonth(-1, 0, words("end"), of, month),
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
        Slot month = Slot.monthName(
                fr.months(),
                Map.ofEntries(
                        Map.entry("janv", 1),
                        Map.entry("févr", 2),
                        Map.entry("fév", 2),
                        Map.entry("avr", 4),
                        Map.entry("juil", 7),
                        Map.entry("sept", 9),
                        Map.entry("oct", 10),
                        Map.entry("nov", 11),
                        Map.entry("déc", 12)));
        Slot count = Slot.count(Map.of("un", 1, "une", 1, "deux", 2, "trois", 3, "quatre", 4, "cinq", 5, "dix", 10));
        Slot semaine = words("semaine");
        Slot[] weekEnd = {words("week"), words("end")};
        Slot mois = words("mois");
        List<Template> templates = new ArrayList<>(List.of(
                week(0, words("cette"), semaine),
                week(1, semaine, words("prochaine")),
                week(1, words("la"), semaine, words("prochaine")),
                weekend(0, words("ce"), weekEnd[0], weekEnd[1]),
                weekend(0, words("ce"), words("weekend")),
                weekend(1, words("le"), weekEnd[0], weekEnd[1], words("prochain")),
                weekend(1, weekEnd[0], weekEnd[1], words("prochain")),
                endOfThisMonth(words("fin"), words("du"), mois),
                endOfThisMonth(words("fin"), words("de"), mois),
                endOfThisMonth(words("fin"), words("ce"), mois),
                partOfMonth(1, 10, words("début"), month),
                partOfMonth(1, 10, words("début"), words("de", "d"), month),
                partOfMonth(11, 20, words("mi"), month),
                partOfMonth(-1, 0, words("fin"), month),
                daysFromToday(0, words("aujourd"), words("hui")),
                daysFromToday(0, words("aujourdhui")),
                daysFromToday(1, words("demain")),
                daysFromToday(2, words("après"), words("demain")),
                comingWeekday(weekday),
                comingWeekday(words("ce"), weekday),
                weekdayOfNextWeek(weekday, words("prochain")),
                counted(1, words("dans"), count, words("jour", "jours")),
                counted(7, words("dans"), count, words("semaine", "semaines")),
                dayOfMonth(words("le"), DAY)));
        templates.addAll(dayFirst(weekday, month));
        return List.copyOf(templates);
    }

    private static List<Template> german() {
        DateLanguage de = DateLanguage.DE;
        Slot weekday = Slot.weekday(de.weekdays(), Map.of("Sonnabend", 6));
        Slot month = Slot.monthName(
                de.months(),
                Map.ofEntries(
                        Map.entry("Maerz", 3),
                        Map.entry("Jan", 1),
                        Map.entry("Feb", 2),
                        Map.entry("Mär", 3),
                        Map.entry("Apr", 4),
                        Map.entry("Jun", 6),
                        Map.entry("Jul", 7),
                        Map.entry("Aug", 8),
                        Map.entry("Sep", 9),
                        Map.entry("Sept", 9),
                        Map.entry("Okt", 10),
                        Map.entry("Nov", 11),
                        Map.entry("Dez", 12)));
        Slot count = Slot.count(Map.of(
                "ein", 1, "eine", 1, "einem", 1, "einer", 1, "zwei", 2, "drei", 3, "vier", 4, "fünf", 5, "zehn", 10));
        Slot woche = words("Woche");
        Slot wochenende = words("Wochenende");
        Slot monats = words("Monats");
        List<Template> templates = new ArrayList<>(List.of(
                week(0, words("diese", "dieser"), woche),
                week(1, words("nächste", "nächster", "naechste", "naechster", "kommende"), woche),
                weekend(0, words("dieses", "diesem"), wochenende),
                weekend(0, wochenende),
                weekend(1, words("nächstes", "nächstem", "naechstes", "naechstem"), wochenende),
                endOfThisMonth(words("Ende"), words("des", "dieses"), monats),
                endOfThisMonth(words("Monatsende")),
                partOfMonth(1, 10, words("Anfang"), month),
                partOfMonth(11, 20, words("Mitte"), month),
                partOfMonth(-1, 0, words("Ende"), month),
                daysFromToday(0, words("heute")),
                daysFromToday(1, words("morgen")),
                daysFromToday(2, words("übermorgen", "uebermorgen")),
                comingWeekday(weekday),
                comingWeekday(words("diesen", "dieser", "diese"), weekday),
                weekdayOfNextWeek(
                        words("nächsten", "nächster", "nächste", "naechsten", "naechster", "naechste"), weekday),
                counted(1, words("in"), count, words("Tag", "Tage", "Tagen")),
                counted(7, words("in"), count, words("Woche", "Wochen")),
                dayOfMonth(words("den"), DAY)));
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
