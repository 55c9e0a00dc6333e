package dev.autocomplete.server.reading;

import static java.util.Objects.requireNonNull;

import dev.autocomplete.server.protocol.SuggestRequest;
import dev.autocomplete.spi.AdditionalContext;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A validated suggest request, as the reader sees it. Immutable.
 *
 * @param rawQuery the query with placeholders, verbatim; may be empty
 * @param segments {@code rawQuery} split into text and placeholder segments, in order, covering it whole
 * @param dismissedTypes types the user skipped ({@code completed_params} entries without a placeholder)
 * @param recentlySuggested suggestions on screen while the user typed the trailing text, in order
 * @param context the request's {@code additional_context}; data only
 * @param language the requested BCP-47 tag, well-formed, or null when absent or malformed
 * @param optionLimit the most options shown per suggestion
 * @param today the current date in the product's time zone
 * @param priors what the product's users picked before, to rank options with
 */
public record Query(
        String rawQuery,
        List<Segment> segments,
        Set<String> dismissedTypes,
        List<SuggestRequest.SuggestionRef> recentlySuggested,
        AdditionalContext context,
        String language,
        int optionLimit,
        LocalDate today,
        Priors priors) {

    /** A query ranked without learning. */
    public Query(
            String rawQuery,
            List<Segment> segments,
            Set<String> dismissedTypes,
            List<SuggestRequest.SuggestionRef> recentlySuggested,
            AdditionalContext context,
            String language,
            int optionLimit,
            LocalDate today) {
        this(rawQuery, segments, dismissedTypes, recentlySuggested, context, language, optionLimit, today, Priors.NONE);
    }

    public Query {
        requireNonNull(rawQuery, "rawQuery is null");
        segments = List.copyOf(segments);
        dismissedTypes = Set.copyOf(dismissedTypes);
        recentlySuggested = List.copyOf(recentlySuggested);
        requireNonNull(context, "context is null");
        requireNonNull(today, "today is null");
        requireNonNull(priors, "priors is null");
    }

    /**
     * The languages to try for labels and texts, most specific first: {@code fr-CA} gives {@code [fr-ca, fr]}.
     * Lower case. Empty when no language was requested.
     */
    public List<String> languageFallbacks() {
        if (language == null) {
            return List.of();
        }
        List<String> tags = new ArrayList<>();
        String tag = language.toLowerCase(Locale.ROOT);
        while (!tag.isEmpty()) {
            tags.add(tag);
            int dash = tag.lastIndexOf('-');
            tag = dash < 0 ? "" : tag.substring(0, dash);
        }
        return List.copyOf(tags);
    }
}
