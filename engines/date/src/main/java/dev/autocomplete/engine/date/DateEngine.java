package dev.autocomplete.engine.date;

import static java.util.Objects.requireNonNull;

import dev.autocomplete.engine.date.DateExpressions.DateReading;
import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.Query;
import dev.autocomplete.spi.Reading;
import dev.autocomplete.spi.ReadingState;
import dev.autocomplete.spi.Segment;
import java.time.Clock;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads one intent, {@value #INTENT}, whose only param is a date typed after one of its phrases
 * ("Remind me on next friday") or picked from the options. Immutable and thread-safe: "today" is read from
 * the clock on every call.
 */
final class DateEngine implements Engine {

    static final String INTENT = "remind";

    private final DateSettings settings;
    private final Clock clock;
    private final List<List<String>> phrases;
    private final List<List<String>> cues;
    private final String mintedType;

    /**
     * @param clock the clock "today" is read from, in the configured zone; tests pass a fixed one
     */
    DateEngine(DateSettings settings, Clock clock) {
        this.settings = requireNonNull(settings, "settings is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.phrases = settings.phrases().stream().map(FoldedWords::wordsOf).toList();
        this.cues = settings.cues().stream().map(FoldedWords::wordsOf).toList();
        this.mintedType = DateSettings.minted(settings.type());
    }

    @Override
    public Set<String> paramTypes() {
        return Set.of(settings.type());
    }

    @Override
    public Reading read(Query query) {
        try {
            return readQuery(query);
        } catch (RuntimeException e) {
            // The SPI forbids throwing: a bug here costs this reading, never the request.
            return new Reading(null, List.of(), null, List.of());
        }
    }

    private Reading readQuery(Query query) {
        String raw = query.rawQuery();
        DateExpressions expressions = new DateExpressions(LocalDate.now(clock));
        boolean filledByToken = query.params().stream()
                .anyMatch(param -> DateSettings.minted(param.type()).equals(mintedType));

        // The intent is read from the text before the first placeholder.
        Segment.Text lead = query.segments().isEmpty() || !(query.segments().getFirst() instanceof Segment.Text text)
                ? null
                : text;
        FoldedWords words = FoldedWords.of(lead == null ? "" : lead.text());
        int phraseLength = phraseLength(words);
        ReadingState phraseState = phraseLength > 0 ? ReadingState.COMPLETED
                : isPhrasePrefix(words) ? ReadingState.IN_PROGRESS
                : null;

        Optional<Reading.Identified> identified = Optional.empty();
        List<Reading.Option> typedOptions = null;
        if (lead != null && !filledByToken && phraseState != ReadingState.IN_PROGRESS) {
            boolean trailing = query.segments().size() == 1;
            Optional<DateReading> date = expressions.read(words, phraseLength, cues, trailing);
            if (date.isPresent()) {
                identified = identified(lead, date.get(), raw);
                if (identified.isPresent() && date.get().state() == ReadingState.IN_PROGRESS) {
                    typedOptions = date.get().options();
                }
            }
        }

        boolean filled = filledByToken
                || identified.filter(span -> span.state() == ReadingState.COMPLETED).isPresent();
        Reading.Intent intent = raw.isBlank() ? null : new Reading.Intent(
                INTENT,
                phraseState != null ? phraseState : filled ? ReadingState.COMPLETED : ReadingState.IN_PROGRESS,
                settings.required() ? List.of(settings.type()) : List.of());
        String prompt = raw.isBlank() ? settings.prompt() : null;
        List<Reading.ParamSuggestion> suggestions = filled ? List.of() : List.of(new Reading.ParamSuggestion(
                settings.type(),
                settings.label(),
                settings.required(),
                limit(typedOptions != null ? typedOptions : expressions.defaults(), query.optionLimit())));
        return new Reading(intent, identified.stream().toList(), prompt, suggestions);
    }

    /** The number of words of the longest phrase the text starts with; 0 when none. */
    private int phraseLength(FoldedWords words) {
        int longest = 0;
        for (List<String> phrase : phrases) {
            if (phrase.size() > longest && words.startsWith(0, phrase)) {
                longest = phrase.size();
            }
        }
        return longest;
    }

    private boolean isPhrasePrefix(FoldedWords words) {
        return phrases.stream().anyMatch(phrase -> words.isProperPrefixOf(0, phrase));
    }

    /** The reading as a span of {@code raw_query}, unless the segment's offsets do not fit it. */
    private Optional<Reading.Identified> identified(Segment.Text lead, DateReading date, String raw) {
        int start = lead.start() + date.start();
        int end = lead.start() + date.end();
        if (start < 0 || end <= start || end > raw.length()) {
            return Optional.empty();
        }
        return Optional.of(new Reading.Identified(settings.type(), start, end, date.state()));
    }

    private static List<Reading.Option> limit(List<Reading.Option> options, int limit) {
        return options.size() <= limit ? options : options.subList(0, limit);
    }
}
