package dev.autocomplete.server.engines;

import dev.autocomplete.spi.Ask;
import java.util.function.Predicate;

/**
 * An engine of the core whose options the context may filter or boost ({@code context_attributes}, {@code mode:
 * filter} or {@code boost}): it says whether the filters keep a given option, so that what the reader adds to a list
 * by itself (options users picked often) never gets past them, and whether the boosts favour it, so that the reader's
 * re-ranking by picks keeps the boosted options first. Plug-in engines filter and boost inside their own answers and
 * do not implement it.
 */
public interface ContextFilters {

    /** Whether the context's filters for {@code ask.type()} keep the option of this text; true when none applies. */
    boolean keeps(Ask ask, String text);

    /**
     * Which options of {@code ask.type()} the context's boosts favour, by text, read from one snapshot of the list;
     * null when the context boosts none.
     */
    Predicate<String> boosted(Ask ask);

    /** Whether the context's filters apply to {@code ask.type()} at all. */
    boolean filters(Ask ask);
}
