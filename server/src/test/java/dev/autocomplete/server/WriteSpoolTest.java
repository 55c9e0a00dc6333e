package dev.autocomplete.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.server.catalogs.WriteSpool;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A records write's body is copied to {@code spool/} in the data directory, not to {@code java.io.tmpdir}; what a
 * server killed in the middle of a write left there is removed by the next server that starts on that directory,
 * and the files of a process that still runs are not.
 */
class WriteSpoolTest {

    private static final String TENANT = """
            display_name: Spool
            catalogs:
              people: {}
            products:
              - id: 5b1e2c3d-4f5a-4b6c-8d7e-9f0a1b2c3d51
                slug: people
                prompt: Find
                intents:
                  - name: find
                    phrases: [Find]
                    params:
                      - {type: person, label: Person, required: true, catalog: people}
            """;

    @Test
    void a_body_left_by_a_killed_server_is_removed_at_the_next_start_and_a_running_writers_is_not(@TempDir Path temp)
            throws Exception {
        Path tenants = temp.resolve("tenants");
        Files.createDirectories(tenants.resolve("spool"));
        Files.writeString(tenants.resolve("spool/tenant.yaml"), TENANT);
        String secret = TestTenants.createKey(tenants, "spool", "secret", null);
        Path data = temp.resolve("data");
        Path spool = data.resolve(WriteSpool.DIRECTORY);

        ServerProcess first = ServerProcess.start(
                        tenants, temp.resolve("first.log"), Map.of(), "--data-dir", data.toString())
                .awaitServing();
        Path left;
        // Closed (a no-op once killed) also when a check fails before the kill: no server outlives the test.
        try (first;
                Socket socket = new Socket(InetAddress.getLoopbackAddress(), first.port())) {
            // A PUT whose body stops halfway: the server has copied what came into its spool when it is killed.
            String records = "{\"id\": \"p-1\", \"text\": \"Ada Lovelace\"}\n".repeat(200);
            OutputStream out = socket.getOutputStream();
            out.write(("PUT /api/catalogs/people/options HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + secret
                            + "\r\nContent-Type: application/x-ndjson\r\nContent-Length: 100000\r\n\r\n" + records)
                    .getBytes(StandardCharsets.UTF_8));
            out.flush();
            left = awaitOneFile(spool);
            assertEquals(
                    "rw-------",
                    PosixFilePermissions.toString(Files.getPosixFilePermissions(left)),
                    "a body is readable by the server's user only");
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(spool)));
            first.kill();
        }
        assertTrue(Files.exists(left), "kill -9 left the body in the spool: " + left);
        long leftBytes = Files.size(left);
        // A file of a process that runs (this test's JVM) and one the spool did not make: both stay.
        Path running = spool.resolve(ProcessHandle.current().pid() + "-4711.body");
        Files.writeString(running, "{}\n");
        Path foreign = spool.resolve("notes.body");
        Files.writeString(foreign, "mine");

        try (ServerProcess second = ServerProcess.start(
                        tenants, temp.resolve("second.log"), Map.of(), "--data-dir", data.toString())
                .awaitServing()) {
            assertFalse(Files.exists(left), "the killed server's body is gone");
            assertTrue(Files.exists(running), "a running process's body stays");
            assertTrue(Files.exists(foreign), "a file the spool did not make stays");
            assertTrue(
                    second.log()
                            .contains("Removed 1 records write body (" + leftBytes
                                    + " bytes) that a stopped server left in " + spool),
                    second.log());
            ApiClient.Reply reply = new ApiClient(second.port())
                    .call(
                            "PUT",
                            "/api/catalogs/people/options",
                            secret,
                            "{\"id\": \"p-1\", \"text\": \"Ada Lovelace\"}\n",
                            "application/x-ndjson");
            assertEquals(200, reply.status(), reply.raw());
            assertEquals(Set.of(foreign, running), Set.copyOf(files(spool)), "an answered write leaves nothing behind");
        }
    }

    private static Path awaitOneFile(Path spool) throws Exception {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (Files.isDirectory(spool)) {
                List<Path> files = files(spool);
                if (files.size() == 1 && Files.size(files.getFirst()) > 0) {
                    return files.getFirst();
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no body in " + spool + " within 20 s");
    }

    private static List<Path> files(Path directory) throws Exception {
        try (Stream<Path> files = Files.list(directory)) {
            return files.sorted().toList();
        }
    }
}
