package dev.autocomplete.testkit;

import java.nio.file.Path;
import java.util.List;

/** The tenant did not load: each problem as {@code file:line: message}, as {@code autocomplete validate} prints it. */
public final class TenantLoadException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient List<String> problems;

    TenantLoadException(Path directory, List<String> problems) {
        super("tenant " + directory + " did not load:\n  " + String.join("\n  ", problems));
        this.problems = List.copyOf(problems);
    }

    /** What keeps the tenant from loading. */
    public List<String> problems() {
        return problems;
    }
}
