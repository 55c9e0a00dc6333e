package dev.autocomplete.server.cli;

import dev.autocomplete.server.auth.ApiKeys;
import dev.autocomplete.server.auth.FileKeyStore;
import dev.autocomplete.server.auth.KeyRecord;
import dev.autocomplete.server.auth.KeyScope;
import dev.autocomplete.server.auth.KeyStore;
import dev.autocomplete.server.auth.KeyType;
import dev.autocomplete.server.auth.KeyUse;
import dev.autocomplete.server.auth.KeysFile;
import dev.autocomplete.server.auth.OriginPattern;
import dev.autocomplete.server.auth.PostgresKeyStore;
import dev.autocomplete.server.protocol.Uuids;
import dev.autocomplete.server.ratelimit.RateLimit;
import dev.autocomplete.server.tenant.Durations;
import dev.autocomplete.server.tenant.TenantException;
import dev.autocomplete.server.tenant.TenantLoader;
import dev.autocomplete.server.tenant.YamlDocument;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code keys create|list|revoke}: manages a tenant's keys where the server keeps them: in PostgreSQL when
 * {@code storage.url} is set ({@code autocomplete.yaml} or {@code AUTOCOMPLETE_STORAGE_URL}, as {@code serve}
 * reads them), else in the tenant's {@code keys.yaml}.
 */
@Command(
        name = "keys",
        mixinStandardHelpOptions = true,
        description = "Create, list and revoke API keys.",
        subcommands = {KeysCommand.Create.class, KeysCommand.ListKeys.class, KeysCommand.Revoke.class})
