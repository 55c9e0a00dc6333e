package dev.autocomplete.server.protocol;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/** Turns {@code additional_context} into the immutable JDK-only tree that engines see. */
final class ContextTree {

    private ContextTree() {
    }

    static Object of(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        if (node.isTextual()) {
            return node.textValue();
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        if (node.isNumber()) {
            return node.numberValue();
        }
        if (node.isArray()) {
            List<Object> items = new ArrayList<>(node.size());
            node.forEach(item -> items.add(of(item)));
            return Collections.unmodifiableList(items);
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        node.properties().forEach(field -> fields.put(field.getKey(), of(field.getValue())));
        return Collections.unmodifiableMap(fields);
    }
}
