package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.autocomplete.server.config.ServerSettings;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The limits that protect the server, with defaults and with settings of their own. */
class LimitsTest {

    @TempDir
    Path temp;

    private String key;

    @Test
    void oversized_headers_deep_json_and_too_many_completed_params_are_clear_4xx() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        String key = TestTenants.createKey(tenants, "demo", "public", "travel");
        try (AutocompleteServer server = TestServers.start(tenants)) {
            ApiClient api = new ApiClient(server.port());
            ApiClient.Reply headers = api.post(
                    "/api/suggest",
                    key,
                    envelope("").toString(),
                    "application/json",
                    Map.of("X-Padding", "x".repeat(20_000)));
            // Helidon reports oversized headers as a malformed request.
            assertEquals(400, headers.status(), headers.raw());
            assertEquals("INVALID_REQUEST", headers.errorCode());

            String deep = "[".repeat(100) + "]".repeat(100);
            ApiClient.Reply nested = api.post(
                    "/api/suggest",
                    key,
                    "{\"data\":{\"raw_query\":\"\",\"additional_context\":" + deep + "}}",
                    "application/json",
                    Map.of());
            assertEquals(400, nested.status(), nested.raw());
            assertEquals("INVALID_JSON", nested.errorCode());

            ObjectNode many = envelope("");
            for (int i = 0; i < 101; i++) {
                ApiClient.fill(many, "", "type", "skipped");
            }
            ApiClient.Reply params = api.suggest(key, many);
            assertEquals(400, params.status(), params.raw());
            assertEquals("INVALID_COMPLETED_PARAMS", params.errorCode());
        }
    }

    /** A server over a copy of the demo tenants whose body limit is 2048 bytes; {@link #key} reaches travel. */
    private AutocompleteServer startWithSmallBodyLimit() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        key = TestTenants.createKey(tenants, "demo", "public", "travel");
        return AutocompleteServer.start(ServerSettings.read(null, Map.of("AUTOCOMPLETE_LIMITS_BODY_BYTES", "2048"))
                .with("127.0.0.1", 0, tenants)
                .withManagement("127.0.0.1", 0));
    }

    @Test
    void the_body_limit_follows_the_settings_and_every_refusal_reaches_the_client() throws Exception {
        try (AutocompleteServer server = startWithSmallBodyLimit()) {
            ApiClient api = new ApiClient(server.port());
            ObjectNode body = envelope("");
            ((ObjectNode) body.path("data")).put("padding", "x".repeat(3000));
            ApiClient.Reply large = api.suggest(key, body);
            assertEquals(413, large.status(), large.raw());
            assertEquals("PAYLOAD_TOO_LARGE", large.errorCode());
            // Far more than the socket buffers hold: the answer comes while the client is still sending, and
            // must not be lost to a reset.
            ((ObjectNode) body.path("data")).put("padding", "x".repeat(200_000));
            for (int i = 0; i < 30; i++) {
                ApiClient.Reply refused = api.suggest(key, body);
                assertEquals(413, refused.status(), refused.raw());
                assertEquals("PAYLOAD_TOO_LARGE", refused.errorCode());
            }
            assertEquals(200, api.suggest(key, envelope("")).status());
        }
    }

    /** The head of a suggest request with {@link #key}, up to its body's framing header. */
    private String suggestHead() {
        return "POST /api/suggest HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + key
                + "\r\nContent-Type: application/json\r\n";
    }

    /** A small request on the same connection gets its 200: the connection is still open and in step. */
    private static void assertSmallRequestAnswered(RawConnection connection, String head) throws Exception {
        String small = envelope("").toString();
        connection.send(head + "Content-Length: " + small.length() + "\r\n\r\n" + small);
        String ok = connection.readResponse();
        assertTrue(ok.startsWith("HTTP/1.1 200"), ok);
    }

    @Test
    void a_connection_stays_open_after_a_413_and_a_chunked_body_counts_too() throws Exception {
        try (AutocompleteServer server = startWithSmallBodyLimit();
                RawConnection connection = new RawConnection(server.port())) {
            String head = suggestHead();
            String large = "{\"meta\":{},\"data\":{\"raw_query\":\"" + "x".repeat(5000) + "\"}}";
            connection.send(head + "Content-Length: " + large.length() + "\r\n\r\n" + large);
            assertTrue(connection.readResponse().startsWith("HTTP/1.1 413"));

            StringBuilder chunked = new StringBuilder(head + "Transfer-Encoding: chunked\r\n\r\n");
            for (int i = 0; i < 5; i++) {
                chunked.append("3e8\r\n")
                        .append(i == 0 ? "{\"data\":{\"raw_query\":\"" : "")
                        .append("y".repeat(i == 0 ? 1000 - 22 : 1000))
                        .append("\r\n");
            }
            connection.send(chunked.append("3\r\n\"}}\r\n0\r\n\r\n").toString());
            String refused = connection.readResponse();
            assertTrue(refused.startsWith("HTTP/1.1 413"), refused);
            assertTrue(refused.contains("PAYLOAD_TOO_LARGE"), refused);

            assertSmallRequestAnswered(connection, head);
        }
    }

    @Test
    void up_to_a_mebibyte_past_the_limit_is_discarded_on_an_open_connection_and_more_closes_it() throws Exception {
        try (AutocompleteServer server = startWithSmallBodyLimit();
                RawConnection connection = new RawConnection(server.port())) {
            String head = suggestHead();
            // 1 MiB past the 2,048-byte limit, sent whole: read and discarded after the 413.
            String body = "{\"data\":{\"raw_query\":\"" + "x".repeat(2048 + 1024 * 1024 - 25) + "\"}}";
            assertEquals(2048 + 1024 * 1024, body.length());
            connection.send(head + "Content-Length: " + body.length() + "\r\n\r\n" + body);
            String refused = connection.readResponse();
            assertTrue(refused.startsWith("HTTP/1.1 413"), refused);
            assertFalse(refused.toLowerCase(Locale.ROOT).contains("connection: close"), refused);
            assertSmallRequestAnswered(connection, head);

            // One byte more is declared (far under Helidon's own cap, the catalog writes' 64 MiB and 1 MiB): the
            // answer closes the connection rather than reading the body to its end.
            connection.send(head + "Content-Length: " + (body.length() + 1) + "\r\n\r\n{\"data\":");
            String closed = connection.readResponse();
            assertTrue(closed.startsWith("HTTP/1.1 413"), closed);
            assertTrue(closed.toLowerCase(Locale.ROOT).contains("connection: close"), closed);
            assertTrue(connection.endsWithin(5_000), "the server ended the connection");
        }
    }

    @Test
    void a_chunked_body_past_the_limit_is_discarded_for_a_mebibyte_at_most() throws Exception {
        try (AutocompleteServer server = startWithSmallBodyLimit();
                RawConnection connection = new RawConnection(server.port())) {
            String head = suggestHead() + "Transfer-Encoding: chunked\r\n\r\n";
            // The 2,048-byte limit and 1 MiB more, in chunks: read and discarded after the 413, the connection kept.
            connection.send(head + chunked(2048 + 1024 * 1024));
            String refused = connection.readResponse();
            assertTrue(refused.startsWith("HTTP/1.1 413"), refused);
            assertFalse(refused.toLowerCase(Locale.ROOT).contains("connection: close"), refused);
            assertSmallRequestAnswered(connection, suggestHead());

            // A byte more: the answer closes the connection rather than reading on to Helidon's own cap (the
            // catalog writes' 64 MiB and 1 MiB), which it did before.
            connection.send(head + chunked(2048 + 1024 * 1024 + 1));
            String closed = connection.readResponse();
            assertTrue(closed.startsWith("HTTP/1.1 413"), closed);
            assertTrue(closed.toLowerCase(Locale.ROOT).contains("connection: close"), closed);
            assertTrue(connection.endsWithin(5_000), "the server ended the connection");
        }
    }

    /** A chunked body of {@code length} bytes (a JSON string's letters past its start), in 4 KiB chunks, ended. */
    private static String chunked(int length) {
        String start = "{\"data\":{\"raw_query\":\"";
        StringBuilder body = new StringBuilder(length + length / 1000 + 64);
        int left = length;
        boolean first = true;
        while (left > 0) {
            int size = Math.min(4096, left);
            String text = first ? start + "x".repeat(size - start.length()) : "x".repeat(size);
            body.append(Integer.toHexString(size)).append("\r\n").append(text).append("\r\n");
            left -= size;
            first = false;
        }
        return body.append("0\r\n\r\n").toString();
    }

    @Test
    void a_declared_length_far_over_the_limit_is_refused_before_any_byte_is_read() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        String key = TestTenants.createKey(tenants, "demo", "public", "travel");
        try (AutocompleteServer server = TestServers.start(tenants);
                RawConnection connection = new RawConnection(server.port())) {
            connection.send("POST /api/suggest HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + key
                    + "\r\nContent-Type: application/json\r\nContent-Length: 1000000000\r\n\r\n");
            String refused = connection.readResponse();
            assertTrue(refused.startsWith("HTTP/1.1 413"), refused);
            assertTrue(refused.contains("PAYLOAD_TOO_LARGE"), refused);
        }
    }
}
