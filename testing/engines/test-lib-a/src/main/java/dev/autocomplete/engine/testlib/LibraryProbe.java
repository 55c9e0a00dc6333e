package dev.autocomplete.engine.testlib;

import dev.autocomplete.spi.Ask;
import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.Option;
import dev.autocomplete.spi.SpanMatch;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;

/**
 * Offers, for each of its params: {@code commons-csv <version>} (the version of the commons-csv classes this
 * engine's class loader resolved), {@code build <text>} (the bundled resource {@code build.txt}), the param's
 * configured {@code values} parsed with that library, then what {@code Class.forName} on server classes gave
 * (not tappable). A span equal to one of those texts is an exact match.
 */
final class LibraryProbe implements Engine {

    /** Classes of the server and of its libraries; an engine must not be able to load either. */
    static final List<String> SERVER_CLASSES = List.of(
            "dev.autocomplete.server.Main",
            "com.fasterxml.jackson.databind.ObjectMapper",
            "io.helidon.webserver.WebServer");

    private final Map<String, List<Option>> options = new LinkedHashMap<>();

    LibraryProbe(Map<String, String> values) {
        String version = "commons-csv " + libraryVersion();
        String build = "build " + build();
        values.forEach((type, csv) -> {
            List<Option> parsed = new ArrayList<>(List.of(Option.of(version), Option.of(build)));
            try {
                for (CSVRecord record : CSVFormat.DEFAULT.parse(new StringReader(csv))) {
                    record.forEach(value -> parsed.add(Option.of(value.strip())));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            for (String name : SERVER_CLASSES) {
                parsed.add(new Option(name + ": " + visibility(name), List.of(), false));
            }
            options.put(type, List.copyOf(parsed));
        });
    }

    @Override
    public Set<String> paramTypes() {
        return options.keySet();
    }

    @Override
    public List<SpanMatch> match(Ask ask, List<String> spans) {
        List<Option> known = options.getOrDefault(ask.type(), List.of());
        return spans.stream()
                .map(span -> known.stream()
                        .filter(o -> o.text().equalsIgnoreCase(span.strip()))
                        .findFirst()
                        .map(o -> SpanMatch.exact(o.text()))
                        .orElse(SpanMatch.NONE))
                .toList();
    }

    @Override
    public List<Option> options(Ask ask, String typed) {
        return options.getOrDefault(ask.type(), List.of());
    }

    /** The version in the pom.properties that sits beside the {@link CSVFormat} class this engine loaded. */
    private static String libraryVersion() {
        try (InputStream in =
                CSVFormat.class.getResourceAsStream("/META-INF/maven/org.apache.commons/commons-csv/pom.properties")) {
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

    /**
     * The bundled {@code build.txt}, which tests rewrite to tell builds of one JAR apart. Read through its URL, as
     * many libraries read resources: that goes through the JDK's cache of open JAR files by URL.
     */
    private static String build() {
        java.net.URL url = LibraryProbe.class.getResource("build.txt");
        if (url == null) {
            return "unknown";
        }
        try (InputStream in = url.openStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
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
