package dev.autocomplete.server.catalogs;

import dev.autocomplete.index.LiveOptions;
import dev.autocomplete.server.engines.GuardedEngine;
import dev.autocomplete.server.store.CatalogRef;
import dev.autocomplete.server.store.InvalidRecordsException;
import dev.autocomplete.server.store.OptionRecord;
import dev.autocomplete.server.store.OptionRecords;
import dev.autocomplete.server.store.StorageUnavailableException;
import dev.autocomplete.spi.ConfigTree;
import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.EngineConfigException;
import dev.autocomplete.spi.EngineContext;
import dev.autocomplete.spi.ParamSpec;
import dev.autocomplete.spi.toolkit.ConfigProblems;
import dev.autocomplete.spi.toolkit.TextFolding;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * The catalogs one tenant declares under {@code catalogs} in {@code tenant.yaml}, each served live from the
 * store ({@link LiveCatalogs}), or, for {@code validate} and the engine test kit (no store), from its file as a
 * fixed list. Serves the params that name a catalog ({@code catalog: cities}) as one param source per product.
 */
public final class TenantCatalogs {

    /** The name under which a product's catalog params are served, in health and metrics. */
    public static final String SOURCE_NAME = GuardedEngine.CORE_SOURCE;

    /** The keys the catalogs read of a param that names one; {@code options} is an error of its own there. */
    private static final Set<String> PARAM_KEYS = Set.of("catalog", "options", CatalogSources.CONTEXT_ATTRIBUTES);

    private final Map<String, Supplier<LiveOptions>> byName;
    /** An array: {@link #generation()} is read on every request, without an iterator. Grows at {@link #commit}. */
    private volatile LiveCatalog[] live;
    /** Catalogs the store does not hold yet, served from their seed in memory until {@link #commit} imports them. */
    private final List<Pending> pending;

    private final LiveCatalogs store;
    /**
     * Whether {@code tenant.yaml} misspelt {@code catalogs} (that key's problem is said already): a param naming a
     * catalog is then no second problem.
     */
    private boolean declarationsMisspelt;
    /** Reads inline option lists: the tenant's directory and default language. */
    private final EngineContext inlineReader;
    /** What is likely a mistake but keeps nothing from serving, found while the params' sources are built. */
    private final List<EngineConfigException> warnings = new CopyOnWriteArrayList<>();

    private TenantCatalogs(
            Map<String, Supplier<LiveOptions>> byName,
            List<LiveCatalog> live,
            List<Pending> pending,
            LiveCatalogs store,
            EngineContext inlineReader) {
        this.byName = Map.copyOf(byName);
        this.live = live.toArray(LiveCatalog[]::new);
        this.pending = List.copyOf(pending);
        this.store = store;
        this.inlineReader = inlineReader;
    }

    /** A tenant that declares no catalogs (its params' inline lists are read in the default language, English). */
    public static final TenantCatalogs NONE =
            new TenantCatalogs(Map.of(), List.of(), List.of(), null, CatalogSeeds.context(Path.of("."), "en"));

    /**
     * A catalog the store does not hold yet: its seed, read and checked, served from memory while the tenant is
     * checked, and imported by {@link #commit} only once the tenant loads. A load refused for another problem (a
     * misspelt engine) imported it before, and the operator's edit of the file in the same fix was then reported as
     * changed since the import and not merged (an operator trial).
     */
    private static final class Pending {
        final CatalogRef ref;
        final ConfigTree declaration;
        final LiveCatalogs.Seed seed;
        volatile Supplier<LiveOptions> options;

        Pending(CatalogRef ref, ConfigTree declaration, LiveCatalogs.Seed seed, LiveOptions fromSeed) {
            this.ref = ref;
            this.declaration = declaration;
            this.seed = seed;
            this.options = () -> fromSeed;
        }

        LiveOptions options() {
            return options.get();
        }
    }

