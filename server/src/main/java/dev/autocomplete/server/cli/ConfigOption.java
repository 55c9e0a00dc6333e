package dev.autocomplete.server.cli;

import dev.autocomplete.server.config.ServerSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The {@code --config FILE} option of the commands that read the server's settings ({@code serve}, {@code keys}). */
final class ConfigOption {

    /** Read when present in the working directory and no {@code --config} is given. */
    static final String DEFAULT_CONFIG = "autocomplete.yaml";

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description = "Settings file (default: ./" + DEFAULT_CONFIG + " when present); see the README.")
    Path config;

    /** The settings of the file and the environment ({@code AUTOCOMPLETE_*}), as {@code serve} reads them. */
    ServerSettings settings() {
        Path file =
                config != null ? config : Files.isRegularFile(Path.of(DEFAULT_CONFIG)) ? Path.of(DEFAULT_CONFIG) : null;
        if (file != null && !Files.isRegularFile(file)) {
            throw new IllegalArgumentException("settings file not found: " + file);
        }
        return ServerSettings.read(file, System.getenv());
    }
}
