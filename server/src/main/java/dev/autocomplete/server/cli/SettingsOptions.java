package dev.autocomplete.server.cli;

import dev.autocomplete.server.config.ServerSettings;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * Where a command finds the server's state, as {@code serve} reads it: the settings file, the tenants directory
 * and the data directory, over {@code autocomplete.yaml} and {@code AUTOCOMPLETE_*} variables.
 */
final class SettingsOptions {

    @CommandLine.Mixin
    ConfigOption config;

    @Option(
            names = "--tenants",
            paramLabel = "DIR",
            description = "Directory with one sub-directory per tenant (default: tenants.dir, else tenants).")
    Path tenantsDirectory;

    @Option(
            names = "--data-dir",
            paramLabel = "DIR",
            description = "The server's data directory (default: data.dir, else data beside the tenants directory).")
    Path dataDirectory;

    ServerSettings settings() {
        return config.settings().with(null, null, tenantsDirectory).withDataDir(dataDirectory);
    }
}