    /**
     * Imports the catalogs the store did not hold when the tenant was read (their seeds), now that it loads: what is
     * wrong with one, for the tenant's problems; empty when all are in. Call once, before the tenant serves.
     */
    public List<EngineConfigException> commit() {
        List<EngineConfigException> problems = new ArrayList<>();
        List<LiveCatalog> opened = new ArrayList<>(List.of(live));
        for (Pending one : pending) {
            try {
                LiveCatalog catalog = store.open(one.ref, one.seed);
                opened.add(catalog);
                one.options = catalog::options;
            } catch (InvalidRecordsException e) {
                problems.add(refused(one.declaration, e));
            } catch (StorageUnavailableException e) {
                problems.add(one.declaration.error("", "cannot be opened: " + e.getMessage()));
            }
        }
        live = opened.toArray(LiveCatalog[]::new);
        return problems;
    }

    /**
     * Opens every catalog {@code declarations} names. A catalog that cannot be opened is reported to
     * {@code problems} with its key, and served empty, so that the params naming it report nothing more.
     *
     * @param store null to read each catalog's seed into memory, with no store (nothing is written)
     */
    public static TenantCatalogs open(
            String tenantId,
            ConfigTree declarations,
            Path tenantDirectory,
            String defaultLanguage,
            LiveCatalogs store,
            ConfigProblems problems) {
        Map<String, Supplier<LiveOptions>> byName = new LinkedHashMap<>();
        List<LiveCatalog> live = new ArrayList<>();
        List<Pending> pending = new ArrayList<>();
        LiveOptions none = LiveOptions.of(List.of());
        for (String name : declarations.keys()) {
            byName.put(name, () -> none);
            ConfigTree declaration;
            try {
                declaration = declarations.tree(name);
            } catch (EngineConfigException e) {
                problems.add(e);
                continue;
            }
            int before = problems.count();
            problems.unknownKeys(declaration, CatalogConfig.CATALOG_KEYS);
            if (problems.count() > before) {
                continue; // served empty; a declaration without 'file' or 'options' would read as filled by the API
            }
            try {
                CatalogRef ref = new CatalogRef(tenantId, name);
                if (store != null && store.wouldSeed(ref)) {
                    // Read now, so that its problems are the load's; imported at commit, once the tenant loads.
                    List<OptionRecord> records = seed(declaration, tenantDirectory, defaultLanguage);
                    Pending one = new Pending(
                            ref,
                            declaration,
                            new LiveCatalogs.Seed(
                                    source(declaration, tenantDirectory),
                                    () -> records,
                                    digest(declaration, tenantDirectory)),
                            inMemory(records));
                    pending.add(one);
                    byName.put(name, one::options);
                } else if (store == null) {
                    LiveOptions fixed = inMemory(seed(declaration, tenantDirectory, defaultLanguage));
                    byName.put(name, () -> fixed);
                } else {
                    LiveCatalog catalog = store.open(
                            ref,
                            new LiveCatalogs.Seed(
                                    source(declaration, tenantDirectory),
                                    () -> seed(declaration, tenantDirectory, defaultLanguage),
                                    digest(declaration, tenantDirectory)));
                    live.add(catalog);
                    byName.put(name, catalog::options);
                }
            } catch (SeedProblem e) {
                problems.add(e.problem());
            } catch (InvalidRecordsException e) {
                problems.add(refused(declaration, e));
            } catch (StorageUnavailableException e) {
                problems.add(declaration.error("", "cannot be opened: " + e.getMessage()));
            }
        }
        return new TenantCatalogs(byName, live, pending, store, CatalogSeeds.context(tenantDirectory, defaultLanguage));
    }

    /** A seed's options indexed in memory, with no store behind them. */
    private static LiveOptions inMemory(List<OptionRecord> records) {
        return LiveOptions.of(records.stream().map(LiveCatalogs::entry).toList());
    }

