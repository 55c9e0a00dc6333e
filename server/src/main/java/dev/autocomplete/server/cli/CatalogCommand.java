package dev.autocomplete.server.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.autocomplete.server.catalogs.CatalogStores;
import dev.autocomplete.server.catalogs.CheckedRecords;
import dev.autocomplete.server.catalogs.CsvRecordWriter;
import dev.autocomplete.server.catalogs.RecordReader;
import dev.autocomplete.server.catalogs.RecordWriter;
import dev.autocomplete.server.catalogs.TenantCatalogs;
import dev.autocomplete.server.config.ServerSettings;
import dev.autocomplete.server.storage.MigrationMark;
import dev.autocomplete.server.store.CatalogRef;
import dev.autocomplete.server.store.CatalogStore;
import dev.autocomplete.server.store.InvalidRecordsException;
import dev.autocomplete.server.store.OptionRecord;
import dev.autocomplete.server.store.StorageUnavailableException;
import dev.autocomplete.server.tenant.TenantException;
import dev.autocomplete.server.tenant.TenantLoader;
import dev.autocomplete.server.tenant.YamlDocument;
import dev.autocomplete.server.wiring.AutocompleteServer;
import dev.autocomplete.spi.ConfigTree;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code catalog import|export}: a live catalog's options from or to a file, against the store the settings
 * name, as the records API's {@code PUT} and paged {@code GET} do. A running server sees an import within a
 * second or two.
 */
@Command(
        name = "catalog",
        mixinStandardHelpOptions = true,
        description = "Import or export the options of a live catalog.",
        subcommands = {CatalogCommand.Import.class, CatalogCommand.Export.class})
