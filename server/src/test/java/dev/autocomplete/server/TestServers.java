package dev.autocomplete.server;

import dev.autocomplete.server.config.ServerSettings;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.io.IOException;
import java.nio.file.Path;

/** Servers for tests: the default settings on loopback, with free ports for the API and management listeners. */
final class TestServers {

    private TestServers() {}

    static ServerSettings settings(Path tenants) {
        return ServerSettings.defaults().with("127.0.0.1", 0, tenants).withManagement("127.0.0.1", 0);
    }

    /**
     * The settings of a replica on a shared PostgreSQL: its own data directory, as every replica has
     * (docs/scaling.md), and the token secret replicas share.
     */
    static ServerSettings replica(Path tenants, String storageUrl) throws IOException {
        return settings(tenants)
                .withStorageUrl(storageUrl)
                .withTokenSecret(AccessTokenTest.SECRET)
                .withDataDir(java.nio.file.Files.createTempDirectory(tenants.getParent(), "replica-data"));
    }

    static AutocompleteServer start(Path tenants) throws IOException {
        return AutocompleteServer.start(settings(tenants));
    }
}
