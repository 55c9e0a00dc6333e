package dev.autocomplete.spi.toolkit;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import dev.autocomplete.spi.ConfigTree;
import dev.autocomplete.spi.EngineConfigException;

/**
 * Collects every problem of a configuration rather than stopping at the first: each {@link #read} that fails
 * records its {@link EngineConfigException} and yields a stand-in value, so reading goes on and the operator sees
 * all that is wrong at once.
 *
 * <p>Not thread-safe: one reader fills it.
 */
public final class ConfigProblems {

    /** One read of a {@link ConfigTree} value. */
    @FunctionalInterface
    public interface Read<T> {
        T read() throws EngineConfigException;
    }

    /** One check that throws when something is wrong. */
    @FunctionalInterface
    public interface Check {
        void check() throws EngineConfigException;
    }

    private final List<EngineConfigException> problems = new ArrayList<>();

    /**
     * The value {@code read} gives, or {@code otherwise} after recording why it failed.
     *
     * @param otherwise what to go on with when the read fails; may be null
     */
    public <T> T read(Read<T> read, T otherwise) {
        try {
            return read.read();
        } catch (EngineConfigException e) {
            problems.add(e);
            return otherwise;
        }
    }

    /** Runs {@code check}, recording its problem if it throws; whether it passed. */
    public boolean check(Check check) {
        try {
            check.check();
            return true;
        } catch (EngineConfigException e) {
            problems.add(e);
            return false;
        }
    }

    public void add(EngineConfigException problem) {
        problems.add(requireNonNull(problem, "problem is null"));
    }

    public void addAll(Collection<EngineConfigException> found) {
        found.forEach(this::add);
    }

    /** How many problems were recorded so far: compare before and after a part to see whether it had any. */
    public int count() {
        return problems.size();
    }

    public boolean isEmpty() {
        return problems.isEmpty();
    }

    /** The problems, in the order they were found. */
    public List<EngineConfigException> list() {
        return List.copyOf(problems);
    }
}
