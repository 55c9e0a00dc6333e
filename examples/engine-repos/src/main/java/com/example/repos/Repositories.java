package com.example.repos;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.autocomplete.spi.EngineConfigException;
import dev.autocomplete.spi.toolkit.Lookup;
import dev.autocomplete.spi.toolkit.TextFolding;

/**
 * The repositories and their branches, from {@code repositories.txt} bundled in this JAR: one line per
 * repository, {@code owner/name: branch, branch, ...}, most active first. Immutable and thread-safe.
 */
final class Repositories {

    static final String RESOURCE = "repositories.txt";

    private final Lookup repositories;
    /** Branches by folded repository name. */
    private final Map<String, Lookup> branchesOf = new HashMap<>();
    private final Lookup allBranches;

    private Repositories(Map<String, List<String>> branches) {
        Lookup.Builder names = Lookup.builder();
        Set<String> every = new LinkedHashSet<>();
        int weight = branches.size(); // most active first
        for (Map.Entry<String, List<String>> repository : branches.entrySet()) {
            String name = repository.getKey();
            // A repository also goes by its name without the owner: "rocket" for acme/rocket.
            names.add(name, weight--, List.of(name.substring(name.indexOf('/') + 1)));
            branchesOf.put(TextFolding.fold(name), Lookup.of(repository.getValue()));
            every.addAll(repository.getValue());
        }
        this.repositories = names.build();
        this.allBranches = Lookup.of(List.copyOf(every));
    }

    /** Reads the bundled list; this engine's JAR must hold it. */
    static Repositories bundled() throws EngineConfigException {
        try (InputStream in = Repositories.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new EngineConfigException("", "the repos engine's JAR has no " + RESOURCE);
            }
            return parse(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).lines().toList());
        } catch (IOException e) {
            throw new EngineConfigException("", "cannot read the repos engine's " + RESOURCE + ": " + e.getMessage());
        }
    }

    static Repositories parse(List<String> lines) throws EngineConfigException {
        Map<String, List<String>> branches = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int colon = line.indexOf(':');
            String repository = colon < 0 ? "" : line.substring(0, colon).strip();
            if (repository.indexOf('/') <= 0) {
                throw new EngineConfigException("", RESOURCE + " line " + (i + 1) + ": expected 'owner/name: branch,"
                        + " ...', got '" + line + "'");
            }
            List<String> list = new ArrayList<>();
            for (String branch : line.substring(colon + 1).split(",")) {
                if (!branch.isBlank()) {
                    list.add(branch.strip());
                }
            }
            branches.put(repository, List.copyOf(list));
        }
        return new Repositories(branches);
    }

    Lookup repositories() {
        return repositories;
    }

    /** The branches of a repository as the user sees it (picked or typed); every branch when it is unknown. */
    Lookup branchesOf(String repository) {
        return repository == null ? allBranches : branchesOf.getOrDefault(TextFolding.fold(repository), allBranches);
    }
}
