package com.example.repos;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.autocomplete.spi.Ask;
import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.Option;
import dev.autocomplete.spi.SpanMatch;

/**
 * Serves repository params and branch params. The branches offered, and read, are those of the repository the
 * user already picked or typed ({@link Ask#filled()}), or every branch while none is. Reads no clock and no file
 * after creation: cacheable. Immutable and thread-safe.
 */
final class ReposEngine implements Engine {

    private final Repositories data;
    private final Set<String> repositoryTypes;
    /** For each branch param type, the type of the param that holds its repository. */
    private final Map<String, String> repositoryOfBranch;

    ReposEngine(Repositories data, Set<String> repositoryTypes, Map<String, String> repositoryOfBranch) {
        this.data = data;
        this.repositoryTypes = Set.copyOf(repositoryTypes);
        this.repositoryOfBranch = Map.copyOf(repositoryOfBranch);
    }

    @Override
    public Set<String> paramTypes() {
        return union(repositoryTypes, repositoryOfBranch.keySet());
    }

    @Override
    public List<SpanMatch> match(Ask ask, List<String> spans) {
        Choices choices = choices(ask);
        return spans.stream().map(choices::match).toList();
    }

    @Override
    public List<Option> options(Ask ask, String typed) {
        return choices(ask).options(typed, ask.limit());
    }

    private Choices choices(Ask ask) {
        if (repositoryTypes.contains(ask.type())) {
            return data.repositories();
        }
        return data.branchesOf(ask.filled().get(repositoryOfBranch.get(ask.type())));
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new HashSet<>(a);
        all.addAll(b);
        return Set.copyOf(all);
    }
}
