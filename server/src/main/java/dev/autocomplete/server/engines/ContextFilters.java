package dev.autocomplete.server.engines;

import dev.autocomplete.spi.Ask;

/**
 * An engine of the core whose options the context may filter ({@code context_attributes} with {@code mode: filter}):
 * it says whether the filters keep a given option, so that what the reader adds to a list by itself (options users
 * picked often) never gets past them. Plug-in engines filter inside their own answers and do not implement it.
 */
public interface ContextFilters {

    /** Whether the context's filters for {@code ask.type()} keep the option of this text; true when none applies. */
    boolean keeps(Ask ask, String text);
}
