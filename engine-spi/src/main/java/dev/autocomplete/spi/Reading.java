package dev.autocomplete.spi;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * An engine's answer to a {@link Query}: what it understood, and what it proposes next.
 *
 * @param intent the intent read from the query, or null when the query names none yet (empty query)
 * @param identified free-typed spans read as param values, in any order; the server reports them
 * @param prompt the prompt (ghost text) for the current step, or null for none
 * @param suggestions params to propose, the next one to fill first
 */
public record Reading(Intent intent, List<Identified> identified, String prompt, List<ParamSuggestion> suggestions) {

    public Reading {
        identified = List.copyOf(requireNonNull(identified, "identified is null"));
        suggestions = List.copyOf(requireNonNull(suggestions, "suggestions is null"));
    }

    /**
     * The intent read from the query.
     *
     * @param name the engine's name for the intent; never null
     * @param state {@code COMPLETED} when recognized; {@code IN_PROGRESS} while the user is typing its phrase;
     *     {@code NEED_CONFIRMATION} when several intents fit or the phrase was read loosely; never null
     * @param requiredTypes the param types that must be filled for the query to be ready, given what is
     *     filled so far (a pick may add required params); never null
     */
    public record Intent(String name, ReadingState state, List<String> requiredTypes) {
        public Intent {
            requireNonNull(name, "name is null");
            requireNonNull(state, "state is null");
            requiredTypes = List.copyOf(requireNonNull(requiredTypes, "requiredTypes is null"));
        }
    }

    /**
     * A span of free-typed text read as a param value.
     *
     * @param type the param type; never null or blank
     * @param start index of the span in {@code raw_query}
     * @param end index just past the span in {@code raw_query}
     * @param state {@code COMPLETED} when it equals an option, {@code IN_PROGRESS} while it is a proper prefix
     *     of one, {@code NEED_CONFIRMATION} when read loosely; never null
     */
    public record Identified(String type, int start, int end, ReadingState state) {
        public Identified {
            requireNonNull(type, "type is null");
            requireNonNull(state, "state is null");
            if (type.isBlank()) {
                throw new IllegalArgumentException("type is blank");
            }
            if (start < 0 || end <= start) {
                throw new IllegalArgumentException("span [" + start + ", " + end + ") is empty or negative");
            }
        }
    }

    /**
     * A param to propose.
     *
     * @param type the param type, as the client will mint it into tokens; never null or blank
     * @param label the display label, already localized; never null
     * @param required whether the param must be filled before the query is ready
     * @param options candidate options, best first; the server may reorder them by context and cut them
     */
    public record ParamSuggestion(String type, String label, boolean required, List<Option> options) {
        public ParamSuggestion {
            requireNonNull(type, "type is null");
            requireNonNull(label, "label is null");
            options = List.copyOf(requireNonNull(options, "options is null"));
            if (type.isBlank()) {
                throw new IllegalArgumentException("type is blank");
            }
        }
    }

    /**
     * An option of a param.
     *
     * @param text the display text; never null or blank
     * @param aliases other names that identify the option (codes, former names), for context ranking
     * @param tappable false for hint rows that cannot be picked
     */
    public record Option(String text, List<String> aliases, boolean tappable) {
        public Option {
            requireNonNull(text, "text is null");
            aliases = List.copyOf(requireNonNull(aliases, "aliases is null"));
            if (text.isBlank()) {
                throw new IllegalArgumentException("text is blank");
            }
        }

        /** A tappable option without aliases. */
        public static Option of(String text) {
            return new Option(text, List.of(), true);
        }
    }
}
