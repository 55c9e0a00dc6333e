package com.example.repos;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.EngineConfigException;
import dev.autocomplete.spi.EngineContext;
import dev.autocomplete.spi.EngineFactory;
import dev.autocomplete.spi.ParamSpec;
import dev.autocomplete.spi.toolkit.ConfigTree;

/**
 * The engine named {@code repos}: GitHub-style repositories and their branches, from a list bundled in this JAR.
 *
 * <p>Each param that names it ({@code engine: repos}) says what it lists: {@code list: repositories}, or
 * {@code list: branches} with {@code repository: TYPE}, the param that holds the repository (optional when the
 * product has one repository param). No tenant-wide settings. Stateless and thread-safe.
 */
public final class ReposEngineFactory implements EngineFactory {

    private static final List<String> PARAM_KEYS = List.of("list", "repository");

    @Override
    public String name() {
        return "repos";
    }

    @Override
    public Engine create(EngineContext context) throws EngineConfigException {
        if (!context.config().keys().isEmpty()) {
            throw context.config().error(context.config().keys().iterator().next(),
                    "is not a key of the repos engine: it has no tenant-wide settings");
        }
        // Loaded once per tenant load, however many products name this engine.
        Repositories data = context.shared().get("repos:" + Repositories.RESOURCE, Repositories::bundled);
        Set<String> repositoryTypes = new LinkedHashSet<>();
        Map<String, ConfigTree> branchParams = new HashMap<>();
        for (ParamSpec param : context.params()) {
            ConfigTree config = param.config();
            for (String key : config.keys()) {
                if (!PARAM_KEYS.contains(key)) {
                    throw config.error(key, "is not a key of the repos engine; its keys are " + PARAM_KEYS);
                }
            }
            switch (config.string("list")) {
                case "repositories" -> repositoryTypes.add(param.type());
                case "branches" -> branchParams.put(param.type(), config);
                default -> throw config.error("list", "must be 'repositories' or 'branches', got '"
                        + config.string("list") + "'");
            }
        }
        Map<String, String> repositoryOfBranch = new HashMap<>();
        for (Map.Entry<String, ConfigTree> branch : branchParams.entrySet()) {
            ConfigTree config = branch.getValue();
            String repository = config.string("repository", repositoryTypes.size() == 1
                    ? repositoryTypes.iterator().next() : null);
            if (repository == null || !repositoryTypes.contains(repository)) {
                throw config.error("repository", "must name the param with 'list: repositories' that holds the"
                        + " branch's repository (this product's: " + repositoryTypes + ")");
            }
            repositoryOfBranch.put(branch.getKey(), repository);
        }
        return new ReposEngine(data, repositoryTypes, repositoryOfBranch);
    }
}
