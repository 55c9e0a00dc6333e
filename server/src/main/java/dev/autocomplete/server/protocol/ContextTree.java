package dev.autocomplete.server.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import dev.autocomplete.spi.AdditionalContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Turns {@code additional_context} into the immutable tree that the reader and engines see. */
final class ContextTree {

    private ContextTree() {}

    /** The context; {@link AdditionalContext#NONE} for a missing or null node. */
    static AdditionalContext of(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return AdditionalContext.NONE;
        }
        return new AdditionalContext(value(node));
    }

    private static AdditionalContext.Value value(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return new AdditionalContext.Null();
        }
        if (node.isTextual()) {
            return new AdditionalContext.Text(node.textValue());
        }
        if (node.isBoolean()) {
            return new AdditionalContext.Flag(node.booleanValue());
        }
        if (node.isNumber()) {
            return new AdditionalContext.Number(node.decimalValue());
        }
        if (node.isArray()) {
            List<AdditionalContext.Value> items = new ArrayList<>(node.size());
            node.forEach(item -> items.add(value(item)));
            return new AdditionalContext.Items(items);
        }
        Map<String, AdditionalContext.Value> fields = new LinkedHashMap<>();
        node.properties().forEach(field -> fields.put(field.getKey(), value(field.getValue())));
        return new AdditionalContext.Fields(fields);
    }
}
