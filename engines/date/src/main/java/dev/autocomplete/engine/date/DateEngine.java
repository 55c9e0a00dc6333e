package dev.autocomplete.engine.date;

import static java.util.Objects.requireNonNull;

import dev.autocomplete.engine.date.DateReader.Typed;
import dev.autocomplete.spi.Ask;
import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.Option;
import dev.autocomplete.spi.SpanMatch;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
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

    /**
     * @param defaultLanguage the tenant's default language tag: read besides the request's languages, and the
     *     language of the answers when the request names none the engine knows
     */
    DateEngine(DateSettings settings, String defaultLanguage) {
        this.settings = requireNonNull(settings, "settings is null");
        this.fallback = DateLanguage.of(requireNonNull(defaultLanguage, "defaultLanguage is null"))
                .orElse(DateLanguage.EN);
    }

    @Override
    public Set<String> paramTypes() {
        return settings.defaultDays().keySet();
    }

    @Override
    public List<SpanMatch> match(Ask ask, List<String> spans) {
        Languages languages = languages(ask);
        DateReader reader = new DateReader(Grammar.templates(languages.read()), ask.today());
        List<SpanMatch> matches = new ArrayList<>(spans.size());
        for (String span : spans) {
            matches.add(match(reader, languages.answer(), Typed.of(span)));
        }
        return matches;
    }

    private static SpanMatch match(DateReader reader, DateLanguage answer, Typed typed) {
        List<LocalDate> dates = reader.dates(typed);
        if (dates.size() == 1) {
            return new SpanMatch(SpanMatch.Kind.EXACT, answer.display(dates.getFirst()), true);
        }
        if (dates.size() > 1) {
            return SpanMatch.AMBIGUOUS;
        }
        boolean connectingWord =
                typed.tokens().size() == 1 && Grammar.CONNECTING_WORDS.contains(typed.tokens().getFirst());
        return !connectingWord && reader.startsDate(typed) ? SpanMatch.PREFIX : SpanMatch.NONE;
    }

    @Override
    public List<Option> options(Ask ask, String typed) {
        Languages languages = languages(ask);
        LocalDate today = ask.today();
        Set<LocalDate> dates = new LinkedHashSet<>();
        if (typed.isBlank()) {
            int days = settings.defaultDays().getOrDefault(ask.type(), DateSettings.DEFAULT_DEFAULT_DAYS);
            for (int ahead = 0; ahead < days; ahead++) {
                dates.add(today.plusDays(ahead));
            }
        } else {
            DateReader reader = new DateReader(Grammar.templates(languages.read()), today);
            Typed words = Typed.of(typed);
            dates.addAll(reader.dates(words));
            dates.addAll(reader.completions(words, ask.limit()));
        }
        return dates.stream()
                .limit(ask.limit())
                .map(date -> option(date, languages.answer()))
                .toList();
    }

    /** The date shown in the answer's language; its ISO form and its text in the default language as aliases. */
    private Option option(LocalDate date, DateLanguage answer) {
        String text = answer.display(date);
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
    private record Languages(Set<DateLanguage> read, DateLanguage answer) {
    }

    private Languages languages(Ask ask) {
        Set<DateLanguage> read = EnumSet.noneOf(DateLanguage.class);
        DateLanguage answer = null;
        for (String tag : ask.languages()) {
            Optional<DateLanguage> language = DateLanguage.of(tag);
            if (language.isPresent()) {
                read.add(language.get());
                answer = answer == null ? language.get() : answer;
            }
        }
        read.add(fallback);
        return new Languages(read, answer == null ? fallback : answer);
    }
}
