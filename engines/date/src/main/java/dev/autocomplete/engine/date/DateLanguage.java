package dev.autocomplete.engine.date;

import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A language the engine reads and writes dates in, with its own names for weekdays and months. The names
 * are spelled out here rather than taken from the JDK's locale data so that the display texts, which clients
 * echo back and the engine must read again, cannot change with the JDK or a trimmed runtime image.
 */
enum DateLanguage {
    EN(
            "en",
            List.of("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
            List.of(
                    "January",
                    "February",
                    "March",
                    "April",
                    "May",
                    "June",
                    "July",
                    "August",
                    "September",
                    "October",
                    "November",
                    "December")),
    FR(
            "fr",
            List.of("lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"),
            List.of(
                    "janvier",
                    "février",
                    "mars",
                    "avril",
                    "mai",
                    "juin",
                    "juillet",
                    "août",
                    "septembre",
                    "octobre",
                    "novembre",
                    "décembre")),
    DE(
            "de",
            List.of("Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag"),
            List.of(
                    "Januar",
                    "Februar",
                    "März",
                    "April",
                    "Mai",
                    "Juni",
                    "Juli",
                    "August",
                    "September",
                    "Oktober",
                    "November",
                    "Dezember"));

    private final String tag;
    private final List<String> weekdays;
    private final List<String> months;

    DateLanguage(String tag, List<String> weekdays, List<String> months) {
        this.tag = tag;
        this.weekdays = weekdays;
        this.months = months;
    }

    /** The language a tag such as {@code fr} or {@code fr-ca} names, when the engine knows it. */
    static Optional<DateLanguage> of(String tag) {
        String lower = tag.toLowerCase(Locale.ROOT);
        int dash = lower.indexOf('-');
        String base = dash < 0 ? lower : lower.substring(0, dash);
        for (DateLanguage language : values()) {
            if (language.tag.equals(base)) {
                return Optional.of(language);
            }
        }
        return Optional.empty();
    }

    /** The weekday names, Monday first, as displayed. */
    List<String> weekdays() {
        return weekdays;
    }

    /** The month names, January first, as displayed. */
    List<String> months() {
        return months;
    }

    /**
     * The date as an option shows it and as a span's value: {@code Thursday 12 March 2026},
     * {@code jeudi 12 mars 2026} (the first of the month {@code 1er}), {@code Donnerstag, 12. März 2026}.
     * Every such text reads back as the same date in this language.
     */
    String display(LocalDate date) {
        String weekday = weekdays.get(date.getDayOfWeek().getValue() - 1);
        String month = months.get(date.getMonthValue() - 1);
        int day = date.getDayOfMonth();
        return switch (this) {
            case EN -> weekday + " " + day + " " + month + " " + date.getYear();
            case FR -> weekday + " " + (day == 1 ? "1er" : Integer.toString(day)) + " " + month + " " + date.getYear();
            case DE -> weekday + ", " + day + ". " + month + " " + date.getYear();
        };
    }
}
