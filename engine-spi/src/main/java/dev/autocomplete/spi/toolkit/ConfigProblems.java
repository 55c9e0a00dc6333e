package dev.autocomplete.spi.toolkit;

import static java.util.Objects.requireNonNull;

import dev.autocomplete.spi.ConfigTree;
import dev.autocomplete.spi.EngineConfigException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

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
    /** Full paths of absent keys that a recorded misspelt key probably meant: a problem about one is a follow-on. */
    private final Set<String> misspelt = new HashSet<>();

    /**
     * The value {@code read} gives, or {@code otherwise} after recording why it failed.
     *
     * @param otherwise what to go on with when the read fails; may be null
     */
    public <T> T read(Read<T> read, T otherwise) {
        try {
            return read.read();
        } catch (EngineConfigException e) {
            add(e);
            return otherwise;
        }
    }

    /** Runs {@code check}, recording its problem if it throws; whether it passed. */
    public boolean check(Check check) {
        try {
            check.check();
            return true;
        } catch (EngineConfigException e) {
            add(e);
            return false;
        }
    }

    /**
     * Records a problem, unless it is about an absent key that a misspelt key recorded by {@link #unknownKeys} or
     * {@link #misspelt} probably meant: "phrasess: did you mean 'phrases'?" says it all, without "phrases: is
     * required" after it.
     */
    public void add(EngineConfigException problem) {
        requireNonNull(problem, "problem is null");
        if (!misspelt.contains(problem.key())) {
            problems.add(problem);
        }
    }

    /**
     * Records each key of {@code tree} that is not {@code known} ({@link ConfigTree#unknownKeys}), and remembers
     * the absent keys they probably meant, so that a later problem about one of those is not reported too.
     */
    public void unknownKeys(ConfigTree tree, Set<String> known) {
        addAll(tree.unknownKeys(known));
        for (String key : tree.keys()) {
            if (!known.contains(key)) {
                tree.meant(key, known)
                        .filter(meant -> !tree.has(meant))
                        .ifPresent(meant -> misspelt.add(tree.child(meant)));
            }
        }
    }

    /**
     * For a map whose other keys someone else reads (so that {@link #unknownKeys} cannot be told all of them): each
     * key of {@code keys} that {@code tree} lacks while it has a key that probably misspells it is reported as that
     * misspelling, and no later problem about the absent key is.
     */
    public void misspelt(ConfigTree tree, Set<String> keys) {
        for (String key : tree.keys()) {
            if (keys.contains(key)) {
                continue;
            }
            Optional<String> meant = ConfigTree.nearest(key, keys).filter(k -> !tree.has(k));
            if (meant.isPresent()) {
                add(tree.error(key, ConfigTree.didYouMean(meant.get())));
                misspelt.add(tree.child(meant.get()));
            }
        }
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
