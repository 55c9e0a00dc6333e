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
     * @param up whether this part works
     * @param data details to show; no secrets
     * @param needed whether the server cannot serve while this part is down: then the whole report is down
     *     (503); a tenant's check is not needed, a broken tenant costs only its own requests
     */
    record Status(String name, boolean up, Map<String, Object> data, boolean needed) {

        /** A check the server needs to serve. */
        public Status(String name, boolean up, Map<String, Object> data) {
            this(name, up, data, true);
        }
    }

    Status check();
}
