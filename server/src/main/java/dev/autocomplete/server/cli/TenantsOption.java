package dev.autocomplete.server.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The {@code --tenants DIR} option every command shares. */
final class TenantsOption {

    @Option(
            names = "--tenants",
            paramLabel = "DIR",
            defaultValue = "tenants",
            description = "Directory with one sub-directory per tenant (default: ${DEFAULT-VALUE}).")
    Path directory;
}