    private static EngineConfigException refused(ConfigTree declaration, InvalidRecordsException e) {
        return declaration.error(
                "",
                "holds options the store refuses: "
                        + e.problems().stream()
                                .limit(5)
                                .map(p -> "option " + (p.index() + 1) + ": " + p.reason())
                                .toList());
    }

    /**
     * What looks like a mistake in the params served so far and keeps nothing from serving: a context attribute
     * that no option of its list carries (a typo, or one the records API has not written yet), which then never
     * boosts or filters anything.
     */
    public List<EngineConfigException> warnings() {
        return List.copyOf(warnings);
    }

    /** The declared catalog names. */
    public Set<String> names() {
        return byName.keySet();
    }

    /** Grows whenever one of the tenant's catalogs changes: responses of an older generation are not reused. */
    public long generation() {
        long sum = 0;
        for (LiveCatalog catalog : live) {
            sum += catalog.generation();
        }
        return sum;
    }

    /**
     * What is wrong with the keys of a param of the core's option lists: a key they do not read (each said with the
     * key it probably meant), a catalog and inline {@code options} both, or neither.
     */
    public static List<EngineConfigException> keyProblems(ConfigTree param) {
        List<EngineConfigException> problems = new ArrayList<>(param.unknownKeys(PARAM_KEYS));
        if (param.has("catalog") && param.has("options")) {
            problems.add(param.error(
                    "options", "give either 'catalog' (a name under catalogs) or inline 'options'," + " not both"));
        } else if (problems.isEmpty() && !param.has("catalog") && !param.has("options")) {
            problems.add(param.error("", "needs 'catalog' (a name under catalogs) or inline 'options'"));
        }
        return problems;
    }

    /**
     * What is wrong with a param's {@code context_attributes} (a bad mode, a {@code from} with an empty name), apart
     * from {@link #source}, so that a load reports it for every param, not only the first.
     */
    public static List<EngineConfigException> ruleProblems(ConfigTree param) {
        try {
            CatalogSources.rules(param);
            return List.of();
        } catch (EngineConfigException e) {
            return List.of(e);
        }
    }

    /**
     * The param source of a product's params of the core's option lists: those that name a catalog
     * ({@code catalog: cities}, served live) and those that list their options inline ({@code options: [...]}). Their
     * keys are checked apart ({@link #keyProblems}), so that a load reports every one.
     *
     * @param where the product, for log lines: {@code tenant/product}
     * @throws EngineConfigException the first param naming no declared catalog, or whose inline list is not valid
     */
    public Engine source(String where, List<ParamSpec> params) throws EngineConfigException {
        ConfigProblems checks = new ConfigProblems();
        Engine engine = source(where, params, checks);
        if (engine == null) {
            throw checks.list().getFirst();
        }
        return engine;
    }

    /**
     * The same, each param's problem recorded in {@code checks} (a load reports every one: a param naming no catalog
     * hid the next param's bad inline list); null when there was any.
     */
    public Engine source(String where, List<ParamSpec> params, ConfigProblems checks) {
        Map<String, CatalogSources.Source> sources = new LinkedHashMap<>();
        Map<String, Object> declared = new LinkedHashMap<>();
        boolean sound = true;
        for (ParamSpec param : params) {
            ConfigTree config = param.config();
            Object options = config.has("catalog")
                    ? "catalog:" + config.raw("catalog").orElse("")
                    : config.raw("options").orElse(List.of());
            Object previous = declared.putIfAbsent(param.type(), options);
            try {
                if (previous == null) {
                    sources.put(param.type(), config.has("catalog") ? catalogSource(param) : inlineSource(param));
                } else if (!previous.equals(options)) {
                    throw param.config()
                            .error(
                                    param.config().has("catalog") ? "catalog" : "options",
                                    "param '"
                                            + param.type()
                                            + "' takes other options elsewhere; a param type has one option list per"
                                            + " product");
                }
            } catch (EngineConfigException e) {
                checks.add(e);
                sound = false;
            }
        }
        return sound ? CatalogSources.engine(where, sources) : null;
    }

