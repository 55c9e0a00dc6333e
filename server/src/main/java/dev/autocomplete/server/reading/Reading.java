package dev.autocomplete.server.reading;

import dev.autocomplete.spi.Option;
import java.util.List;

/**
 * What the reader made of a query: the intent, the free-typed spans read as values, and what to propose next.
 *
 * @param intent the intent, or null when the query is empty
 * @param identified free-typed spans read as param values, in query order, not overlapping
 * @param prompt the prompt (ghost text) for the empty query, or null
 * @param suggestions params to propose, the active one first, with their options (not yet ranked by context)
 */
public record Reading(Intent intent, List<Identified> identified, String prompt, List<ParamSuggestion> suggestions) {

    public Reading {
        identified = List.copyOf(identified);
        suggestions = List.copyOf(suggestions);
    }

    /**
     * @param requiredTypes the param types that must be filled, given what is filled so far
     */
    public record Intent(String name, ReadingState state, List<String> requiredTypes) {}

    /** A span {@code [start, end)} of {@code raw_query} read as a value of {@code type}. */
    public record Identified(String type, int start, int end, ReadingState state) {}

    /**
     * A param to propose; {@code options} best first.
     *
     * @param fromContext texts of options offered only because {@code additional_context} named them (a param's
     *     {@code context_options}, or a catalog's option its context keys named that the engine's list for what is
     *     typed lacked): never learned from, never counted
     */
    public record ParamSuggestion(
            String type, String label, boolean required, List<Option> options, java.util.Set<String> fromContext) {

        public ParamSuggestion {
            options = List.copyOf(options);
            fromContext = java.util.Set.copyOf(fromContext);
        }

        public ParamSuggestion(String type, String label, boolean required, List<Option> options) {
            this(type, label, required, options, java.util.Set.of());
        }
    }
}
