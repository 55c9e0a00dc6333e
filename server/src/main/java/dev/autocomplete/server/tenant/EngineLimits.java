package dev.autocomplete.server.tenant;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
public record EngineLimits(Duration budget, String fallbackPrompt, List<String> fallbackHints, int circuitFailures,
        Duration circuitOpen) {

    public static final int DEFAULT_BUDGET_MILLIS = 200;
    public static final int MAX_BUDGET_MILLIS = 10_000;
    public static final String DEFAULT_FALLBACK_PROMPT = "Type what you would like to do";
    public static final int DEFAULT_CIRCUIT_FAILURES = 5;
    public static final int DEFAULT_CIRCUIT_OPEN_SECONDS = 30;

    /** The limits of a product whose tenant.yaml sets none. */
    public static final EngineLimits DEFAULTS = new EngineLimits(Duration.ofMillis(DEFAULT_BUDGET_MILLIS),
            DEFAULT_FALLBACK_PROMPT, List.of(), DEFAULT_CIRCUIT_FAILURES, Duration.ofSeconds(DEFAULT_CIRCUIT_OPEN_SECONDS));

    /** Product keys this record reads. */
    static final Set<String> KEYS = Set.of("engine_budget_ms", "fallback", "circuit");

    public EngineLimits {
        requireNonNull(budget, "budget is null");
        requireNonNull(fallbackPrompt, "fallbackPrompt is null");
        fallbackHints = List.copyOf(requireNonNull(fallbackHints, "fallbackHints is null"));
        requireNonNull(circuitOpen, "circuitOpen is null");
    }

    /** Reads the keys of product {@code at}; problems name the key and its line. */
    static EngineLimits read(YamlDocument yaml, String at, Map<?, ?> product, List<Problem> problems) {
        int budget = number(yaml, at + ".engine_budget_ms", product.get("engine_budget_ms"), DEFAULT_BUDGET_MILLIS,
                1, MAX_BUDGET_MILLIS, problems);
        String prompt = DEFAULT_FALLBACK_PROMPT;
        List<String> hints = new ArrayList<>();
        Object fallback = product.get("fallback");
        if (fallback instanceof Map<?, ?> map) {
            map.keySet().stream().map(String::valueOf).filter(k -> !k.equals("prompt") && !k.equals("hints"))
                    .forEach(k -> problems.add(yaml.problem(at + ".fallback." + k,
                            "is not a known key (known: hints, prompt)")));
            Object p = map.get("prompt");
            if (p instanceof String text && !text.isBlank()) {
                prompt = text.strip();
            } else if (p != null) {
                problems.add(yaml.problem(at + ".fallback.prompt", "must be a non-empty string"));
            }
            Object h = map.get("hints");
            if (h instanceof List<?> list && list.stream().allMatch(x -> x instanceof String s && !s.isBlank())) {
                list.forEach(x -> hints.add(((String) x).strip()));
            } else if (h != null) {
                problems.add(yaml.problem(at + ".fallback.hints", "must be a list of non-empty strings"));
            }
        } else if (fallback != null) {
            problems.add(yaml.problem(at + ".fallback", "must be a map with prompt and hints"));
        }
        int failures = DEFAULT_CIRCUIT_FAILURES;
        int openSeconds = DEFAULT_CIRCUIT_OPEN_SECONDS;
        Object circuit = product.get("circuit");
        if (circuit instanceof Map<?, ?> map) {
            map.keySet().stream().map(String::valueOf).filter(k -> !k.equals("failures") && !k.equals("open_seconds"))
                    .forEach(k -> problems.add(yaml.problem(at + ".circuit." + k,
                            "is not a known key (known: failures, open_seconds)")));
            failures = number(yaml, at + ".circuit.failures", map.get("failures"), DEFAULT_CIRCUIT_FAILURES, 1,
                    1_000_000, problems);
            openSeconds = number(yaml, at + ".circuit.open_seconds", map.get("open_seconds"),
                    DEFAULT_CIRCUIT_OPEN_SECONDS, 1, 86_400, problems);
        } else if (circuit != null) {
            problems.add(yaml.problem(at + ".circuit", "must be a map with failures and open_seconds"));
        }
        return new EngineLimits(Duration.ofMillis(budget), prompt, hints, failures, Duration.ofSeconds(openSeconds));
    }

    private static int number(YamlDocument yaml, String key, Object value, int defaultValue, int min, int max,
            List<Problem> problems) {
        if (value == null) {
            return defaultValue;
        }
        if (value instanceof Integer n && n >= min && n <= max) {
            return n;
        }
        problems.add(yaml.problem(key, "must be a whole number from " + min + " to " + max));
        return defaultValue;
    }
}
