package dev.autocomplete.server.observe;

import java.util.Map;

/**
 * One named part of {@code /observe/health}, e.g. a connection the server depends on. Register extra checks
 * with {@code AutocompleteServer}'s health; must answer fast and not throw.
 */
@FunctionalInterface
public interface HealthCheck {

    /**
     * @param name the check's name in the report
     * @param up whether this part works; any check down makes the server not ready
     * @param data details to show; no secrets
     */
    record Status(String name, boolean up, Map<String, Object> data) {
    }

    Status check();
}
