package dev.autocomplete.server.tenant;

import static java.util.Objects.requireNonNull;

import dev.autocomplete.spi.ConfigTree;
import dev.autocomplete.spi.toolkit.ConfigProblems;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * How the server guards one product's engine: the time budget of a call, the answer given when the engine
 * fails, and when to stop calling it for a while. Read from the product's {@code engine_budget_ms},
 * {@code fallback} and {@code circuit} keys in {@code tenant.yaml}.
 *
 * @param budget how long a request waits for the engine
 * @param fallbackPrompt the {@code placeholder} prompt of a fallback answer
 * @param fallbackHints rows shown under the prompt, as {@code is_tappable: false} options
 * @param circuitFailures failures in a row that open the product's circuit
 * @param circuitOpen how long an open circuit answers with the fallback before trying the engine again
 */
public record EngineLimits(
        Duration budget, String fallbackPrompt, List<String> fallbackHints, int circuitFailures, Duration circuitOpen) {

    public static final int DEFAULT_BUDGET_MILLIS = 200;
    public static final int MAX_BUDGET_MILLIS = 10_000;
    public static final String DEFAULT_FALLBACK_PROMPT = "Type what you would like to do";
    public static final int DEFAULT_CIRCUIT_FAILURES = 5;
    public static final int DEFAULT_CIRCUIT_OPEN_SECONDS = 30;

    /** The limits of a product whose tenant.yaml sets none. */
    public static final EngineLimits DEFAULTS = new EngineLimits(
            Duration.ofMillis(DEFAULT_BUDGET_MILLIS),
            DEFAULT_FALLBACK_PROMPT,
            List.of(),
            DEFAULT_CIRCUIT_FAILURES,
            Duration.ofSeconds(DEFAULT_CIRCUIT_OPEN_SECONDS));

    /** Product keys this record reads. */
    static final Set<String> KEYS = Set.of("engine_budget_ms", "fallback", "circuit");

    public EngineLimits {
        requireNonNull(budget, "budget is null");
        requireNonNull(fallbackPrompt, "fallbackPrompt is null");
        fallbackHints = List.copyOf(requireNonNull(fallbackHints, "fallbackHints is null"));
        requireNonNull(circuitOpen, "circuitOpen is null");
    }

    /** Reads the keys of a product; every problem is recorded, and a key with one keeps its default. */
    static EngineLimits read(ConfigTree product, ConfigProblems problems) {
        int budget = problems.read(
                () -> product.integer("engine_budget_ms", DEFAULT_BUDGET_MILLIS, 1, MAX_BUDGET_MILLIS),
                DEFAULT_BUDGET_MILLIS);
        String prompt = DEFAULT_FALLBACK_PROMPT;
        List<String> hints = List.of();
        ConfigTree fallback =
                problems.read(() -> product.optionalTree("fallback").orElse(null), null);
        if (fallback != null) {
            problems.unknownKeys(fallback, Set.of("prompt", "hints"));
            prompt = problems.read(
                    () -> {
                        String text = fallback.string("prompt", DEFAULT_FALLBACK_PROMPT)
                                .strip();
                        if (text.isEmpty()) {
                            throw fallback.error("prompt", "must be a non-empty string");
                        }
                        return text;
                    },
                    DEFAULT_FALLBACK_PROMPT);
            hints = problems.read(
                    () -> {
                        List<String> texts = fallback.strings("hints").stream()
                                .map(String::strip)
                                .toList();
                        if (texts.contains("")) {
                            throw fallback.error("hints", "must be a list of non-empty strings");
                        }
                        return texts;
                    },
                    List.of());
        }
        int failures = DEFAULT_CIRCUIT_FAILURES;
        int openSeconds = DEFAULT_CIRCUIT_OPEN_SECONDS;
        ConfigTree circuit = problems.read(() -> product.optionalTree("circuit").orElse(null), null);
        if (circuit != null) {
            problems.unknownKeys(circuit, Set.of("failures", "open_seconds"));
            failures = problems.read(
                    () -> circuit.integer("failures", DEFAULT_CIRCUIT_FAILURES, 1, 1_000_000),
                    DEFAULT_CIRCUIT_FAILURES);
            openSeconds = problems.read(
                    () -> circuit.integer("open_seconds", DEFAULT_CIRCUIT_OPEN_SECONDS, 1, 86_400),
                    DEFAULT_CIRCUIT_OPEN_SECONDS);
        }
        return new EngineLimits(Duration.ofMillis(budget), prompt, hints, failures, Duration.ofSeconds(openSeconds));
    }
}
