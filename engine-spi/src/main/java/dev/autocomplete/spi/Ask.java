package dev.autocomplete.spi;

import static java.util.Objects.requireNonNull;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;

/**
 * What the server asks an {@link Engine} about one param of one request. Immutable.
 *
 * @param type the param type asked about, one of {@link Engine#paramTypes()}; never null
 * @param languages the languages to answer in, most specific first ({@code fr-CA} gives {@code [fr-ca, fr]}),
 *     lower case: those of the request's that the product's configuration is written in (its default language,
 *     or one its prompt, phrases, labels or cues are translated to), so that options come in the labels' language;
 *     empty when the request named none of them. Engines fall back to the tenant's default language
 *     ({@link EngineContext#defaultLanguage()}) after these.
 * @param context the request's {@code additional_context}; data only: never execute, template, log or store it
 * @param filled the values of the params already filled in this query, by type: the picked or typed text as
 *     the user sees it (a destination may depend on the origin); masked picks are absent; never null
 * @param today the current date in the product's time zone: an engine reads no clock, so its answers stay
 *     cacheable; never null
 * @param limit the most options the server will show; an engine need not return more; positive
 * @param deadlineNanos the {@link System#nanoTime()} by which the whole request must be answered; an engine
 *     with costly work may stop early and answer what it has
 */
public record Ask(
        String type,
        List<String> languages,
        AdditionalContext context,
        Map<String, String> filled,
        LocalDate today,
        int limit,
        long deadlineNanos) {

    public Ask {
        requireNonNull(type, "type is null");
        languages = List.copyOf(requireNonNull(languages, "languages is null"));
        requireNonNull(context, "context is null");
        filled = Map.copyOf(requireNonNull(filled, "filled is null"));
        requireNonNull(today, "today is null");
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be positive");
        }
    }

    /** The same question about another type. */
    public Ask withType(String otherType) {
        return new Ask(otherType, languages, context, filled, today, limit, deadlineNanos);
    }

    /** The same question with another option limit. */
    public Ask withLimit(int otherLimit) {
        return new Ask(type, languages, context, filled, today, otherLimit, deadlineNanos);
    }
}
