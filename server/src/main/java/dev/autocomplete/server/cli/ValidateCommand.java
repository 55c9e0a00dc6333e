package dev.autocomplete.server.cli;

import dev.autocomplete.server.auth.KeysFile;
import dev.autocomplete.server.tenant.Problem;
import dev.autocomplete.server.tenant.TenantLoader;
import dev.autocomplete.server.tenant.TenantRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code validate}: loads every tenant as the server would and prints each problem as {@code file:line: message}. */
@Command(
        name = "validate",
        mixinStandardHelpOptions = true,
        description =
                "Check every tenant; print problems as file:line: message (and warnings as file:line: warning: message); exit 1 when there are problems.")
public final class ValidateCommand implements Callable<Integer> {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    private TenantsOption tenants;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<Path> directories;
        try {
            directories = TenantRegistry.tenantDirectories(tenants.directory);
        } catch (IOException e) {
            err.println(tenants.directory + ":1: " + e.getMessage());
            return 1;
        }
        TenantLoader loader = new TenantLoader();
        List<Problem> problems = new ArrayList<>();
        List<Problem> warnings = new ArrayList<>();
        // As the server loads them: in order, a tenant refused when an earlier one has one of its product ids.
        Map<UUID, String> owners = new HashMap<>();
        for (Path directory : directories) {
            TenantLoader.Result result = loader.load(directory, id -> Optional.ofNullable(owners.get(id)));
            problems.addAll(result.problems());
            warnings.addAll(result.warnings());
            if (result.tenant() != null) {
                result.tenant()
                        .products()
                        .forEach(product ->
                                owners.put(product.id(), result.tenant().id()));
                result.tenant().close();
            }
            KeysFile keys = new KeysFile(directory);
            try {
                keys.read();
            } catch (IOException e) {
                problems.add(new Problem(keys.path(), 0, e.getMessage()));
            }
        }
        problems.forEach(err::println);
        warnings.forEach(err::println);
        if (problems.isEmpty()) {
            out.println("ok: " + directories.size() + " tenant(s) in " + tenants.directory
                    + (warnings.isEmpty() ? "" : ", " + warnings.size() + " warning(s)"));
            return 0;
        }
        err.println(problems.size() + " problem(s)");
        return 1;
    }
}
