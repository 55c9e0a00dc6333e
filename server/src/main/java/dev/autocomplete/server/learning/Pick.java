package dev.autocomplete.server.learning;

import static java.util.Objects.requireNonNull;

/**
 * One honest pick, attributed: what learning and analytics keep of a telemetry event. Holds no query text: the
 * option's folded text, at most the first three folded letters typed before the pick, and counts.
 *
 * @param tenant the tenant id
 * @param product the product slug
 * @param type the param type the pick filled (or, for a pill, the param chosen)
 * @param option the picked option's folded text; empty for a pill
 * @param prefix at most the first {@link #PREFIX_LETTERS} folded letters typed for the param before the pick
 * @param typed how many characters were typed for the param before the pick
 * @param length the picked option's length in characters
 * @param at when, in seconds since the epoch
 * @param display the option's text as it was offered and picked (for analytics: {@code Porto}, not {@code porto});
 *     empty for a pill
 * @param ranked whether the pick re-ranks its option: false for a pill, and for an option the client's address had
 *     credited already today ({@code learning.picks-per-address-option-day}); analytics counts every pick
 */
public record Pick(
        String tenant,
        String product,
        String type,
        String option,
        String prefix,
        int typed,
        int length,
        long at,
        String display,
        boolean ranked) {

    /** A pick that re-ranks its option (unless it is a pill), shown as {@code display}. */
    public Pick(
            String tenant,
            String product,
            String type,
            String option,
            String prefix,
            int typed,
            int length,
            long at,
            String display) {
        this(tenant, product, type, option, prefix, typed, length, at, display, !option.isEmpty());
    }

    /** A pick shown as its folded text. */
    public Pick(
            String tenant, String product, String type, String option, String prefix, int typed, int length, long at) {
        this(tenant, product, type, option, prefix, typed, length, at, option, !option.isEmpty());
    }

    /** Letters of what was typed that are kept with a pick. */
    public static final int PREFIX_LETTERS = 3;

    public Pick {
        requireNonNull(tenant, "tenant is null");
        requireNonNull(product, "product is null");
        requireNonNull(type, "type is null");
        requireNonNull(option, "option is null");
        requireNonNull(prefix, "prefix is null");
        requireNonNull(display, "display is null");
        if (ranked && option.isEmpty()) {
            throw new IllegalArgumentException("a pill ranks nothing");
        }
        if (prefix.length() > PREFIX_LETTERS) {
            throw new IllegalArgumentException("prefix is longer than " + PREFIX_LETTERS);
        }
    }

    /** Whether this is a pill pick (a param chosen), not an option pick. */
    public boolean pill() {
        return option.isEmpty();
    }
}
