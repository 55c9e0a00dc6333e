package dev.autocomplete.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that goes away in the middle of its body is no server error: one access log line with status 499,
 * no stack trace, nothing counted as a 5xx. Anyone can do it, so anything louder floods the log and the alerts.
 */
class ClientAbortTest {

    @TempDir
    Path temp;

    private final List<String> accessLines = new CopyOnWriteArrayList<>();
    private final List<LogRecord> warnings = new CopyOnWriteArrayList<>();
    private final Logger accessLogger = Logger.getLogger("dev.autocomplete.access");
    private final Logger rootLogger = Logger.getLogger("");
    private final Handler accessCapture = new Capture(record -> accessLines.add(record.getMessage()));
    private final Handler warningCapture = new Capture(record -> {
        if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
            warnings.add(record);
        }
    });

    private static final class Capture extends Handler {
        private final java.util.function.Consumer<LogRecord> sink;

        Capture(java.util.function.Consumer<LogRecord> sink) {
            this.sink = sink;
        }

        @Override
        public void publish(LogRecord record) {
            sink.accept(record);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    }

    @BeforeEach
    void capture() {
        accessLogger.addHandler(accessCapture);
        rootLogger.addHandler(warningCapture);
    }

    @AfterEach
    void release() {
        accessLogger.removeHandler(accessCapture);
        rootLogger.removeHandler(warningCapture);
    }

    /** Sends the head and the start of a body, then closes the socket, with a reset when {@code reset}. */
    private static void abort(int port, String key, String framing, String partialBody, boolean reset)
            throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            OutputStream out = socket.getOutputStream();
            out.write(("POST /api/suggest HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + key
                            + "\r\nContent-Type: application/json\r\n" + framing + "\r\n\r\n" + partialBody)
                    .getBytes(StandardCharsets.UTF_8));
            out.flush();
            Thread.sleep(200); // the server is now waiting for the rest
            if (reset) {
                socket.setSoLinger(true, 0);
            }
        }
    }

    @Test
    void a_body_cut_short_by_the_client_is_one_499_line_without_a_stack_trace_and_no_5xx() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        String key = TestTenants.createKey(tenants, "demo", "public", "travel");
        try (AutocompleteServer server = TestServers.start(tenants)) {
            warnings.clear(); // the start's own, such as the generated signing secret
            abort(server.port(), key, "Content-Length: 1000", "{\"data\":", false);
            abort(server.port(), key, "Content-Length: 1000", "{\"data\":", true);
            abort(server.port(), key, "Transfer-Encoding: chunked", "100\r\n{\"data\":", false);
            abort(server.port(), key, "Transfer-Encoding: chunked", "100\r\n{\"data\":", true);
            HotReloadTest.await(() -> accessLines.size() >= 4, "four access log lines");
            Thread.sleep(300); // anything logged late, such as a second line for one request

            assertEquals(4, accessLines.size(), accessLines.toString());
            for (String line : accessLines) {
                JsonNode entry = ApiClient.JSON.readTree(line);
                assertEquals(499, entry.path("status").asInt(), line);
                assertEquals("CLIENT_CLOSED_REQUEST", entry.path("error").asText(), line);
            }
            assertTrue(
                    warnings.isEmpty(),
                    () -> "logged: "
                            + warnings.stream()
                                    .map(r -> r.getLevel() + " " + r.getLoggerName() + ": " + r.getMessage()
                                            + (r.getThrown() == null ? "" : " " + r.getThrown()))
                                    .toList());

            ByteArrayOutputStream metrics = new ByteArrayOutputStream();
            server.metrics().write(metrics);
            String text = metrics.toString(StandardCharsets.UTF_8);
            assertTrue(
                    text.contains("endpoint=\"/api/suggest\",product=\"travel\",status=\"499\",tenant=\"demo\"} 4"),
                    text);
            assertFalse(text.contains("status=\"500\""), text);

            assertEquals(
                    200,
                    new ApiClient(server.port())
                            .suggest(key, ApiClient.envelope(""))
                            .status());
        }
    }
}
