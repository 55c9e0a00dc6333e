package dev.autocomplete.server.cli;

import dev.autocomplete.server.auth.ApiKeys;
import dev.autocomplete.server.auth.KeyRecord;
import dev.autocomplete.server.auth.KeyScope;
import dev.autocomplete.server.auth.KeyType;
import dev.autocomplete.server.auth.SigningSecret;
import dev.autocomplete.server.config.ServerSettings;
import dev.autocomplete.server.http.DemoPage;
import dev.autocomplete.server.observe.ServerLogManager;
import dev.autocomplete.server.tenant.Product;
import dev.autocomplete.server.tenant.Tenant;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code serve}: loads the tenants and serves the API until stopped. */
@Command(name = "serve", mixinStandardHelpOptions = true, description = "Serve the suggestion API.")
public final class ServeCommand implements Callable<Integer> {

    /** The tenant whose products get a demo public key for the life of the process. */
    static final String DEMO_TENANT = "demo";

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    private ConfigOption config;

    @Option(
            names = "--tenants",
            paramLabel = "DIR",
            description = "Directory with one sub-directory per tenant (default: tenants.dir, else tenants).")
    private Path tenantsDirectory;

    @Option(names = "--host", description = "Address to listen on (default: server.host, else 127.0.0.1).")
    private String host;

    @Option(names = "--port", description = "Port; 0 picks a free one (default: server.port, else 8080).")
    private Integer port;

    @Option(
            names = "--management-host",
            paramLabel = "HOST",
            description = "Address of the management listener, /observe/health and /observe/metrics (default: "
                    + "management.host, else 127.0.0.1).")
    private String managementHost;

    @Option(
            names = "--management-port",
            paramLabel = "PORT",
            description = "Port of the management listener; 0 picks a free one (default: management.port, else 8081).")
    private Integer managementPort;

    @Option(
            names = "--data-dir",
            paramLabel = "DIR",
            description = "Directory for the server's own state, such as a generated token signing secret (default: "
                    + "data.dir, else data beside the tenants directory).")
    private Path dataDirectory;

    @Option(
            names = "--redis",
            paramLabel = "URI",
            description = "Keep rate limits in this Redis (redis://host:port) so replicas share them (default: "
                    + "redis.url, else per process).")
    private URI redis;

    @Option(
            names = "--token-secret-file",
            paramLabel = "FILE",
            description = "File with the access-token signing secret, shared by replicas (default: "
                    + "$" + SigningSecret.ENV_SECRET + ", token.secret-file, else one generated in the data "
                    + "directory).")
    private Path tokenSecretFile;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        ServerSettings settings = config.settings()
                .with(host, port, tenantsDirectory)
                .withAccess(redis == null ? null : redis.toString(), tokenSecretFile)
                .withManagement(managementHost, managementPort)
                .withDataDir(dataDirectory);
        AutocompleteServer server = AutocompleteServer.start(settings);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            server.close();
                            ServerLogManager.closeHandlers();
                            stopped.countDown();
                        },
                        "shutdown"));
        String base = (settings.tls() != null ? "https://" : "http://") + shown(settings.host()) + ":" + server.port();
        out.println("Serving " + server.tenants().tenants().size() + " tenant(s) from " + settings.tenants() + " on "
                + base);
        String management = "http://" + shown(settings.management().host()) + ":" + server.managementPort();
        out.println("Management (not for the public): " + management + "/observe/health and " + management
                + "/observe/metrics; readiness for load balancers: " + base + "/ready");
        out.println("Console (tenants, try it, analytics): " + management + "/admin/");
        server.tenants().problems().forEach(problem -> out.println("Skipped: " + problem));
        out.println("Rate limits: " + server.rateLimiter().status().describe());
        server.tenants().tenant(DEMO_TENANT).ifPresent(demo -> printDemoKeys(out, server, demo, base));
        out.flush();
        stopped.await();
        return 0;
    }

    private static String shown(String host) {
        return host.contains(":") ? "[" + host + "]" : host;
    }

    /** Gives each demo product a public key that lives only in this process's memory. */
    private static void printDemoKeys(PrintWriter out, AutocompleteServer server, Tenant demo, String base) {
        ApiKeys apiKeys = new ApiKeys();
        out.println("Demo public keys (valid until this process stops, never written to disk):");
        String example = null;
        List<DemoPage.DemoProduct> forPage = new ArrayList<>();
        for (Product product : demo.products()) {
            String key = apiKeys.generate(KeyType.PUBLIC);
            String digest = ApiKeys.digest(key);
            server.keys()
                    .addEphemeral(new KeyRecord(
                            ApiKeys.idOf(digest),
                            KeyType.PUBLIC,
                            demo.id(),
                            product.id(),
                            digest,
                            Instant.now(),
                            null,
                            KeyScope.DEFAULT));
            out.println("  " + product.slug() + ": " + key);
            forPage.add(new DemoPage.DemoProduct(product.slug(), product.id(), key));
            if (example == null) {
                example = "curl -s " + base + "/api/suggest -H 'Authorization: Bearer " + key + "'"
                        + " -H 'Content-Type: application/json' -d '{\"data\":{\"raw_query\":\"\"},"
                        + "\"meta\":{\"request_id\":\"" + UUID.randomUUID() + "\","
                        + "\"request_at\":\"2026-01-01T00:00:00Z\"}}'";
            }
        }
        server.demoPage().publish(forPage);
        if (example != null) {
            out.println("Demo page: " + base + "/");
            out.println("Try it:");
            out.println("  " + example);
        }
    }
}
