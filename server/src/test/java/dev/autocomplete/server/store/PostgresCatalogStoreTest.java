package dev.autocomplete.server.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The store in a real PostgreSQL, one new database a test. */
class PostgresCatalogStoreTest extends CatalogStoreContract {

    private static PostgresServer postgres;
    private String url;

    @BeforeAll
    static void startPostgres() throws Exception {
        postgres = PostgresServer.start();
    }

    @AfterAll
    static void stopPostgres() throws Exception {
        if (postgres != null) {
            postgres.close();
        }
    }

    @Override
    CatalogStore openEmpty() throws Exception {
        url = postgres.newDatabase();
        return JdbcCatalogStore.postgres(url, null, null);
    }

    @Override
    CatalogStore openAgain() {
        return JdbcCatalogStore.postgres(url, null, null);
    }

    @Override
    Connection connect() throws Exception {
        return DriverManager.getConnection(url);
    }

    @Test
    void credentials_may_be_given_apart_from_the_url_and_never_show_in_messages() throws Exception {
        String bare = url.replaceFirst("\\?.*$", "");
        try (CatalogStore separate = JdbcCatalogStore.postgres(bare, PostgresServer.USER, PostgresServer.PASSWORD)) {
            assertFalse(separate.holds(CITIES));
        }
        String libpq = bare.replace(
                "jdbc:postgresql://", "postgresql://" + PostgresServer.USER + ":" + PostgresServer.PASSWORD + "@");
        try (CatalogStore fromLibpqForm = JdbcCatalogStore.postgres(libpq, null, null)) {
            assertFalse(fromLibpqForm.holds(CITIES));
        }
        StorageUnavailableException refused = assertThrows(
                StorageUnavailableException.class,
                () -> JdbcCatalogStore.postgres(
                        bare + "?user=" + PostgresServer.USER + "&password=wrong-secret", null, null));
        assertFalse(refused.getMessage().contains("wrong-secret"), refused.getMessage());
        assertTrue(refused.getMessage().contains("127.0.0.1:" + postgres.port()), refused.getMessage());
    }

    @Test
    void while_postgres_is_down_writes_fail_fast_and_once_it_is_back_they_work_and_listeners_catch_up()
            throws Exception {
        try (CatalogStore other = openAgain()) {
            Semaphore heard = new Semaphore(0);
            other.onExternalChange(heard::release);
            store.upsert(CITIES, List.of(record("p", "Paris")));
            assertTrue(heard.tryAcquire(2, TimeUnit.SECONDS));
            heard.drainPermits();

            postgres.stop();
            try {
                for (int i = 0; i < 3; i++) {
                    long start = System.nanoTime();
                    assertThrows(
                            StorageUnavailableException.class,
                            () -> store.upsert(CITIES, List.of(record("l", "London"))));
                    assertThrows(StorageUnavailableException.class, () -> store.page(CITIES, null, 10));
                    Duration took = Duration.ofNanos(System.nanoTime() - start);
                    assertTrue(took.toMillis() < 3000, "a write while PostgreSQL is down took " + took);
                }
            } finally {
                postgres.restart();
            }
            assertTrue(heard.tryAcquire(5, TimeUnit.SECONDS), "the listener was not called after the reconnection");
            store.upsert(CITIES, List.of(record("l", "London")));
            assertEquals(List.of("l", "p"), ids(all(other, CITIES)));
        }
    }

    @Test
    void two_replicas_seeding_at_once_seed_once() throws Exception {
        try (CatalogStore other = openAgain()) {
            var first = Thread.ofPlatform().start(() -> store.seed(CITIES, generation("a", 3000), "sha256:a"));
            boolean second = other.seed(CITIES, generation("b", 3000), "sha256:b");
            first.join();
            List<OptionRecord> all = all(store, CITIES);
            assertEquals(3000, all.size());
            String winner = all.get(0).text().substring(0, 1);
            assertTrue(all.stream().allMatch(r -> r.text().startsWith(winner)), "one seed, not a mix");
            assertEquals(second ? "b" : "a", winner);
            assertEquals(java.util.Optional.of("sha256:" + winner), store.seedDigest(CITIES));
        }
    }
}
