package dev.autocomplete.engine.date;

import static java.util.Objects.requireNonNull;

import dev.autocomplete.engine.date.DateReader.Reading;
import dev.autocomplete.engine.date.DateReader.Typed;
import dev.autocomplete.spi.Ask;
import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.Option;
import dev.autocomplete.spi.SpanMatch;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Serves date params: reads typed dates in English, French and German ({@link Grammar}) and offers dates as
 * options, each shown in the request's language ({@link DateLanguage#display}). Reads no clock: "today" is
 * {@link Ask#today()}, so its answers are cacheable. Immutable and thread-safe.
 */
final class DateEngine implements Engine {

    private final DateSettings settings;
    /** The tenant's default language, or English when the engine does not know it. */
    private final DateLanguage fallback;
    /** The tenant's default language tag, whose region says how days are written in numbers. */
    private final String fallbackTag;

    /**
     * @param defaultLanguage the tenant's default language tag: read besides the request's languages, and the
     *     language of the answers when the request names none the engine knows
     */
    DateEngine(DateSettings settings, String defaultLanguage) {
        this.settings = requireNonNull(settings, "settings is null");
        this.fallback = DateLanguage.of(requireNonNull(defaultLanguage, "defaultLanguage is null"))
                .orElse(DateLanguage.EN);
        this.fallbackTag = DateLanguage.of(defaultLanguage).isPresent() ? defaultLanguage : "en";
    }

    @Override
    public Set<String> paramTypes() {
        return settings.defaultDays().keySet();
    }

    /** A date is a value of the moment, relative to today and in the user's language: no value to the next user. */
    @Override
    public boolean learnsFromPicks() {
        return false;
    }

    @Override
    public List<SpanMatch> match(Ask ask, List<String> spans) {
        Languages languages = languages(ask);
        DateReader reader = reader(languages, ask.today());
        List<SpanMatch> matches = new ArrayList<>(spans.size());
        for (String span : spans) {
            matches.add(typedControl(span) ? SpanMatch.NONE : match(reader, languages.answer(), Typed.of(span)));
        }
        return matches;
    }

    private static SpanMatch match(DateReader reader, DateLanguage answer, Typed typed) {
        List<LocalDate> dates = reader.dates(typed);
        if (dates.size() == 1) {
            // "12 mar" may still become "12 march": settled, unless it is what the user is typing.
            SpanMatch.Kind kind = reader.endsInShortForm(typed) ? SpanMatch.Kind.EXACT_PREFIX : SpanMatch.Kind.EXACT;
            return new SpanMatch(kind, answer.display(dates.getFirst()), true);
        }
        if (dates.size() > 1) {
            return SpanMatch.AMBIGUOUS;
        }
        boolean connectingWord = typed.tokens().size() == 1
                && Grammar.CONNECTING_WORDS.contains(typed.tokens().getFirst());
        if (connectingWord) {
            return SpanMatch.NONE;
        }
        if (reader.startsDate(typed)) {
            return SpanMatch.PREFIX;
        }
        boolean near = !reader.corrected(typed).isEmpty()
                || !reader.lastDayInstead(typed).isEmpty();
        return near ? SpanMatch.LOOSE : SpanMatch.NONE;
    }

    /** The answer's language and dates in numbers only: what options are completed in first. */
    private static DateReader answerReader(Languages languages, LocalDate today) {
        Set<Template> templates = new LinkedHashSet<>(Grammar.templates(EnumSet.of(languages.answer())));
        templates.addAll(Grammar.numeric(languages.order()));
        return new DateReader(List.copyOf(templates), today);
    }

    private static DateReader reader(Languages languages, LocalDate today) {
        // The answer's language first: its words write out the options ("12. Mär" completes as "März", not "Mar").
        Set<Template> templates = new LinkedHashSet<>(Grammar.templates(EnumSet.of(languages.answer())));
        templates.addAll(Grammar.templates(languages.read()));
        templates.addAll(Grammar.numeric(languages.order()));
        return new DateReader(List.copyOf(templates), today);
    }

    /**
     * Whether typed text holds a control character ({@code 12\u0000 mar}): no date is written so, and an option
     * repeating what was typed would carry it (the core drops such options and warns the operator about the engine).
     */
    private static boolean typedControl(String typed) {
        return typed.chars().anyMatch(c -> Character.isISOControl(c) && !Character.isWhitespace(c));
    }

    @Override
    public List<Option> options(Ask ask, String typed) {
        if (typedControl(typed)) {
            return List.of();
        }
        Languages languages = languages(ask);
        LocalDate today = ask.today();
        DateLanguage answer = languages.answer();
        Map<LocalDate, String> dates = new LinkedHashMap<>();
        if (typed.isBlank()) {
            int days = settings.defaultDays().getOrDefault(ask.type(), DateSettings.DEFAULT_DEFAULT_DAYS);
            for (int ahead = 0; ahead < days; ahead++) {
                dates.put(today.plusDays(ahead), answer.display(today.plusDays(ahead)));
            }
        } else {
            DateReader reader = reader(languages, today);
            Typed words = Typed.of(typed);
            List<Reading> readings = reader.readingsAsTyped(words);
            for (LocalDate date : reader.dates(words)) {
                // A date the text says twice is offered as typed; a period's days each with the period's words.
                Reading reading = readings.stream()
                        .filter(r -> reader.covers(r, date))
                        .findFirst()
                        .orElse(null);
                dates.put(date, reading == null ? typed.strip() : Wording.text(reading, date, words, answer, today));
            }
            // Completions in the answer's language, those of the other languages read only when it has none: an
            // end-user trial saw `am F` offer English Februaries to a German user ("February 1, 2027 (Montag)").
            List<Reading> more = new ArrayList<>(answerReader(languages, today).completions(words, ask.limit()));
            if (more.isEmpty()) {
                more.addAll(reader.completions(words, ask.limit()));
            }
            if (dates.isEmpty() && more.isEmpty()) {
                more.addAll(reader.corrected(words));
                more.addAll(reader.lastDayInstead(words));
            }
            for (Reading reading : more) {
                dates.putIfAbsent(reading.date(), Wording.text(reading, reading.date(), words, answer, today));
            }
        }
        return dates.entrySet().stream()
                .limit(ask.limit())
                .map(date -> option(date.getKey(), date.getValue()))
                .toList();
    }

    /** The date with its text; its ISO form and its display text in the default language as aliases. */
    private Option option(LocalDate date, String text) {
        String inDefault = fallback.display(date);
        List<String> aliases = inDefault.equals(text) ? List.of(date.toString()) : List.of(date.toString(), inDefault);
        return new Option(text, aliases, true);
    }

    /**
     * The languages of a request.
     *
     * @param read the languages typed text is read in: the request's that the engine knows, and the tenant's
     *     default (English when the engine does not know it)
     * @param answer the language values and options are shown in: the request's first that the engine knows,
     *     else the default
     */
    private record Languages(Set<DateLanguage> read, DateLanguage answer, Grammar.DayOrder order) {}

    private Languages languages(Ask ask) {
        Set<DateLanguage> read = EnumSet.noneOf(DateLanguage.class);
        DateLanguage answer = null;
        String answerTag = fallbackTag;
        for (String tag : ask.languages()) {
            Optional<DateLanguage> language = DateLanguage.of(tag);
            if (language.isPresent()) {
                read.add(language.get());
                if (answer == null) {
                    answer = language.get();
                    answerTag = tag;
                }
            }
        }
        read.add(fallback);
        return new Languages(read, answer == null ? fallback : answer, Grammar.DayOrder.of(answerTag));
    }
}