public final class KeysCommand implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Options every keys sub-command shares. */
    static final class TenantOptions {
        @CommandLine.Mixin
        TenantsOption tenants;

        @CommandLine.Mixin
        ConfigOption config;

        @Option(names = "--tenant", required = true, paramLabel = "T", description = "Tenant id (its directory name).")
        String tenant;

        /** Where the server keeps keys, as the settings say; refuses a tenant that has no directory. */
        KeyStore store() {
            directory();
            String url = config.settings().storageUrl();
            return url.isEmpty()
                    ? new FileKeyStore(tenants.directory)
                    : new PostgresKeyStore(url, tenants.directory, PostgresKeyStore.DEFAULT_SAFETY_INTERVAL);
        }

        Path directory() {
            Path directory = tenants.directory.resolve(tenant).normalize();
            if (tenant.contains("/")
                    || tenant.contains("\\")
                    || tenant.startsWith(".")
                    || !Files.isRegularFile(directory.resolve(TenantLoader.TENANT_FILE))) {
                throw new IllegalArgumentException("No tenant '" + tenant + "' in " + tenants.directory + " (no "
                        + TenantLoader.TENANT_FILE + ")");
            }
            return directory;
        }
    }

    @Command(
            name = "create",
            mixinStandardHelpOptions = true,
            description = "Create a key; prints it alone on the last line. Only its digest is stored.")
    static final class Create implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.Mixin
        TenantOptions options;

        @Option(names = "--type", required = true, paramLabel = "public|secret", description = "Key type.")
        String type;

        @Option(names = "--product", paramLabel = "P", description = "Product slug or id (public keys only).")
        String product;

        @Option(
                names = "--origins",
                split = ",",
                paramLabel = "ORIGIN",
                description = "Browser origins the key serves, comma-separated: https://app.example.com, "
                        + "https://*.example.com (default: any).")
        List<String> origins = new ArrayList<>();

        @Option(
                names = "--allow-no-origin",
                arity = "1",
                defaultValue = "true",
                paramLabel = "true|false",
                description =
                        "Serve requests without an Origin header, e.g. from servers or curl (default: ${DEFAULT-VALUE}).")
        boolean allowNoOrigin;

        @Option(
                names = "--expires",
                paramLabel = "WHEN",
                description = "When the key stops working: a date (2027-01-31, UTC midnight), an instant "
                        + "(2027-01-31T12:00:00Z) or a duration from now (90d, 12h).")
        String expires;

        @Option(
                names = "--rate",
                paramLabel = "N[/s]",
                description = "Requests a second for this key (default: 20, burst 40).")
        String rate;

        @Option(names = "--burst", paramLabel = "N", description = "Requests at once (default: twice --rate).")
        Long burst;

        @Option(
                names = "--scopes",
                split = ",",
                paramLabel = "USE",
                description = "What a secret key may be used for, comma-separated: suggest, tokens, catalogs "
                        + "(default: all three).")
        List<String> scopes;

        @Override
        public Integer call() throws IOException {
            KeyType keyType;
            try {
                keyType = KeyType.fromWireName(type);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
            Path directory = options.directory();
            UUID productId = null;
            if (keyType == KeyType.PUBLIC) {
                if (product == null) {
                    throw new CommandLine.ParameterException(
                            spec.commandLine(), "A public key belongs to one product: add --product SLUG");
                }
                productId = productId(spec, directory, product);
            } else if (product != null) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(), "A secret key serves every product of its tenant: drop --product");
            }
            if (keyType == KeyType.PUBLIC && scopes != null) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(), "A public key serves suggest requests only: drop --scopes");
            }
            KeyScope scope = scope(spec);
            String key = new ApiKeys().generate(keyType);
            String digest = ApiKeys.digest(key);
            KeyRecord record = new KeyRecord(
                    ApiKeys.idOf(digest), keyType, options.tenant, productId, digest, Instant.now(), null, scope);
            try (KeyStore store = options.store()) {
                store.add(record);
            }
            PrintWriter out = spec.commandLine().getOut();
            out.println("Created " + keyType.wireName() + " key " + record.id() + " for tenant " + options.tenant
                    + (product != null ? ", product " + product : "")
                    + (scope.restricted() ? ", for " + String.join(", ", KeyUse.names(scope.uses())) + " only" : "")
                    + ".");
            out.println("Store it now: only its digest is kept, so it cannot be shown again.");
            out.println(key);
            return 0;
        }

        private KeyScope scope(CommandLine.Model.CommandSpec spec) {
            try {
                List<OriginPattern> patterns = origins.stream()
                        .filter(o -> !o.isBlank())
                        .map(OriginPattern::parse)
                        .toList();
                if (rate == null && burst != null) {
                    throw new IllegalArgumentException("--burst needs --rate");
                }
                return new KeyScope(
                        patterns,
                        allowNoOrigin,
                        expires == null ? null : expiry(expires),
                        rate == null ? null : RateLimit.parse(rate, burst),
                        scopes == null ? KeyUse.ALL : KeyUse.parse(scopes));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
        }

        private static Instant expiry(String text) {
            try {
                return LocalDate.parse(text).atStartOfDay(ZoneOffset.UTC).toInstant();
            } catch (DateTimeParseException notADate) {
                try {
                    return Instant.parse(text);
                } catch (DateTimeParseException notAnInstant) {
                    try {
                        return Instant.now().plus(Durations.parse(text));
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException(
                                "--expires '" + text
                                        + "' is not a date (2027-01-31), an instant (2027-01-31T12:00:00Z) or a duration (90d)");
                    }
                }
            }
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List a tenant's keys (never the keys).")
    static final class ListKeys implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.Mixin
        TenantOptions options;

        @Override
        public Integer call() throws IOException {
            PrintWriter out = spec.commandLine().getOut();
            List<KeyRecord> records;
            try (KeyStore store = options.store()) {
                records = store.read(options.tenant);
                if (store instanceof FileKeyStore) {
                    new KeysFile(options.directory()).contents().importedInto().ifPresent(where -> spec.commandLine()
                            .getErr()
                            .println("note: " + options.directory().resolve(KeysFile.FILE_NAME)
                                    + " was imported into " + where + ": these are its keys as they "
                                    + "were then. The servers' keys are listed with their storage URL "
                                    + "(AUTOCOMPLETE_STORAGE_URL, or storage.url in the --config file)."));
                }
            }
            String format = "%-16s %-7s %-36s %-20s %-20s %-20s %-15s %-23s %s%n";
            out.printf(format, "ID", "TYPE", "PRODUCT", "CREATED", "REVOKED", "EXPIRES", "RATE", "USES", "ORIGINS");
            for (KeyRecord record : records) {
                KeyScope scope = record.scope();
                String origins = (scope.origins().isEmpty()
                                ? "*"
                                : String.join(
                                        ",",
                                        scope.origins().stream()
                                                .map(OriginPattern::toString)
                                                .toList()))
                        + (scope.allowNoOrigin() ? "" : " (no-origin refused)");
                out.printf(
                        format,
                        record.id(),
                        record.type().wireName(),
                        record.productId() == null ? "*" : record.productId(),
                        seconds(record.createdAt()),
                        record.revokedAt() == null ? "-" : seconds(record.revokedAt()),
                        scope.expiresAt() == null ? "-" : seconds(scope.expiresAt()),
                        scope.rateOrDefault().perSecond() + "/s:"
                                + scope.rateOrDefault().burst(),
                        record.type() == KeyType.PUBLIC ? "suggest" : String.join(",", KeyUse.names(scope.uses())),
                        origins);
            }
            return 0;
        }

        /** To the second, as wide as its column (keys.yaml keeps the full instant). */
        private static Instant seconds(Instant instant) {
            return instant.truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        }
    }

    @Command(
            name = "revoke",
            mixinStandardHelpOptions = true,
            description = "Revoke a key by id; running servers refuse it within two seconds.")
    static final class Revoke implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.Mixin
        TenantOptions options;

        @Parameters(index = "0", paramLabel = "KEY_ID", description = "The key's id, as shown by 'keys list'.")
        String keyId;

        @Override
        public Integer call() throws IOException {
            boolean revoked;
            try (KeyStore store = options.store()) {
                revoked = store.revoke(options.tenant, keyId, Instant.now());
            }
            if (!revoked) {
                spec.commandLine().getErr().println("No active key " + keyId + " in tenant " + options.tenant);
                return 1;
            }
            spec.commandLine().getOut().println("Revoked " + keyId + ".");
            return 0;
        }
    }

    /**
     * The id of a product named by slug or id in the tenant's {@code tenant.yaml}. An unknown name is an error that
     * lists the products there is (not the usage: the command line was right, the name was not).
     */
    private static UUID productId(CommandLine.Model.CommandSpec spec, Path directory, String product)
            throws IOException {
        List<String> slugs = new ArrayList<>();
        try {
            for (Map<?, ?> map : products(directory)) {
                if (product.equals(String.valueOf(map.get("slug")))
                        || product.equalsIgnoreCase(String.valueOf(map.get("id")))) {
                    return Uuids.require(String.valueOf(map.get("id")), "the product's id");
                }
                slugs.add(String.valueOf(map.get("slug")));
            }
        } catch (TenantException | IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "Cannot read the tenant: " + e.getMessage());
        }
        throw new IllegalArgumentException("No product '" + product + "' in "
                + directory.resolve(TenantLoader.TENANT_FILE)
                + (slugs.isEmpty() ? " (it has no products)" : "; its products: " + String.join(", ", slugs)));
    }

    /** The slugs of the products a tenant's {@code tenant.yaml} lists. */
    static List<String> productSlugs(Path directory) {
        try {
            return products(directory).stream()
                    .map(map -> String.valueOf(map.get("slug")))
                    .toList();
        } catch (IOException | TenantException | IllegalArgumentException e) {
            throw new IllegalArgumentException("Cannot read the tenant: " + e.getMessage());
        }
    }

    /** The products (with an id) a tenant's {@code tenant.yaml} lists, as read. */
    private static List<Map<?, ?>> products(Path directory) throws IOException, TenantException {
        List<Map<?, ?>> found = new ArrayList<>();
        YamlDocument yaml = YamlDocument.read(directory.resolve(TenantLoader.TENANT_FILE));
        if (yaml.root() instanceof Map<?, ?> root && root.get("products") instanceof List<?> products) {
            for (Object item : products) {
                if (item instanceof Map<?, ?> map && map.get("id") != null) {
                    found.add(map);
                }
            }
        }
        return found;
    }
}
