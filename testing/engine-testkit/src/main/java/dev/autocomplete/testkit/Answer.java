package dev.autocomplete.testkit;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@code data} of a suggest response, exactly as the HTTP API would send it ({@link #json()}), with its parts
 * as values. {@code toString()} is the JSON, so that an assertion message shows the whole answer.
 *
 * @param rawQuery {@code raw_query}, echoed
 * @param input {@code input}: the intent and each picked or identified param in query order; empty where the
 *     wire says null (a query without placeholders)
 * @param suggestions {@code suggestions}, in order: the prompt ({@code placeholder}) first, then the params
 * @param isReady {@code is_ready}
 * @param engineOutcome how the product's engines answered, as the server's metrics label it: {@code ok},
 *     {@code error} (an engine threw: its params got no options), {@code invalid} (an engine answered unusably),
 *     {@code circuit_open} (an engine's circuit was open), {@code timeout} (over {@code engine_budget_ms}: the answer
 *     is the product's fallback), or {@code cached} when the server's response cache answered without asking the
 *     engines
 * @param json the {@code data} object as written
 */
public record Answer(
        String rawQuery,
        List<Input> input,
        List<Suggestion> suggestions,
        boolean isReady,
        String engineOutcome,
        String json) {

    public Answer {
        requireNonNull(rawQuery, "rawQuery is null");
        input = List.copyOf(input);
        suggestions = List.copyOf(suggestions);
        requireNonNull(json, "json is null");
    }

    /**
     * One {@code input[]} entry.
     *
     * @param type the param type, or {@code intent} for the first entry
     * @param text the literal text (a placeholder token for a pick)
     * @param state {@code completed}, {@code need_confirmation} or {@code in_progress}
     * @param source {@code selected}, {@code identified}, or null for the intent
     */
    public record Input(String type, String text, String state, String source) {}

    /**
     * One {@code suggestions[]} entry.
     *
     * @param type the param type, or {@code placeholder} for the prompt
     * @param text the label shown (the prompt's text for {@code placeholder})
     * @param options empty where the wire omits them
     */
    public record Suggestion(String type, String text, boolean required, List<Option> options) {
        public Suggestion {
            options = List.copyOf(options);
        }

        /** The texts of the options, in order. */
        public List<String> optionTexts() {
            return options.stream().map(Option::text).toList();
        }
    }

    /** One option; {@code tappable} is the wire's {@code is_tappable}. */
    public record Option(String text, boolean tappable) {}

    /** The types of the suggestions, in order, the prompt's {@code placeholder} included. */
    public List<String> suggestionTypes() {
        return suggestions.stream().map(Suggestion::type).toList();
    }

    /** The suggestion of a type, if the answer has one. */
    public Optional<Suggestion> suggestion(String type) {
        return suggestions.stream().filter(s -> s.type().equals(type)).findFirst();
    }

    /** The option texts offered for a type, in order; empty when the type is not suggested or has no options. */
    public List<String> options(String type) {
        return suggestion(type).map(Suggestion::optionTexts).orElse(List.of());
    }

    /** The identified (typed, not picked) input entries of a type, in query order. */
    public List<Input> identified(String type) {
        return input.stream()
                .filter(i -> type.equals(i.type()) && "identified".equals(i.source()))
                .toList();
    }

    @Override
    public String toString() {
        return json + " (engines: " + engineOutcome + ")";
    }

    static Answer of(JsonNode data, String engineOutcome) {
        List<Input> input = new ArrayList<>();
        data.path("input")
                .forEach(i -> input.add(new Input(
                        i.path("type").asText(),
                        i.path("text").asText(),
                        i.path("state").asText(),
                        i.hasNonNull("source") ? i.path("source").asText() : null)));
        List<Suggestion> suggestions = new ArrayList<>();
        data.path("suggestions").forEach(s -> {
            List<Option> options = new ArrayList<>();
            s.path("options")
                    .forEach(o -> options.add(new Option(
                            o.path("text").asText(), o.path("is_tappable").asBoolean())));
            suggestions.add(new Suggestion(
                    s.path("type").asText(),
                    s.path("text").asText(),
                    s.path("required").asBoolean(),
                    options));
        });
        return new Answer(
                data.path("raw_query").asText(),
                input,
                suggestions,
                data.path("is_ready").asBoolean(),
                engineOutcome,
                data.toString());
    }
}
