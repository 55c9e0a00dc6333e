package dev.autocomplete.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.autocomplete.server.files.WatchMode;
import dev.autocomplete.spi.ConfigTree;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The server's own settings, from {@code autocomplete.yaml}, each overridable by an environment variable
 * named {@code AUTOCOMPLETE_} plus the key upper-cased with dots and dashes as underscores
 * ({@code server.port} is {@code AUTOCOMPLETE_SERVER_PORT}). Read through Helidon config: the YAML file
 * (parsed with Jackson, as the tenants' YAML is, so one parser reports every file's errors alike) and the
 * environment are two config sources, the environment first. Unknown keys in the file are errors, so typos do not pass.
 *
 * @param tls the certificate chain and private key (PEM files), or null to serve plain HTTP
 * @param redisUrl the Redis URL for shared state, or empty for none
 * @param tokenSecret the secret that signs access tokens, or empty; never logged
 * @param tokenSecretFile a file holding that secret, or null
 * @param cacheMaxEntries how many responses the response cache keeps; 0 turns it off
 * @param management where {@code /observe/*} is served, apart from the API
 * @param dataDir the directory for the server's own state, or null for {@code data} beside the tenants
 *     directory (see {@link #data()})
 * @param storageUrl a PostgreSQL JDBC URL where keys (and live catalogs) are shared by replicas, or empty for the
 *     embedded default; may hold a password, so never logged
 * @param tenantsWatch how changed tenant files and keys are noticed
 * @param clock what access tokens and key expiry are judged by (the system clock; tests set their own)
 * @param learning how picks re-rank options ({@code learning.*})
 * @param keepUnmatched whether analytics count the typed spans that matched nothing ({@code analytics.keep-unmatched})
 */
public record ServerSettings(
        String host,
        int port,
        Path tenants,
        Tls tls,
        Limits limits,
        Duration shutdownGrace,
        String redisUrl,
        String tokenSecret,
        Path tokenSecretFile,
        int cacheMaxEntries,
        Management management,
        Path dataDir,
        String storageUrl,
        WatchMode tenantsWatch,
        Clock clock,
        LearningSettings learning,
        boolean keepUnmatched) {

    /** Every key, with its default ({@code ""} for none), in the order of the reference in the README. */
    public static final Map<String, String> KEYS = keys();

    /** TLS material, both PEM files. */
    public record Tls(Path certificate, Path privateKey) {}

    /**
     * The management listener: health and metrics, which show tenant problems, file paths and traffic, so
     * they are kept off the API's port (plain HTTP; loopback unless an operator opens it on purpose).
     */
    public record Management(String host, int port, String consoleHosts) {

        /** With {@code management.console-hosts} at its default, {@code auto}. */
        public Management(String host, int port) {
            this(host, port, "auto");
        }

        /** The {@code Host} names the console answers on this listener. */
        public ConsoleHosts console() {
            return ConsoleHosts.of(consoleHosts, host);
        }
    }

    /**
     * Limits that protect the server.
     *
     * @param bodyBytes the largest request body (413 above)
     * @param headerBytes the largest request head: request line and headers (431 above)
     * @param jsonDepth the deepest JSON nesting in a body (400 above)
     * @param jsonStringBytes the longest JSON string or name in a body (400 above)
     * @param readTimeout how long one read may stay silent, and how long a kept-alive connection waits for its
     *     next request
     * @param maxConcurrentRequests requests served at once on the port; more are refused with 503 OVERLOADED
     * @param headerTimeout how long a request's line and headers may take to arrive, from the connection's opening
     *     for its first request and from the request line for the next ones (a trickle does not extend it)
     * @param bodyTimeout how long a request body may take to arrive once the headers are in
     * @param connectionsPerAddress connections open at once from one client address; 0 for no cap
     * @param trustedProxies addresses of reverse proxies, whose connections the per-address cap leaves alone
     * @param catalogBodyBytes the largest body of a catalog write (records API), 413 above
     * @param catalogBodyTimeout how long such a body may take to arrive
     * @param engineStart how long an engine's factory may take to start it when its tenant loads
     */
    public record Limits(
            long bodyBytes,
            int headerBytes,
            int jsonDepth,
            int jsonStringBytes,
            Duration readTimeout,
            int maxConcurrentRequests,
            Duration headerTimeout,
            Duration bodyTimeout,
            int connectionsPerAddress,
            List<String> trustedProxies,
            long catalogBodyBytes,
            Duration catalogBodyTimeout,
            Duration engineStart) {
        public Limits {
            trustedProxies = List.copyOf(trustedProxies);
        }
    }

    private static Map<String, String> keys() {
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put("server.host", "127.0.0.1");
        keys.put("server.port", "8080");
        keys.put("server.tls.certificate", "");
        keys.put("server.tls.private-key", "");
        keys.put("server.shutdown-grace-seconds", "10");
        keys.put("management.host", "127.0.0.1");
        keys.put("management.port", "8081");
        keys.put("management.console-hosts", "auto");
        keys.put("tenants.dir", "tenants");
        keys.put("data.dir", "");
        keys.put("tenants.watch", "auto");
        keys.put("limits.body-bytes", "65536");
        keys.put("limits.header-bytes", "16384");
        keys.put("limits.json-depth", "64");
        keys.put("limits.json-string-bytes", "65536");
        keys.put("limits.read-timeout-seconds", "30");
        keys.put("limits.max-concurrent-requests", "1024");
        keys.put("limits.header-timeout-seconds", "10");
        keys.put("limits.body-timeout-seconds", "20");
        keys.put("limits.connections-per-address", "256");
        keys.put("limits.trusted-proxies", "");
        keys.put("limits.catalog-body-bytes", "67108864");
        keys.put("limits.catalog-body-timeout-seconds", "300");
        keys.put("limits.engine-start-seconds", "60");
        keys.put("redis.url", "");
        keys.put("storage.url", "");
        keys.put("token.secret", "");
        keys.put("token.secret-file", "");
        keys.put("cache.max-entries", "20000");
        keys.put("learning.half-life-days", "14");
        keys.put("learning.apply-seconds", "60");
        keys.put("learning.sessions", "20000");
        keys.put("learning.picks-per-address-hour", "200");
        keys.put("learning.picks-per-key-hour", "100000");
        keys.put("learning.queue", "10000");
        keys.put("learning.sessions-per-address-hour", "1000");
        keys.put("learning.picks-per-address-option-day", "1");
        keys.put("learning.min-picks", "1");
        keys.put("analytics.keep-unmatched", "true");
        return java.util.Collections.unmodifiableMap(keys);
    }

    /** The environment variable that overrides a key. */
    public static String environmentName(String key) {
        return "AUTOCOMPLETE_" + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /** The defaults, with no file and no environment. */
    public static ServerSettings defaults() {
        return read(null, Map.of());
    }

    /**
     * @param file the YAML file, or null for none
     * @param environment the environment variables ({@code System.getenv()})
     * @throws IllegalArgumentException naming the key or variable, when a value is unknown or invalid
     */
    public static ServerSettings read(Path file, Map<String, String> environment) {
        Map<String, String> fromFile = file == null ? Map.of() : flatten(file);
        Map<String, String> fromEnvironment = new LinkedHashMap<>();
        for (String key : KEYS.keySet()) {
            String value = environment.get(environmentName(key));
            if (value != null) {
                fromEnvironment.put(key, value);
            }
        }
        Config config = Config.builder()
                .disableEnvironmentVariablesSource()
                .disableSystemPropertiesSource()
                .sources(
                        ConfigSources.create(fromEnvironment),
                        ConfigSources.create(fromFile),
                        ConfigSources.create(KEYS))
                .build();
        Settings s = new Settings(config);
        String certificate = s.text("server.tls.certificate");
        String privateKey = s.text("server.tls.private-key");
        if (certificate.isEmpty() != privateKey.isEmpty()) {
            throw new IllegalArgumentException("server.tls.certificate and server.tls.private-key go together");
        }
        Tls tls = certificate.isEmpty() ? null : new Tls(Path.of(certificate), Path.of(privateKey));
        Limits limits = new Limits(
                s.number("limits.body-bytes", 1024, 16 * 1024 * 1024),
                s.number("limits.header-bytes", 1024, 1024 * 1024),
                s.number("limits.json-depth", 4, 1000),
                s.number("limits.json-string-bytes", 1024, 16 * 1024 * 1024),
                Duration.ofSeconds(s.number("limits.read-timeout-seconds", 1, 3600)),
                s.number("limits.max-concurrent-requests", 1, 1_000_000),
                Duration.ofSeconds(s.number("limits.header-timeout-seconds", 1, 3600)),
                Duration.ofSeconds(s.number("limits.body-timeout-seconds", 1, 3600)),
                s.number("limits.connections-per-address", 0, 1_000_000),
                s.addresses("limits.trusted-proxies"),
                s.number("limits.catalog-body-bytes", 1024, Integer.MAX_VALUE),
                Duration.ofSeconds(s.number("limits.catalog-body-timeout-seconds", 1, 86_400)),
                Duration.ofSeconds(s.number("limits.engine-start-seconds", 1, 3_600)));
        return new ServerSettings(
                s.text("server.host"),
                s.number("server.port", 0, 65535),
                Path.of(s.text("tenants.dir")),
                tls,
                limits,
                Duration.ofSeconds(s.number("server.shutdown-grace-seconds", 0, 3600)),
                s.text("redis.url"),
                s.text("token.secret"),
                s.text("token.secret-file").isEmpty() ? null : Path.of(s.text("token.secret-file")),
                s.number("cache.max-entries", 0, 10_000_000),
                new Management(
                        s.text("management.host"),
                        s.number("management.port", 0, 65535),
                        s.consoleHosts("management.console-hosts")),
                s.text("data.dir").isEmpty() ? null : Path.of(s.text("data.dir")),
                storageUrl(s.text("storage.url")),
                s.choice("tenants.watch", WatchMode.class),
                Clock.systemUTC(),
                learning(s),
                s.flag("analytics.keep-unmatched"));
    }

    /**
     * The directory for the server's own state (the generated token signing secret): {@code data.dir}, else
     * {@code data} beside the tenants directory, so it is never read as a tenant and follows {@code --tenants}.
     */
    public Path data() {
        if (dataDir != null) {
            return dataDir;
        }
        Path parent = tenants.toAbsolutePath().normalize().getParent();
        return parent == null ? Path.of("data").toAbsolutePath() : parent.resolve("data");
    }

    /** The same settings with other host, port or tenants directory (command-line options win). */
    public ServerSettings with(String newHost, Integer newPort, Path newTenants) {
        return new ServerSettings(
                newHost != null ? newHost : host,
                newPort != null ? newPort : port,
                newTenants != null ? newTenants : tenants,
                tls,
                limits,
                shutdownGrace,
                redisUrl,
                tokenSecret,
                tokenSecretFile,
                cacheMaxEntries,
                management,
                dataDir,
                storageUrl,
                tenantsWatch,
                clock,
                learning,
                keepUnmatched);
    }

    /** The same settings with another management host or port (command-line options win); null keeps. */
    public ServerSettings withManagement(String newHost, Integer newPort) {
        return new ServerSettings(
                host,
                port,
                tenants,
                tls,
                limits,
                shutdownGrace,
                redisUrl,
                tokenSecret,
                tokenSecretFile,
                cacheMaxEntries,
                new Management(
                        newHost != null ? newHost : management.host(),
                        newPort != null ? newPort : management.port(),
                        management.consoleHosts()),
                dataDir,
                storageUrl,
                tenantsWatch,
                clock,
                learning,
                keepUnmatched);
    }

    /** The same settings with another data directory (the command-line option wins); null keeps. */
    public ServerSettings withDataDir(Path newDataDir) {
        return new ServerSettings(
                host,
                port,
                tenants,
                tls,
                limits,
                shutdownGrace,
                redisUrl,
                tokenSecret,
                tokenSecretFile,
                cacheMaxEntries,
                management,
                newDataDir != null ? newDataDir : dataDir,
                storageUrl,
                tenantsWatch,
                clock,
                learning,
                keepUnmatched);
    }

    /** The same settings with another Redis URL or token secret file (command-line options win); null keeps. */
    public ServerSettings withAccess(String newRedisUrl, Path newTokenSecretFile) {
        return new ServerSettings(
                host,
                port,
                tenants,
                tls,
                limits,
                shutdownGrace,
                newRedisUrl != null ? newRedisUrl : redisUrl,
                tokenSecret,
                newTokenSecretFile != null ? newTokenSecretFile : tokenSecretFile,
                cacheMaxEntries,
                management,
                dataDir,
                storageUrl,
                tenantsWatch,
                clock,
                learning,
                keepUnmatched);
    }

    /** The same settings with another token signing secret ({@code token.secret}); null keeps. */
    public ServerSettings withTokenSecret(String newTokenSecret) {
        return new ServerSettings(
                host,
                port,
                tenants,
                tls,
                limits,
                shutdownGrace,
                redisUrl,
                newTokenSecret != null ? newTokenSecret : tokenSecret,
                tokenSecretFile,
                cacheMaxEntries,
                management,
                dataDir,
                storageUrl,
                tenantsWatch,
                clock,
                learning,
                keepUnmatched);
    }

    /** The same settings with another {@code storage.url} (tests; operators set the key or its variable). */
    public ServerSettings withStorageUrl(String newStorageUrl) {
        return new ServerSettings(
                host,
                port,
                tenants,
                tls,
                limits,
                shutdownGrace,
                redisUrl,
                tokenSecret,
                tokenSecretFile,
                cacheMaxEntries,
                management,
                dataDir,
                storageUrl(newStorageUrl),
                tenantsWatch,
                clock,
                learning,
                keepUnmatched);
    }

    /** The same settings judging tokens and key expiry by another clock. */
    public ServerSettings withClock(Clock newClock) {
        return new ServerSettings(
                host,
                port,
                tenants,
                tls,
                limits,
                shutdownGrace,
                redisUrl,
                tokenSecret,
                tokenSecretFile,
                cacheMaxEntries,
                management,
                dataDir,
                storageUrl,
                tenantsWatch,
                newClock,
                learning,
                keepUnmatched);
    }

    @Override
    public String toString() {
        return "ServerSettings[host=" + host + ", port=" + port + ", tenants=" + tenants + ", tls=" + tls
                + ", limits=" + limits + ", shutdownGrace=" + shutdownGrace + ", redis=" + !redisUrl.isEmpty()
                + ", tokenSecret=" + (tokenSecret.isEmpty() ? "not set" : "set") + ", tokenSecretFile="
                + tokenSecretFile
                + ", cacheMaxEntries=" + cacheMaxEntries + ", management=" + management + ", data=" + data()
                + ", storage=" + (storageUrl.isEmpty() ? "embedded" : "postgresql") + ", tenantsWatch=" + tenantsWatch
                + "]";
    }

    private static LearningSettings learning(Settings s) {
        return new LearningSettings(
                Duration.ofDays(s.number("learning.half-life-days", 1, 3650)),
                Duration.ofSeconds(s.number("learning.apply-seconds", 1, 3600)),
                s.number("learning.sessions", 100, 10_000_000),
                s.number("learning.picks-per-address-hour", 0, 100_000_000),
                s.number("learning.picks-per-key-hour", 0, 1_000_000_000),
                s.number("learning.queue", 100, 10_000_000),
                s.number("learning.sessions-per-address-hour", 1, 100_000_000),
                s.number("learning.picks-per-address-option-day", 0, 100),
                s.number("learning.min-picks", 1, 100));
    }

    /** The same settings with other trusted proxies ({@code limits.trusted-proxies}; tests). */
    public ServerSettings withTrustedProxies(List<String> proxies) {
        Limits l = limits;
        return new ServerSettings(
                host,
                port,
                tenants,
                tls,
                new Limits(
                        l.bodyBytes(),
                        l.headerBytes(),
                        l.jsonDepth(),
                        l.jsonStringBytes(),
                        l.readTimeout(),
                        l.maxConcurrentRequests(),
                        l.headerTimeout(),
                        l.bodyTimeout(),
                        l.connectionsPerAddress(),
                        proxies,
                        l.catalogBodyBytes(),
                        l.catalogBodyTimeout(),
                        l.engineStart()),
                shutdownGrace,
                redisUrl,
                tokenSecret,
                tokenSecretFile,
                cacheMaxEntries,
                management,
                dataDir,
                storageUrl,
                tenantsWatch,
                clock,
                learning,
                keepUnmatched);
    }

    /** The same settings with other learning settings (tests). */
    public ServerSettings withLearning(LearningSettings newLearning) {
        return new ServerSettings(
                host,
                port,
                tenants,
                tls,
                limits,
                shutdownGrace,
                redisUrl,
                tokenSecret,
                tokenSecretFile,
                cacheMaxEntries,
                management,
                dataDir,
                storageUrl,
                tenantsWatch,
                clock,
                newLearning,
                keepUnmatched);
    }

    /** The same settings, counting unmatched spans in analytics or not (tests). */
    public ServerSettings withKeepUnmatched(boolean keep) {
        return new ServerSettings(
                host,
                port,
                tenants,
                tls,
                limits,
                shutdownGrace,
                redisUrl,
                tokenSecret,
                tokenSecretFile,
                cacheMaxEntries,
                management,
                dataDir,
                storageUrl,
                tenantsWatch,
                clock,
                learning,
                keep);
    }

    /** Empty, or a PostgreSQL JDBC URL; the message never repeats the value, which may hold a password. */
    private static String storageUrl(String url) {
        if (!url.isEmpty() && !url.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException("storage.url (or " + environmentName("storage.url")
                    + ") must be a PostgreSQL JDBC URL (jdbc:postgresql://host:port/database?user=...) or empty");
        }
        return url;
    }

    /** Typed reads with errors that name the key and the variable. */
    private record Settings(Config config) {
        String text(String key) {
            return config.get(key).asString().orElse("").strip();
        }

        int number(String key, int min, int max) {
            String text = text(key);
            try {
                int value = Integer.parseInt(text);
                if (value >= min && value <= max) {
                    return value;
                }
            } catch (NumberFormatException ignored) {
                // Reported below.
            }
            throw new IllegalArgumentException(key + " (or " + environmentName(key) + ") must be a whole number from "
                    + min + " to " + max + "; got '" + text + "'");
        }

        /** A value {@link ConsoleHosts} reads, checked here so that errors name the key. */
        String consoleHosts(String key) {
            try {
                ConsoleHosts.of(text(key), "127.0.0.1");
                return text(key);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(key + " (or " + environmentName(key) + ") " + e.getMessage(), e);
            }
        }

        boolean flag(String key) {
            String text = text(key);
            if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
                return Boolean.parseBoolean(text);
            }
            throw new IllegalArgumentException(
                    key + " (or " + environmentName(key) + ") must be true or false; got '" + text + "'");
        }

        <E extends Enum<E>> E choice(String key, Class<E> type) {
            String text = text(key);
            for (E value : type.getEnumConstants()) {
                if (value.name().equalsIgnoreCase(text)) {
                    return value;
                }
            }
            throw new IllegalArgumentException(key + " (or " + environmentName(key) + ") must be one of "
                    + Arrays.stream(type.getEnumConstants())
                            .map(v -> v.name().toLowerCase(Locale.ROOT))
                            .toList()
                    + "; got '" + text + "'");
        }

        /** A comma-separated list of IP addresses (literals, so that no name is looked up). */
        List<String> addresses(String key) {
            List<String> addresses = new ArrayList<>();
            for (String part : text(key).split(",")) {
                String address = part.strip();
                if (address.isEmpty()) {
                    continue;
                }
                if (!address.matches("[0-9.]+|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*")) {
                    throw new IllegalArgumentException(key + " (or " + environmentName(key)
                            + ") must list IP addresses separated by commas; got '" + address + "'");
                }
                addresses.add(address);
            }
            return addresses;
        }
    }

    /** The YAML file as dotted keys; unknown keys and non-scalar values are errors. */
    /** A settings file's keys and values, as {@link #read} takes them; unknown keys are refused. */
    static Map<String, String> flatten(Path file) {
        JsonNode root;
        try {
            root = new YAMLMapper().readTree(Files.readString(file));
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage(), e);
        }
        Map<String, String> flat = new LinkedHashMap<>();
        if (root != null && !root.isNull() && !root.isMissingNode()) {
            flatten(file, "", root, flat);
        }
        return flat;
    }

    private static void flatten(Path file, String prefix, JsonNode node, Map<String, String> flat) {
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                flatten(
                        file,
                        prefix.isEmpty() ? field.getKey() : prefix + "." + field.getKey(),
                        field.getValue(),
                        flat);
            }
            return;
        }
        if (!KEYS.containsKey(prefix)) {
            throw new IllegalArgumentException(file + ": '" + prefix + "' is not a known key"
                    + ConfigTree.nearest(prefix, KEYS.keySet())
                            .map(meant -> "; did you mean '" + meant + "'?")
                            .orElseGet(() -> " (known: " + String.join(", ", List.copyOf(KEYS.keySet())) + ")"));
        }
        if (!node.isValueNode()) {
            throw new IllegalArgumentException(file + ": '" + prefix + "' must be a single value");
        }
        flat.put(prefix, node.isNull() ? "" : node.asText());
    }
}
