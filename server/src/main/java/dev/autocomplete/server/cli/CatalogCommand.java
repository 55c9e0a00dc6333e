package dev.autocomplete.server.cli;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.ObjectMapper;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import dev.autocomplete.server.catalogs.CatalogStores;
import dev.autocomplete.server.catalogs.CheckedRecords;
import dev.autocomplete.server.catalogs.RecordReader;
import dev.autocomplete.server.catalogs.RecordWriter;
import dev.autocomplete.server.catalogs.TenantCatalogs;
import dev.autocomplete.server.config.ServerSettings;
import dev.autocomplete.server.store.CatalogRef;
import dev.autocomplete.server.store.CatalogStore;
import dev.autocomplete.server.store.InvalidRecordsException;
import dev.autocomplete.server.store.OptionRecord;
import dev.autocomplete.server.store.StorageUnavailableException;
import dev.autocomplete.server.tenant.TenantException;
import dev.autocomplete.server.tenant.TenantLoader;
import dev.autocomplete.server.tenant.YamlDocument;
import dev.autocomplete.server.wiring.AutocompleteServer;
import dev.autocomplete.spi.toolkit.ConfigTree;

/**
 * {@code catalog import|export}: a live catalog's options from or to a file, against the store the settings
 * name, as the records API's {@code PUT} and paged {@code GET} do. A running server sees an import within a
 * second or two.
 */
@Command(name = "catalog", mixinStandardHelpOptions = true,
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

        @Option(names = "--catalog", required = true, paramLabel = "C",
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
                throw new IllegalArgumentException("tenant '" + tenant + "' declares no catalog '" + catalog
                        + "' under 'catalogs' in " + file);
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> tree = (Map<String, Object>) one;
            return ConfigTree.at("catalogs." + catalog, tree);
        }

        CatalogRef ref() {
            return new CatalogRef(tenant, catalog);
        }
    }

    @Command(name = "import", mixinStandardHelpOptions = true,
            description = "Replace the catalog's options with a file's, atomically: NDJSON (.ndjson, .jsonl, or - for"
                    + " standard input), a JSON array (.json), or CSV (.csv, the columns of a seed file).")
    static final class Import implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.Mixin
        CatalogOptions options;

        @Parameters(paramLabel = "FILE", description = "The options to import.")
        String file;

        @Override
        public Integer call() throws IOException {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            ServerSettings settings = options.settings.settings();
            ConfigTree declaration = options.declaration(settings);
            try (CatalogStore store = CatalogStores.open(settings)) {
                long count;
                Path tenantDirectory = settings.tenants().resolve(options.tenant);
                if (file.toLowerCase(java.util.Locale.ROOT).endsWith(".csv")) {
                    Path csv = Path.of(file).toAbsolutePath();
                    List<OptionRecord> records = TenantCatalogs.seedFile(csv, tenantDirectory, declaration,
                            options.defaultLanguage);
                    java.util.Optional<String> seed = TenantCatalogs.declaredSeedDigest(declaration, tenantDirectory,
                            csv);
                    count = seed.isPresent() ? store.importSeed(options.ref(), records.iterator(), seed.get())
                            : store.replace(options.ref(), records.iterator());
                } else {
                    count = importJson(store, settings, err);
                    if (count < 0) {
                        return 1;
                    }
                }
                out.println("imported " + count + " option(s) into " + options.ref());
                return 0;
            } catch (InvalidRecordsException e) {
                printProblems(err, e.problems(), "record");
                return 1;
            } catch (TenantCatalogs.SeedProblem e) {
                err.println("error: " + e.problem().getMessage());
                return 1;
            } catch (StorageUnavailableException e) {
                err.println("error: the catalog store is unavailable: " + e.getMessage());
                return 1;
            }
        }

        /** Imports NDJSON or a JSON array; -1 after printing the problems when a record is invalid. */
        private long importJson(CatalogStore store, ServerSettings settings, PrintWriter err) throws IOException {
            ObjectMapper json = AutocompleteServer.jsonMapper(settings.limits());
            RecordReader.Format format = file.toLowerCase(java.util.Locale.ROOT).endsWith(".json")
                    ? RecordReader.Format.ARRAY : RecordReader.Format.NDJSON;
            String at = format == RecordReader.Format.NDJSON ? "line" : "index";
            // Read and checked whole before the store's transaction starts: a slow pipe holds no lock.
            try (CheckedRecords checked = file.equals("-") ? CheckedRecords.spool(format, json, System.in)
                    : CheckedRecords.of(format, json, Path.of(file))) {
                if (checked.invalid() > 0) {
                    printProblems(err, checked.problems(), at);
                    return -1;
                }
                RecordReader records = checked.records();
                try {
                    return store.replace(options.ref(), records);
                } catch (InvalidRecordsException e) {
                    // The store counts the records it was given; they are placed back where they stood in the file.
                    printProblems(err, e.problems().stream().map(p -> new InvalidRecordsException.Problem(
                            records.positionOf(p.index()), p.reason())).toList(), at);
                    return -1;
                }
            } catch (RecordReader.MalformedBody e) {
                err.println("error: " + file + ": " + e.getMessage() + " Nothing was imported.");
                return -1;
            }
        }

        private void printProblems(PrintWriter err, List<InvalidRecordsException.Problem> problems, String at) {
            for (InvalidRecordsException.Problem problem : problems) {
                err.println(file + ": " + at + " " + problem.index() + ": " + problem.reason());
            }
            err.println(problems.size() + " invalid record(s); nothing was imported");
        }
    }

    @Command(name = "export", mixinStandardHelpOptions = true,
            description = "Write the catalog's options, ordered by id: NDJSON (or - for standard output), or a JSON"
                    + " array when FILE ends in .json.")
    static final class Export implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.Mixin
        CatalogOptions options;

        @Parameters(paramLabel = "FILE", description = "Where to write the options.")
        String file;

        @Override
        public Integer call() throws IOException {
            ServerSettings settings = options.settings.settings();
            options.declaration(settings);
            boolean array = file.toLowerCase(java.util.Locale.ROOT).endsWith(".json");
            ObjectMapper json = AutocompleteServer.jsonMapper(settings.limits());
            long count = 0;
            try (CatalogStore store = CatalogStores.open(settings);
                    OutputStream out = file.equals("-") ? nonClosing(System.out)
                            : new BufferedOutputStream(Files.newOutputStream(Path.of(file)))) {
                RecordWriter writer = new RecordWriter(json, out, array);
                String after = null;
                while (true) {
                    List<OptionRecord> page = store.page(options.ref(), after, 1000);
                    for (OptionRecord record : page) {
                        writer.write(record);
                        count++;
                    }
                    if (page.size() < 1000) {
                        break;
                    }
                    after = page.getLast().id();
                }
                writer.finish();
            } catch (StorageUnavailableException e) {
                spec.commandLine().getErr().println("error: the catalog store is unavailable: " + e.getMessage());
                return 1;
            }
            if (!file.equals("-")) {
                spec.commandLine().getOut().println("exported " + count + " option(s) of " + options.ref() + " to "
                        + file);
            }
            return 0;
        }

        private static OutputStream nonClosing(OutputStream out) {
            return new java.io.FilterOutputStream(out) {
                @Override
                public void close() throws IOException {
                    flush();
                }
            };
        }
    }
}