    /** Says that {@code tenant.yaml} misspelt {@code catalogs}: params naming a catalog then report nothing more. */
    public void declarationsMisspelt() {
        declarationsMisspelt = true;
    }

    private CatalogSources.Source catalogSource(ParamSpec param) throws EngineConfigException {
        String name = param.config().string("catalog");
        Supplier<LiveOptions> options = byName.get(name);
        if (options == null && declarationsMisspelt) {
            LiveOptions none = LiveOptions.of(List.of());
            options = () -> none; // the tenant is refused for the misspelt key; a second line would say it again
        } else if (options == null) {
            String known = byName.isEmpty() ? "none declared" : "declared: " + String.join(", ", byName.keySet());
            throw param.config().error("catalog", "names no catalog under 'catalogs': '" + name + "' (" + known + ")");
        }
        return checkedAttributes(
                param,
                new CatalogSources.Source("catalog:" + name, options, CatalogSources.rules(param.config())),
                "catalog '" + name + "'",
                ", or one the records API has not written yet?");
    }

    /** An inline list, named by its place: only params of one type share it. */
    private CatalogSources.Source inlineSource(ParamSpec param) throws EngineConfigException {
        LiveOptions inline = CatalogConfig.inline(inlineReader, param.config());
        return checkedAttributes(
                param,
                new CatalogSources.Source(param.config().path(), () -> inline, CatalogSources.rules(param.config())),
                "its inline list",
                "?");
    }

    /**
     * Warns of each context attribute that no option of the source's list carries now.
     *
     * @param list how the warning names the list
     * @param cause the end of the warning's question: why the attribute may be missing
     */
    private CatalogSources.Source checkedAttributes(
            ParamSpec param, CatalogSources.Source source, String list, String cause) {
        if (source.rules().isEmpty()) {
            return source;
        }
        Set<String> carried = source.options().get().attributeNames();
        for (CatalogSources.AttributeRule rule : source.rules()) {
            if (!carried.contains(rule.attribute())) {
                warnings.add(param.config()
                        .error(
                                CatalogSources.CONTEXT_ATTRIBUTES + "." + rule.attribute(),
                                "no option of " + list + " has the attribute '" + rule.attribute() + "'"
                                        + (carried.isEmpty()
                                                ? " (none has any)"
                                                : " (they have: " + String.join(", ", carried) + ")")
                                        + ", so it never boosts or filters: a typo" + cause));
            }
        }
        return source;
    }

    /**
     * The records of a CSV file given to {@code catalog import}: read with the declaration (its translations too)
     * when it is the declared file, else alone, with the same columns, wherever it is (the operator names it).
     */
    public static List<OptionRecord> seedFile(
            Path csv, Path tenantDirectory, ConfigTree declaration, String defaultLanguage) {
        Optional<Path> declared = declaredFile(declaration, tenantDirectory);
        if (declared.isPresent() && sameFile(declared.get(), csv)) {
            return seed(declaration, tenantDirectory, defaultLanguage);
        }
        Path file = csv.toAbsolutePath().normalize();
        // Read as a seed in its own directory: a seed's file is named relative to the directory it is read in.
        return seed(
                ConfigTree.at(
                        declaration.path(), Map.of("file", file.getFileName().toString())),
                file.getParent(),
                defaultLanguage);
    }

    /** The digest to remember when {@code imported} is the declaration's own file, so its edit is no longer news. */
    public static Optional<String> declaredSeedDigest(ConfigTree declaration, Path tenantDirectory, Path imported) {
        Optional<Path> declared = declaredFile(declaration, tenantDirectory);
        if (declared.isEmpty() || !sameFile(declared.get(), imported)) {
            return Optional.empty();
        }
        return Optional.ofNullable(digest(declaration, tenantDirectory));
    }

