package dev.autocomplete.server.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** The test fixture itself: a password-protected server on loopback, not root, that can go down and come back. */
class PostgresServerTest {

    @Test
    void serves_on_loopback_with_a_password_and_comes_back_after_a_stop() throws Exception {
        try (PostgresServer postgres = PostgresServer.start()) {
            String url = postgres.newDatabase();
            try (Connection connection = DriverManager.getConnection(url);
                    Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE t (n int)");
                statement.execute("INSERT INTO t VALUES (42)");
                ResultSet user = statement.executeQuery("SELECT current_user, inet_server_addr()::text");
                assertTrue(user.next());
                assertEquals(PostgresServer.USER, user.getString(1));
                assertTrue(user.getString(2).startsWith("127.0.0.1"), user.getString(2));
            }
            assertThrows(
                    SQLException.class,
                    () -> DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + postgres.port()
                            + "/postgres?user=" + PostgresServer.USER + "&password=wrong"));

            postgres.stop();
            assertThrows(SQLException.class, () -> DriverManager.getConnection(url));
            postgres.restart();
            try (Connection connection = DriverManager.getConnection(url);
                    Statement statement = connection.createStatement()) {
                ResultSet kept = statement.executeQuery("SELECT n FROM t");
                assertTrue(kept.next());
                assertEquals(42, kept.getInt(1));
            }
        }
    }
}