public final class CatalogCommand implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The catalog a command works on, checked against the tenant's declarations. */
    static final class CatalogOptions {
        @CommandLine.Mixin
        SettingsOptions settings;

        @Option(names = "--tenant", required = true, paramLabel = "T", description = "Tenant id (its directory name).")
        String tenant;

        @Option(
                names = "--catalog",
                required = true,
                paramLabel = "C",
                description = "A catalog the tenant declares under 'catalogs' in tenant.yaml.")
        String catalog;

        /** The tenant's default language, known once {@link #declaration} has read tenant.yaml. */
        String defaultLanguage = "en";

        /** The tenant's declaration of the catalog. */
        ConfigTree declaration(ServerSettings resolved) throws IOException {
            Path directory = resolved.tenants().resolve(tenant).normalize();
            Path file = directory.resolve(TenantLoader.TENANT_FILE);
            if (tenant.contains("/") || tenant.contains("\\") || tenant.startsWith(".") || !Files.isRegularFile(file)) {
                throw new IllegalArgumentException("No tenant '" + tenant + "' in " + resolved.tenants() + " (no "
                        + TenantLoader.TENANT_FILE + ")");
            }
            Object root;
            try {
                root = YamlDocument.read(file).root();
            } catch (TenantException e) {
                throw new IllegalArgumentException(e.getMessage());
            }
            Object catalogs = root instanceof Map<?, ?> map ? map.get("catalogs") : null;
            if (root instanceof Map<?, ?> map && map.get("default_language") instanceof String language) {
                defaultLanguage = language;
            }
            if (!(catalogs instanceof Map<?, ?> declared) || !(declared.get(catalog) instanceof Map<?, ?> one)) {
                throw new IllegalArgumentException(
                        "tenant '" + tenant + "' declares no catalog '" + catalog + "' under 'catalogs' in " + file);
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> tree = (Map<String, Object>) one;
            return ConfigTree.at("catalogs." + catalog, tree);
        }

        CatalogRef ref() {
            return new CatalogRef(tenant, catalog);
        }
    }

    /** How a file of options is written: by its name, or as {@code --format} says (standard input and output). */
    enum Format {
        CSV,
        NDJSON,
        JSON;

        /** {@code --format}, else by the file name's ending: {@code .csv}, {@code .json}, else NDJSON. */
        static Format of(String file, String given, CommandLine.Model.CommandSpec spec) {
            if (given != null) {
                try {
                    return valueOf(given.toUpperCase(Locale.ROOT));
                } catch (IllegalArgumentException e) {
                    throw new CommandLine.ParameterException(
                            spec.commandLine(), "--format must be csv, ndjson or json, not '" + given + "'");
                }
            }
            String name = file.toLowerCase(Locale.ROOT);
            return name.endsWith(".csv") ? CSV : name.endsWith(".json") ? JSON : NDJSON;
        }
    }

    /** Where a command reads or writes: {@code -} is standard input or output. */
    private static String shown(String file) {
        return file.equals("-") ? "standard input" : file;
    }

    @Command(
            name = "import",
            mixinStandardHelpOptions = true,
            description = "Replace the catalog's options with a file's, atomically: NDJSON (.ndjson, .jsonl, or - for"
                    + " standard input), a JSON array (.json), or CSV (.csv, the columns of a seed file: id, text,"
                    + " aliases, weight, text_<language>). Any readable file; relative to the current directory.")
    static final class Import implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.Mixin
        CatalogOptions options;

        @Option(
                names = "--format",
                paramLabel = "csv|ndjson|json",
                description = "The file's format (default: by its name; NDJSON for - and other names).")
        String format;

        @Parameters(paramLabel = "FILE", description = "The options to import, or - for standard input.")
        String file;

        @Override
        public Integer call() throws IOException {
            Format chosen = Format.of(file, format, spec);
            if (!file.equals("-")) {
                Path path = Path.of(file).toAbsolutePath();
                if (!Files.isRegularFile(path)) {
                    throw new IllegalArgumentException("cannot read " + file + ": no such file");
                }
                return importFile(chosen, path);
            }
            // Standard input is read whole before the store is opened: a write never waits on a pipe, and
            // `catalog export - | catalog import -` reads the store before this writes it.
            Path directory = Files.createTempDirectory("autocomplete-import");
            Path copy = directory.resolve("standard-input." + chosen.name().toLowerCase(Locale.ROOT));
            try {
                Files.copy(System.in, copy);
                return importFile(chosen, copy);
            } finally {
                Files.deleteIfExists(copy);
                Files.deleteIfExists(directory);
            }
        }

        private int importFile(Format chosen, Path path) throws IOException {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            ServerSettings settings = options.settings.settings();
            ConfigTree declaration = options.declaration(settings);
            MigrationMark.refuseWrites(settings);
            try (CatalogStore store = CatalogStores.open(settings)) {
                long count = chosen == Format.CSV
                        ? importCsv(store, settings, declaration, path)
                        : importJson(store, settings, chosen, path, err);
                if (count < 0) {
                    return 1;
                }
                out.println("imported " + count + " option(s) into " + options.ref());
                return 0;
            } catch (InvalidRecordsException e) {
                printProblems(err, e.problems(), e.problems().size(), "record");
                return 1;
            } catch (TenantCatalogs.SeedProblem e) {
                if (e.refusedRows() > 0) {
                    printProblems(err, e.rows(), e.refusedRows(), "line");
                } else {
                    err.println("error: " + shown(file) + ": " + e.problem().getMessage());
                }
                return 1;
            } catch (StorageUnavailableException e) {
                err.println("error: the catalog store is unavailable: " + e.getMessage());
                return 1;
            }
        }

        /** A seed CSV, as the catalog engine reads one. */
        private long importCsv(CatalogStore store, ServerSettings settings, ConfigTree declaration, Path csv) {
            Path tenantDirectory = settings.tenants().resolve(options.tenant);
            List<OptionRecord> records =
                    TenantCatalogs.seedFile(csv, tenantDirectory, declaration, options.defaultLanguage);
            Optional<String> seed = TenantCatalogs.declaredSeedDigest(declaration, tenantDirectory, csv);
            return seed.isPresent()
                    ? store.importSeed(options.ref(), records.iterator(), seed.get())
                    : store.replace(options.ref(), records.iterator());
        }

        /** Imports NDJSON or a JSON array; -1 after printing the problems when a record is invalid. */
        private long importJson(CatalogStore store, ServerSettings settings, Format chosen, Path path, PrintWriter err)
                throws IOException {
            ObjectMapper json = AutocompleteServer.jsonMapper(settings.limits());
            RecordReader.Format format = chosen == Format.JSON ? RecordReader.Format.ARRAY : RecordReader.Format.NDJSON;
            String at = format == RecordReader.Format.NDJSON ? "line" : "index";
            // Read and checked whole before the store's transaction starts: a slow pipe holds no lock.
            try (CheckedRecords checked = CheckedRecords.of(format, json, path, options.defaultLanguage)) {
                if (checked.invalid() > 0) {
                    printProblems(err, checked.problems(), checked.invalid(), at);
                    return -1;
                }
                RecordReader records = checked.records();
                if (!records.hasNext()) {
                    // An upstream command that failed leaves an empty pipe: that never empties a catalog.
                    err.println("error: " + shown(file) + " holds no options; nothing was imported");
                    return -1;
                }
                try {
                    return store.replace(options.ref(), records);
                } catch (InvalidRecordsException e) {
                    // The store counts the records it was given; they are placed back where they stood in the file.
                    printProblems(
                            err,
                            e.problems().stream()
                                    .map(p -> new InvalidRecordsException.Problem(
                                            records.positionOf(p.index()), p.reason()))
                                    .toList(),
                            e.problems().size(),
                            at);
                    return -1;
                }
            } catch (RecordReader.MalformedBody e) {
                err.println("error: " + shown(file) + ": "
                        + (e.notAnArray()
                                ? "not a JSON array of records (for one record a line, name the file .ndjson or pass"
                                        + " --format ndjson)."
                                : e.getMessage())
                        + " Nothing was imported.");
                return -1;
            }
        }

        /** Each refused record by its position ({@code at}: line, index or record), then how many there were. */
        private void printProblems(
                PrintWriter err, List<InvalidRecordsException.Problem> problems, long count, String at) {
            for (InvalidRecordsException.Problem problem : problems) {
                err.println(shown(file) + ": " + at + " " + problem.index() + ": " + problem.reason());
            }
            err.println(count + " invalid record(s)"
                    + (count > problems.size() ? " (the first " + problems.size() + " listed)" : "")
                    + "; nothing was imported");
        }
    }

    @Command(
            name = "export",
            mixinStandardHelpOptions = true,
            description = "Write the catalog's options, ordered by id: NDJSON (or - for standard output), a JSON"
                    + " array when FILE ends in .json, or CSV when it ends in .csv (the seed columns, which"
                    + " 'catalog import' reads back).")
    static final class Export implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.Mixin
        CatalogOptions options;

        @Option(
                names = "--format",
                paramLabel = "csv|ndjson|json",
                description = "The format to write (default: by FILE's name; NDJSON for - and other names).")
        String format;

        @Parameters(paramLabel = "FILE", description = "Where to write the options, or - for standard output.")
        String file;

        /** Takes one record after another. */
        private interface Records {
            void write(OptionRecord record) throws IOException;
        }

        @Override
        public Integer call() throws IOException {
            Format chosen = Format.of(file, format, spec);
            ServerSettings settings = options.settings.settings();
            options.declaration(settings);
            MigrationMark.of(settings).ifPresent(migrated -> spec.commandLine()
                    .getErr()
                    .println("note: " + migrated + ": these are its options as they were then. The servers' options"
                            + " are there: give this command their storage URL (AUTOCOMPLETE_STORAGE_URL)."));
            PrintWriter stdout = spec.commandLine().getOut();
            boolean toStdout = file.equals("-");
            long count;
            try (CatalogStore store = CatalogStores.open(settings)) {
                // CSV names the languages in its header: a first pass finds them, and refuses what CSV cannot hold
                // before the file is created.
                SortedSet<String> languages = new TreeSet<>();
                SortedSet<String> attributes = new TreeSet<>();
                long first = 0;
                if (chosen == Format.CSV) {
                    first = each(store, record -> {
                        CsvRecordWriter.requireWritable(record);
                        languages.addAll(record.translations().keySet());
                        attributes.addAll(record.attributes().keySet());
                    });
                }
                // The command's own standard output, not System.out: engines' prints go to the log from there.
                Writer out = toStdout ? stdout : Files.newBufferedWriter(Path.of(file), StandardCharsets.UTF_8);
                try {
                    if (chosen == Format.CSV) {
                        CsvRecordWriter csv = new CsvRecordWriter(out, List.copyOf(languages), List.copyOf(attributes));
                        count = each(store, csv::write);
                        csv.finish();
                        if (count != first) {
                            spec.commandLine()
                                    .getErr()
                                    .println("error: the catalog changed between the two reads a CSV export makes (its"
                                            + " languages, then its records); run the export again");
                            return 1;
                        }
                    } else {
                        RecordWriter json = new RecordWriter(
                                AutocompleteServer.jsonMapper(settings.limits()), out, chosen == Format.JSON);
                        count = each(store, json::write);
                        json.finish();
                    }
                } finally {
                    if (!toStdout) {
                        out.close();
                    }
                }
            } catch (StorageUnavailableException e) {
                spec.commandLine().getErr().println("error: the catalog store is unavailable: " + e.getMessage());
                return 1;
            }
            if (toStdout && stdout.checkError()) {
                spec.commandLine().getErr().println("error: standard output closed before the export's end");
                return 1;
            }
            if (!toStdout) {
                stdout.println("exported " + count + " option(s) of " + options.ref() + " to " + file);
            }
            return 0;
        }

        /**
         * Every record of the catalog, by id, read in one statement (one snapshot: a replace meanwhile is seen whole
         * or not at all, where pages read one after another saw the old records and then none); returns how many.
         */
        private long each(CatalogStore store, Records records) throws IOException {
            long[] count = {0};
            try {
                store.forEach(options.ref(), record -> {
                    try {
                        records.write(record);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    count[0]++;
                });
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            return count[0];
        }
    }
}