    private static Optional<Path> declaredFile(ConfigTree declaration, Path tenantDirectory) {
        return declaration.raw("file").map(file -> tenantDirectory.resolve(file.toString()));
    }

    private static boolean sameFile(Path a, Path b) {
        try {
            return Files.exists(a) && Files.exists(b) && Files.isSameFile(a, b);
        } catch (IOException e) {
            return false;
        }
    }

    /** The records a declaration's file or inline options hold: the catalog's first content. */
    static List<OptionRecord> seed(ConfigTree declaration, Path tenantDirectory, String defaultLanguage) {
        CatalogConfig.Refusals refused = new CatalogConfig.Refusals();
        try {
            // A declaration with neither a file nor options is filled through the API only (its keys still checked).
            List<OptionRecord> records = new ArrayList<>();
            for (SeedOption option : CatalogSeeds.read(declaration, tenantDirectory, defaultLanguage, refused)) {
                String id =
                        option.id() != null ? option.id() : idOf(option.entry().text());
                records.add(new OptionRecord(
                        id,
                        option.entry().text(),
                        option.entry().aliases(),
                        option.entry().weight(),
                        option.entry().translations(),
                        option.entry().attributes()));
            }
            return records;
        } catch (EngineConfigException e) {
            throw new SeedProblem(e, refused);
        }
    }

    /**
     * A declaration's seed cannot be read; carries the problem with its key (the first one) and, when its file has
     * rows refused on their own, every such row.
     */
    public static final class SeedProblem extends RuntimeException {

        private static final long serialVersionUID = 1L;

        private final transient List<InvalidRecordsException.Problem> rows;
        private final long refusedRows;

        SeedProblem(EngineConfigException problem, CatalogConfig.Refusals refused) {
            super(problem.getMessage(), problem, false, false);
            this.rows = refused.problems();
            this.refusedRows = refused.count();
        }

        public EngineConfigException problem() {
            return (EngineConfigException) getCause();
        }

        /**
         * The file's refused rows, each by its line, in order (the first ones): empty when its problem is not one of
         * rows (no such file, no {@code text} column).
         */
        public List<InvalidRecordsException.Problem> rows() {
            return rows;
        }

        /** How many rows of the file were refused. */
        public long refusedRows() {
            return refusedRows;
        }
    }

    /**
     * The id of a seed option without one: its folded text with dashes ({@code sao-paulo}), unique since folded
     * texts are; a long one is cut and completed by a digest of the whole.
     */
    static String idOf(String text) {
        String id = TextFolding.fold(text).replace(' ', '-');
        if (id.length() <= OptionRecords.MAX_ID_LENGTH) {
            return id;
        }
        return id.substring(0, OptionRecords.MAX_ID_LENGTH - 17) + "-"
                + sha256(id.getBytes(StandardCharsets.UTF_8)).substring(0, 16);
    }

    /**
     * What a catalog's seed is named by in messages: its file as the command line takes it (the tenant's directory as the
     * server was given it, then the file: a path relative to the tenant alone failed in the import command the
     * edited-seed warning prints), or its inline options.
     */
    private static String source(ConfigTree declaration, Path tenantDirectory) {
        return declaration.has("file")
                ? declaration
                        .raw("file")
                        .map(file -> tenantDirectory
                                .resolve(file.toString())
                                .normalize()
                                .toString())
                        .orElse("")
                : declaration.path() + ".options";
    }

    /** A digest of the declaration's files, so that a later edit can be reported; null when it names none. */
    private static String digest(ConfigTree declaration, Path tenantDirectory) {
        if (!declaration.has("file")) {
            return null;
        }
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (String key : List.of("file", "translations")) {
                if (declaration.has(key)) {
                    digest.update(Files.readAllBytes(
                            tenantDirectory.resolve(declaration.raw(key).get().toString())));
                }
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchFileException e) {
            return null; // reported when the seed is read, if it is
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
