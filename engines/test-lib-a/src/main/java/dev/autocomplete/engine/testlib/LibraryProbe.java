package dev.autocomplete.engine.testlib;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;

import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.Query;
import dev.autocomplete.spi.Reading;

/**
 * Answers every query with the prompt {@code commons-csv <version>} (the version of the commons-csv classes
 * this engine's class loader resolved) and one {@code probe} suggestion whose options are the configured
 * values parsed with that library, followed by what {@code Class.forName} on server classes gave.
 */
final class LibraryProbe implements Engine {

    /** Classes of the server and of its libraries; an engine must not be able to load either. */
    static final List<String> SERVER_CLASSES = List.of("dev.autocomplete.server.Main",
            "com.fasterxml.jackson.databind.ObjectMapper", "io.helidon.webserver.WebServer");

    private final String version;
    private final List<Reading.Option> options;

    LibraryProbe(String values) {
        this.version = libraryVersion();
        List<Reading.Option> parsed = new ArrayList<>();
        try {
            for (CSVRecord record : CSVFormat.DEFAULT.parse(new StringReader(values))) {
                record.forEach(value -> parsed.add(Reading.Option.of(value.strip())));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (String name : SERVER_CLASSES) {
            parsed.add(new Reading.Option(name + ": " + visibility(name), List.of(), false));
        }
        this.options = List.copyOf(parsed);
    }

    @Override
    public Reading read(Query query) {
        return new Reading(null, List.of(), "commons-csv " + version,
                List.of(new Reading.ParamSuggestion("probe", "Probe", false, options)));
    }

    @Override
    public Set<String> paramTypes() {
        return Set.of("probe");
    }

    /** The version in the pom.properties that sits beside the {@link CSVFormat} class this engine loaded. */
    private static String libraryVersion() {
        try (InputStream in = CSVFormat.class.getResourceAsStream(
                "/META-INF/maven/org.apache.commons/commons-csv/pom.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "unknown");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String visibility(String className) {
        try {
            Class.forName(className);
            return "visible";
        } catch (ClassNotFoundException e) {
            return "ClassNotFoundException";
        }
    }
}
