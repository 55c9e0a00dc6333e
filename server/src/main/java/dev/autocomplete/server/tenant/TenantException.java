package dev.autocomplete.server.tenant;

import static java.util.Objects.requireNonNull;

/** A tenant cannot be loaded; carries the problem with its file and line. */
public final class TenantException extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient Problem problem;

    public TenantException(Problem problem) {
        super(requireNonNull(problem, "problem is null").toString());
        this.problem = problem;
    }

    public Problem problem() {
        return problem;
    }
}
