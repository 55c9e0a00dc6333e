package com.example.repos;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.autocomplete.spi.Ask;
import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.EngineConfigException;
import dev.autocomplete.spi.EngineContext;
import dev.autocomplete.spi.EngineFactory;
import dev.autocomplete.spi.Option;
import dev.autocomplete.spi.ParamSpec;
import dev.autocomplete.spi.SpanMatch;
import dev.autocomplete.spi.ConfigTree;
import dev.autocomplete.spi.toolkit.Lookup;

/**
 * The engine named {@code repos}: GitHub-style repositories and their branches, from a list bundled in this JAR
 * ({@link Repositories}). All matching (folding, exact, prefix, inner word, typos, ranking) is the toolkit's
 * {@link Lookup}; this class only says which list a param reads.
 *
 * <p>Each param that names it ({@code engine: repos}) says what it lists: {@code list: repositories}, or
 * {@code list: branches} with {@code repository: TYPE}, the param that holds the repository (the branches offered
 * and read are that repository's, or every branch while it is empty). Stateless and thread-safe.
 */
public final class ReposEngineFactory implements EngineFactory {

    @Override
    public String name() {
        return "repos";
    }

    @Override
    public Engine create(EngineContext context) throws EngineConfigException {
        Repositories data = context.shared().get("repos", Repositories::bundled); // once per tenant load
        Map<String, String> repositoryOf = new HashMap<>(); // param type -> the type of its repository param
        for (ParamSpec param : context.params()) {
            ConfigTree config = param.config();
            config.allowOnly("list", "repository");
            boolean branches = config.string("list").equals("branches");
            String repository = branches ? config.string("repository", "") : param.type();
            if (!branches && !config.string("list").equals("repositories") || repository.isEmpty()) {
                throw config.error(branches ? "repository" : "list", "needs 'list: repositories', or 'list: branches'"
                        + " with 'repository: TYPE' naming the param that holds the branch's repository");
            }
            repositoryOf.put(param.type(), repository);
        }
        return new Engine() {
            @Override
            public Set<String> paramTypes() {
                return repositoryOf.keySet();
            }

            @Override
            public List<SpanMatch> match(Ask ask, List<String> spans) {
                return lookup(ask).match(ask, spans);
            }

            @Override
            public List<Option> options(Ask ask, String typed) {
                return lookup(ask).options(ask, typed);
            }

            private Lookup lookup(Ask ask) {
                String repository = repositoryOf.get(ask.type());
                return repository.equals(ask.type()) ? data.repositories() : data.branchesOf(ask.filled().get(repository));
            }
        };
    }
}
