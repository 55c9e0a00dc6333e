package dev.autocomplete.server.cli;

import java.nio.file.Files;
import java.nio.file.Path;

import picocli.CommandLine.Option;

import dev.autocomplete.server.config.ServerSettings;

/**
 * The options that say where a command finds the server's state, as {@code serve} reads them: the settings
 * file, the tenants directory and the data directory, over {@code autocomplete.yaml} and
 * {@code AUTOCOMPLETE_*} variables.
 */
final class SettingsOptions {

    @Option(names = "--config", paramLabel = "FILE",
            description = "Settings file (default: ./" + ServeCommand.DEFAULT_CONFIG + " when present).")
    Path config;

    @Option(names = "--tenants", paramLabel = "DIR",
            description = "Directory with one sub-directory per tenant (default: tenants.dir, else tenants).")
    Path tenantsDirectory;

    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "The server's data directory (default: data.dir, else data beside the tenants directory).")
    Path dataDirectory;

    ServerSettings settings() {
        Path file = config != null ? config
                : Files.isRegularFile(Path.of(ServeCommand.DEFAULT_CONFIG)) ? Path.of(ServeCommand.DEFAULT_CONFIG)
                : null;
        if (file != null && !Files.isRegularFile(file)) {
            throw new IllegalArgumentException("settings file not found: " + file);
        }
        return ServerSettings.read(file, System.getenv()).with(null, null, tenantsDirectory)
                .withDataDir(dataDirectory);
    }
}
