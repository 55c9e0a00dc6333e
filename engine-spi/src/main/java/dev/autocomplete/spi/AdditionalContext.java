package dev.autocomplete.spi;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * A request's {@code additional_context}: free-form JSON the host page sends, as an immutable tree. Data only:
 * never execute, template, log or store it. {@link dev.autocomplete.spi.toolkit.ContextNames} finds the values
 * it names for a param.
 *
 * @param root the context; {@link #NONE} when the request sent none (or null, {@code {}}, {@code []}, {@code ""})
 */
public record AdditionalContext(Value root) {

    /** No context. */
    public static final AdditionalContext NONE = new AdditionalContext(new Fields(Map.of()));

    public AdditionalContext {
        requireNonNull(root, "root is null");
    }

    /** Whether the request sent no context. */
    public boolean isEmpty() {
        return root instanceof Fields fields && fields.fields().isEmpty();
    }

    /** One JSON value of the context. */
    public sealed interface Value permits Text, Number, Flag, Null, Items, Fields {}

    /** A JSON string. */
    public record Text(String text) implements Value {
        public Text {
            requireNonNull(text, "text is null");
        }
    }

    /**
     * A JSON number, exactly as sent: it may lie far beyond any {@code double} ({@code 1e400}), and its plain form may
     * be vast ({@code toPlainString()} of {@code 1e999999} is a million digits). Read it with {@code compareTo},
     * {@code doubleValue()} or {@code intValueExact()}, not through its plain text.
     */
    public record Number(BigDecimal number) implements Value {
        public Number {
            requireNonNull(number, "number is null");
        }
    }

    /** A JSON boolean. */
    public record Flag(boolean flag) implements Value {}

    /** JSON null. */
    public record Null() implements Value {}

    /** A JSON array. */
    public record Items(List<Value> items) implements Value {
        public Items {
            items = List.copyOf(requireNonNull(items, "items is null"));
        }
    }

    /** A JSON object, its keys in document order. */
    public record Fields(Map<String, Value> fields) implements Value {
        public Fields {
            fields = java.util.Collections.unmodifiableMap(
                    new java.util.LinkedHashMap<>(requireNonNull(fields, "fields is null")));
        }
    }
}
