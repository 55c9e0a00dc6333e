package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.server.config.ServerSettings;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connection defences one at a time, on raw sockets: deadlines for headers and bodies, refusals that do not
 * wait for the body, {@code Connection: close}, the cap per address, {@code 503 OVERLOADED} and the drain.
 */
@Timeout(60)
class ConnectionDefencesTest {

    @TempDir
    Path temp;

    private String key;
    private String secretKey;

    /** A server over a copy of the demo tenants with these settings (environment names); {@link #key} reaches travel. */
    private AutocompleteServer start(String... settings) throws IOException {
        Path tenants = TestTenants.copyOfDemo(temp);
        key = TestTenants.createKey(tenants, "demo", "public", "travel");
        secretKey = TestTenants.createKey(tenants, "demo", "secret", null);
        Map<String, String> environment = new HashMap<>();
        for (int i = 0; i < settings.length; i += 2) {
            environment.put(settings[i], settings[i + 1]);
        }
        return AutocompleteServer.start(ServerSettings.read(null, environment)
                .with("127.0.0.1", 0, tenants)
                .withManagement("127.0.0.1", 0));
    }

    private String head(int contentLength, String credential) {
        return "POST /api/suggest HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + (credential == null ? "" : "Authorization: Bearer " + credential + "\r\n")
                + "Content-Length: " + contentLength + "\r\n\r\n";
    }

    @Test
    void a_refusal_is_answered_before_the_body_and_the_connection_then_ends_cleanly() throws Exception {
        try (AutocompleteServer server = start();
                RawConnection client = new RawConnection("127.0.0.1", server.port())) {
            long start = System.nanoTime();
            client.send(head(60_000, null) + "{");
            String answer = client.readResponse();
            assertTrue(answer.startsWith("HTTP/1.1 401"), answer);
            assertTrue(answer.toLowerCase().contains("connection: close"), answer);
            assertTrue(client.endsCleanly(), "the connection was reset or stayed open");
            assertTrue(System.nanoTime() - start < 3_000_000_000L, "the refusal waited for the body");
        }
    }

    @Test
    void a_method_that_is_no_http_token_and_an_unknown_transfer_coding_are_each_a_400_in_the_error_shape()
            throws Exception {
        try (CapturedLog log = CapturedLog.of("io.helidon.webserver.http1.Http1Connection");
                AutocompleteServer server = start()) {
            for (String method : List.of("G\u0000T", "GE(T", "G\u00e9T")) {
                try (RawConnection client = new RawConnection("127.0.0.1", server.port())) {
                    client.send((method + " /ready HTTP/1.1\r\nHost: x\r\n\r\n").getBytes(StandardCharsets.UTF_8));
                    String answer = client.readResponse();
                    assertTrue(answer.startsWith("HTTP/1.1 400"), method + ": " + answer);
                    assertTrue(answer.contains("{\"error\":{\"code\":\"INVALID_REQUEST\""), answer);
                    assertTrue(answer.contains("method is not an HTTP token"), answer);
                }
            }
            try (RawConnection client = new RawConnection("127.0.0.1", server.port())) {
                client.send("POST /api/suggest HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n"
                        + "Content-Type: application/json\r\nAuthorization: Bearer " + key + "\r\n\r\n0\r\n\r\n");
                String answer = client.readResponse();
                assertTrue(answer.startsWith("HTTP/1.1 400"), answer);
                assertTrue(answer.contains("\"INVALID_REQUEST\"") && answer.contains("Transfer-Encoding"), answer);
            }
            // HTTP/1.0 (some load balancers' probes): told which version to send, not that the server failed.
            // (A plain socket: docs/openapi.yaml says this for every path in its description, not per route.)
            try (java.net.Socket socket = new java.net.Socket("127.0.0.1", server.port())) {
                socket.setSoTimeout(5000);
                socket.getOutputStream().write("GET /ready HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(answer.startsWith("HTTP/1.1 505"), answer);
                assertTrue(
                        answer.contains("\"HTTP_VERSION_NOT_SUPPORTED\"") && answer.contains("HTTP/1.1 only"), answer);
            }
            // Still serving.
            assertEquals(200, new ApiClient(server.port()).get("/ready").status());
            // Answered 500, Helidon logged each as its internal error with a stack trace: a client's line is no fault.
            assertEquals(List.of(), log.messages());
        }
    }

    @Test
    void a_head_request_gets_the_status_and_headers_of_its_get_and_no_body_so_its_connection_stays_in_step()
            throws Exception {
        try (AutocompleteServer server = start()) {
            // Port, path, credential: readable routes of both listeners, and errors (a wrong method, no such path).
            List<List<String>> cases = List.of(
                    List.of("api", "/api/catalogs", secretKey),
                    List.of("api", "/api/catalogs/cities/options?limit=2", secretKey),
                    List.of("api", "/api/catalogs/cities/options/no-such-id", secretKey),
                    List.of("api", "/api/catalogs", ""),
                    List.of("api", "/api/suggest", key),
                    List.of("api", "/no-such-path", ""),
                    List.of("api", "/ready", ""),
                    List.of("management", "/observe/health/live", ""),
                    List.of("management", "/admin/api/overview", ""),
                    List.of("management", "/no-such-path", ""));
            for (List<String> c : cases) {
                int port = c.get(0).equals("api") ? server.port() : server.managementPort();
                String credential = c.get(2).isEmpty() ? "" : "Authorization: Bearer " + c.get(2) + "\r\n";
                String request = " " + c.get(1) + " HTTP/1.1\r\nHost: localhost\r\n" + credential + "\r\n";
                try (RawConnection client = new RawConnection(port)) {
                    // Both at once: a body sent after the HEAD's headers would be read as the GET's answer.
                    client.send("HEAD" + request + "GET" + request);
                    String head = client.readResponse();
                    String get = client.readResponse();
                    String what = "HEAD " + c.get(1) + ":\n" + head + "\nthen GET:\n" + get;
                    String getHead = get.substring(0, get.indexOf("\r\n\r\n") + 4);
                    String getBody = get.substring(getHead.length());
                    assertTrue(getHead.startsWith("HTTP/1.1 "), what);
                    assertEquals(statusLine(getHead), statusLine(head), what);
                    assertTrue(head.endsWith("\r\n\r\n"), what);
                    assertTrue(
                            head.contains(
                                    "Content-Length: " + getBody.getBytes(StandardCharsets.UTF_8).length + "\r\n"),
                            "the length GET's body has: " + what);
                    assertEquals(header(getHead, "Content-Type"), header(head, "Content-Type"), what);
                }
            }
        }
    }

    private static String statusLine(String response) {
        return response.substring(0, response.indexOf("\r\n"));
    }

    private static String header(String response, String name) {
        for (String line : response.split("\r\n")) {
            if (line.regionMatches(true, 0, name + ":", 0, name.length() + 1)) {
                return line.substring(name.length() + 1).trim();
            }
        }
        return null;
    }

    /**
     * Chunk framing Helidon does not read (a chunk extension, a trailer field: valid HTTP) or that is malformed (a size
     * that is no hex number) is the client's 400, on every route that reads a body: it was a 500 with a stack trace in
     * the log on the records API and the console, and a 499 saying the client had left on the others.
     */
    @Test
    void chunks_framed_in_a_way_the_server_does_not_read_are_a_400_and_end_the_connection() throws Exception {
        try (AutocompleteServer server = start()) {
            String suggest = "{\"data\":{\"raw_query\":\"\"},\"meta\":{\"request_id\":"
                    + "\"73df5687-60a5-4d12-bc8a-d405f59c6b60\",\"request_at\":\"2026-01-01T00:00:00Z\"}}";
            String size = Integer.toHexString(suggest.length());
            List<List<String>> cases = List.of(
                    List.of("api", "/api/suggest", key, size + ";a=b\r\n" + suggest + "\r\n0\r\n\r\n"),
                    List.of("api", "/api/suggest", key, "zz\r\n" + suggest + "\r\n0\r\n\r\n"),
                    List.of("api", "/api/suggest", key, size + "\r\n" + suggest + "\r\n0\r\nX-Trailer: 1\r\n\r\n"),
                    List.of("api", "/api/catalogs/cities/options", secretKey, "2;a=b\r\n[]\r\n0\r\n\r\n"),
                    List.of("api", "/api/catalogs/cities/options", secretKey, "zz\r\n[]\r\n0\r\n\r\n"),
                    List.of("management", "/admin/api/try-key", "", "2;a=b\r\n{}\r\n0\r\n\r\n"));
            for (List<String> c : cases) {
                int port = c.get(0).equals("api") ? server.port() : server.managementPort();
                String credential = c.get(2).isEmpty() ? "" : "Authorization: Bearer " + c.get(2) + "\r\n";
                try (RawConnection client = new RawConnection(port)) {
                    client.send("POST " + c.get(1) + " HTTP/1.1\r\nHost: localhost\r\n" + credential
                            + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" + c.get(3));
                    String answer = client.readResponse();
                    String what =
                            c.get(1) + " " + c.get(3).substring(0, c.get(3).indexOf('\r')) + ":\n" + answer;
                    assertTrue(answer.startsWith("HTTP/1.1 400"), what);
                    assertTrue(answer.contains("\"INVALID_REQUEST\"") && answer.contains("chunk"), what);
                    assertTrue(client.endsWithin(5000), "the connection, whose framing is lost, ends: " + what);
                }
            }
            assertEquals(200, new ApiClient(server.port()).get("/ready").status(), "still serving");
        }
    }

    /**
     * A header that names one thing, sent twice, is refused as two Authorization headers are: the first one won, so
     * what the server checked depended on which one a proxy in between kept (a hostile-client trial).
     */
    @Test
    void a_content_type_origin_or_app_identifier_sent_twice_is_a_400_naming_it() throws Exception {
        try (AutocompleteServer server = start()) {
            String body = "{\"data\":{\"raw_query\":\"\"},\"meta\":{\"request_id\":"
                    + "\"73df5687-60a5-4d12-bc8a-d405f59c6b60\",\"request_at\":\"2026-01-01T00:00:00Z\"}}";
            List<List<String>> cases = List.of(
                    List.of(key, "Content-Type: application/json\r\nContent-Type: text/plain\r\n", "Content-Type"),
                    List.of(
                            key,
                            "Content-Type: application/json\r\nOrigin: https://a.example\r\n"
                                    + "Origin: https://b.example\r\n",
                            "Origin"),
                    List.of(
                            secretKey,
                            "Content-Type: application/json\r\nX-App-Identifier: travel\r\n"
                                    + "X-App-Identifier: workspace\r\n",
                            "X-App-Identifier"));
            for (List<String> c : cases) {
                try (RawConnection client = new RawConnection(server.port())) {
                    client.send("POST /api/suggest HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + c.get(0)
                            + "\r\n" + c.get(1) + "Content-Length: " + body.length() + "\r\n\r\n" + body);
                    String answer = client.readResponse();
                    assertTrue(answer.startsWith("HTTP/1.1 400"), c.get(2) + ": " + answer);
                    assertTrue(answer.contains("Send one " + c.get(2) + " header, not 2."), answer);
                }
            }
            // Once each, as clients send them: served.
            try (RawConnection client = new RawConnection(server.port())) {
                client.send("POST /api/suggest HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + secretKey
                        + "\r\nContent-Type: application/json\r\nX-App-Identifier: travel\r\nContent-Length: "
                        + body.length() + "\r\n\r\n" + body);
                String answer = client.readResponse();
                assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
            }
        }
    }

    /** protocol.md §7.3: what Helidon makes of a lower-case method and of an empty {@code Content-Type}. */
    @Test
    void a_lower_case_method_is_read_as_upper_case_and_an_empty_content_type_is_malformed() throws Exception {
        try (AutocompleteServer server = start()) {
            String body = "{\"data\":{\"raw_query\":\"\"},\"meta\":{\"request_id\":"
                    + "\"73df5687-60a5-4d12-bc8a-d405f59c6b60\",\"request_at\":\"2026-01-01T00:00:00Z\"}}";
            try (RawConnection client = new RawConnection(server.port())) {
                client.send("post /api/suggest HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + key
                        + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n"
                        + body);
                String answer = client.readResponse();
                assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
            }
            try (RawConnection client = new RawConnection(server.port())) {
                client.send("POST /api/suggest HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + key
                        + "\r\nContent-Type:\r\nContent-Length: " + body.length() + "\r\n\r\n" + body);
                String answer = client.readResponse();
                assertTrue(answer.startsWith("HTTP/1.1 400"), answer);
                assertTrue(answer.contains("\"INVALID_REQUEST\""), answer);
                assertFalse(answer.contains(key), "the key is not echoed: " + answer);
                assertTrue(client.endsCleanly(), "the connection was reset or stayed open");
            }
        }
    }

    @Test
    void a_content_encoding_is_a_415_that_names_the_header_not_a_malformed_request() throws Exception {
        try (AutocompleteServer server = start()) {
            ApiClient api = new ApiClient(server.port());
            for (String coding : List.of("gzip", "br", "identity")) {
                // Compressed or not, the body is not read: the header alone is refused, before the credential.
                ApiClient.Reply reply =
                        api.post("/api/suggest", key, "{}", "application/json", Map.of("Content-Encoding", coding));
                assertEquals(415, reply.status(), coding + ": " + reply.raw());
                assertEquals("UNSUPPORTED_MEDIA_TYPE", reply.errorCode(), reply.raw());
                assertTrue(reply.raw().contains("Content-Encoding"), reply.raw());
            }
            assertEquals(200, api.get("/ready").status());
        }
    }

    @Test
    void a_body_that_stops_arriving_is_answered_408_at_its_deadline() throws Exception {
        try (AutocompleteServer server = start("AUTOCOMPLETE_LIMITS_BODY_TIMEOUT_SECONDS", "1");
                RawConnection client = new RawConnection("127.0.0.1", server.port())) {
            long start = System.nanoTime();
            client.send(head(5000, key) + "{\"data\":");
            for (int i = 0; i < 3; i++) {
                Thread.sleep(300);
                client.send(" "); // a trickle does not extend the deadline
            }
            String answer = client.readResponse();
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(answer.startsWith("HTTP/1.1 408"), answer);
            assertTrue(answer.contains("REQUEST_TIMEOUT"), answer);
            assertTrue(millis >= 900 && millis < 3000, millis + " ms");
            assertTrue(client.endsCleanly(), "the connection was reset or stayed open");
        }
    }

    /**
     * A catalog write's body may take minutes (limits.catalog-body-timeout-seconds, 300 by default), but a client that
     * stops sending holds its request slot for one read timeout, as docs/security.md says of any silent read: a
     * records-API trial's silent client was answered after 300 s.
     */
    @Test
    void a_catalog_body_that_falls_silent_is_answered_408_after_one_read_timeout() throws Exception {
        try (AutocompleteServer server = start("AUTOCOMPLETE_LIMITS_READ_TIMEOUT_SECONDS", "1");
                RawConnection client = new RawConnection("127.0.0.1", server.port())) {
            long start = System.nanoTime();
            client.send("PUT /api/catalogs/cities/options HTTP/1.1\r\nHost: localhost\r\n"
                    + "Content-Type: application/x-ndjson\r\nAuthorization: Bearer " + secretKey + "\r\n"
                    + "Content-Length: 5000\r\n\r\n{\"id\": \"a\", \"text\": \"A\"}\n");
            for (int i = 0; i < 4; i++) {
                Thread.sleep(400);
                client.send("{\"id\": \"b" + i + "\", \"text\": \"B" + i + "\"}\n"); // sending: not silent
            }
            long silentFrom = System.nanoTime();
            String answer = client.readResponse();
            long silentMillis = (System.nanoTime() - silentFrom) / 1_000_000;
            assertTrue(answer.startsWith("HTTP/1.1 408"), answer);
            assertTrue(answer.contains("REQUEST_TIMEOUT"), answer);
            assertTrue(silentMillis >= 900 && silentMillis < 5000, silentMillis + " ms of silence");
            assertTrue((System.nanoTime() - start) / 1_000_000 >= 2500, "a body still arriving was not cut off");
            assertTrue(client.endsCleanly(), "the connection was reset or stayed open");
        }
    }

    @Test
    void headers_that_trickle_past_their_deadline_lose_the_connection() throws Exception {
        try (AutocompleteServer server = start("AUTOCOMPLETE_LIMITS_HEADER_TIMEOUT_SECONDS", "1");
                RawConnection idle = new RawConnection("127.0.0.1", server.port());
                RawConnection slow = new RawConnection("127.0.0.1", server.port())) {
            long start = System.nanoTime();
            slow.send("POST /api/suggest HTTP/1.1\r\nHost: localhost\r\nX-Slow: ");
            boolean closed = false;
            while (!closed && System.nanoTime() - start < 5_000_000_000L) {
                Thread.sleep(200);
                try {
                    slow.send("x");
                } catch (IOException e) {
                    closed = true;
                }
                closed |= slow.endsWithin(1);
            }
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(closed && millis < 3000, "open after " + millis + " ms");
            assertTrue(idle.endsWithin(3000), "an idle new connection stayed open past the header deadline");
        }
    }

    @Test
    void connection_close_from_the_client_is_honoured() throws Exception {
        try (AutocompleteServer server = start();
                RawConnection client = new RawConnection("127.0.0.1", server.port())) {
            String body = envelope("").toString();
            client.send(head(body.length(), key).replace("\r\n\r\n", "\r\nConnection: close\r\n\r\n") + body);
            String answer = client.readResponse();
            assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
            assertEquals("close", header(answer, "Connection"), answer);
            assertTrue(client.endsWithin(2000), "the connection stayed open after Connection: close");
        }
    }

    /**
     * HTTP/1.1 connections persist unless one side says otherwise, so an answer on a kept connection does not say
     * {@code Connection: keep-alive}; and every {@code /api/} answer is {@code no-store}, so only a request that names
     * an {@code Origin} (whose answer does vary by it) gets {@code Vary: Origin}. Together they keep a plain answer's
     * status line and headers within the 256 bytes Helidon adds to the body for its send buffer: at 280, every cached
     * answer grew that buffer once more (docs/benchmarks.md).
     */
    @Test
    void a_kept_connection_answers_without_a_connection_header_and_vary_comes_with_an_origin() throws Exception {
        try (AutocompleteServer server = start();
                RawConnection client = new RawConnection("127.0.0.1", server.port())) {
            String body = envelope("Book a flight from P").toString();
            for (int i = 0; i < 3; i++) {
                client.send(head(body.length(), key) + body);
                String answer = client.readResponse();
                String headers = answer.substring(0, answer.indexOf("\r\n\r\n") + 4);
                assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
                assertNull(header(headers, "Connection"), headers);
                assertNull(header(headers, "Vary"), headers);
                assertTrue(headers.length() <= 256, headers.length() + " bytes of headers:\n" + headers);
            }
            assertFalse(client.endsWithin(200), "the connection ended after three answers");
            String fromPage =
                    head(body.length(), key).replace("\r\n\r\n", "\r\nOrigin: https://app.example.com\r\n\r\n");
            client.send(fromPage + body);
            String answer = client.readResponse();
            assertTrue(answer.startsWith("HTTP/1.1 "), answer);
            assertEquals("Origin", header(answer.substring(0, answer.indexOf("\r\n\r\n")), "Vary"), answer);
        }
    }

    @Test
    void one_address_gets_at_most_its_cap_of_connections_and_others_are_unaffected() throws Exception {
        try (AutocompleteServer server = start("AUTOCOMPLETE_LIMITS_CONNECTIONS_PER_ADDRESS", "3")) {
            List<RawConnection> held = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    held.add(new RawConnection("127.0.0.3", server.port()));
                }
                String body = envelope("").toString();
                try (RawConnection fourth = new RawConnection("127.0.0.3", server.port())) {
                    assertTrue(fourth.endsWithin(2000), "a connection over the cap was kept");
                }
                try (RawConnection other = new RawConnection("127.0.0.1", server.port())) {
                    other.send(head(body.length(), key) + body);
                    assertTrue(other.readResponse().startsWith("HTTP/1.1 200"));
                }
                held.get(0).send(head(body.length(), key) + body);
                assertTrue(held.get(0).readResponse().startsWith("HTTP/1.1 200"), "a capped address lost its own");
            } finally {
                for (RawConnection client : held) {
                    client.close();
                }
            }
            Thread.sleep(300); // the server sees the closes
            try (RawConnection again = new RawConnection("127.0.0.3", server.port())) {
                String body = envelope("").toString();
                again.send(head(body.length(), key) + body);
                assertTrue(again.readResponse().startsWith("HTTP/1.1 200"), "closed connections still counted");
            }
        }
    }

    /** A reverse proxy carries many clients' connections: one listed in {@code limits.trusted-proxies} is not capped. */
    @Test
    void a_trusted_proxy_is_not_capped_and_other_addresses_still_are() throws Exception {
        try (AutocompleteServer server = start(
                "AUTOCOMPLETE_LIMITS_CONNECTIONS_PER_ADDRESS",
                "2",
                "AUTOCOMPLETE_LIMITS_TRUSTED_PROXIES",
                "127.0.0.4")) {
            List<RawConnection> held = new ArrayList<>();
            try {
                for (int i = 0; i < 2; i++) {
                    held.add(new RawConnection("127.0.0.5", server.port()));
                }
                try (RawConnection third = new RawConnection("127.0.0.5", server.port())) {
                    assertTrue(third.endsWithin(2000), "a connection over the cap was kept");
                }
                for (int i = 0; i < 4; i++) {
                    held.add(new RawConnection("127.0.0.4", server.port()));
                }
                String body = envelope("").toString();
                RawConnection fourth = held.getLast();
                fourth.send(head(body.length(), key) + body);
                assertTrue(
                        fourth.readResponse().startsWith("HTTP/1.1 200"), "the proxy's fourth connection was refused");
            } finally {
                for (RawConnection client : held) {
                    client.close();
                }
            }
        }
    }

    @Test
    void refusals_over_the_cap_are_counted_and_summarized_in_one_log_line_not_one_each() throws Exception {
        try (LogLines log = LogLines.of(dev.autocomplete.server.http.ConnectionGuard.class);
                AutocompleteServer server = start("AUTOCOMPLETE_LIMITS_CONNECTIONS_PER_ADDRESS", "2");
                RawConnection first = new RawConnection("127.0.0.4", server.port());
                RawConnection second = new RawConnection("127.0.0.4", server.port())) {
            for (int round = 0; round < 2; round++) {
                for (int i = 0; i < 25; i++) {
                    try (RawConnection over = new RawConnection("127.0.0.4", server.port())) {
                        assertTrue(over.endsWithin(2000), "a connection over the cap was kept");
                    }
                }
                Thread.sleep(1_000); // several ticks of the watchdog
            }
            List<String> summaries = log.lines().stream()
                    .filter(line -> line.startsWith("Refused "))
                    .toList();
            assertEquals(1, summaries.size(), "one summary a minute, not one a refusal: " + log.lines());
            assertTrue(
                    summaries
                            .getFirst()
                            .matches(
                                    "Refused \\d+ connection\\(s\\) from 1 address\\(es\\) over the cap"
                                            + " of 2 connections per address in the last minute; most from 127\\.0\\.0\\.4 \\(\\d+\\)"),
                    summaries.getFirst());
            String metrics = ApiClient.management(server.managementPort())
                    .get("/observe/metrics")
                    .raw();
            assertTrue(metrics.contains("\nautocomplete_connections_refused_total 50.0\n"), metrics);
        }
    }

    @Test
    void a_full_server_answers_503_overloaded_with_retry_after_logged_and_counted() throws Exception {
        try (AutocompleteServer server = start("AUTOCOMPLETE_LIMITS_MAX_CONCURRENT_REQUESTS", "1");
                RawConnection holder = new RawConnection("127.0.0.1", server.port());
                RawConnection refused = new RawConnection("127.0.0.1", server.port())) {
            holder.send(head(5000, key) + "{"); // authenticated, then waits for its body: holds the one slot
            Thread.sleep(300);
            String body = envelope("").toString();
            refused.send(head(body.length(), key) + body);
            String answer = refused.readResponse();
            assertTrue(answer.startsWith("HTTP/1.1 503"), answer);
            assertTrue(answer.contains("\"OVERLOADED\""), answer);
            assertTrue(answer.toLowerCase().contains("retry-after: 1"), answer);
            // Counted once the answer is written: the client may read it a moment before.
            boolean counted = false;
            for (int i = 0; i < 50 && !counted; i++) {
                ByteArrayOutputStream metrics = new ByteArrayOutputStream();
                server.metrics().write(metrics);
                counted = metrics.toString(StandardCharsets.UTF_8)
                        .matches("(?s).*autocomplete_errors_total\\{[^}]*" + "code=\"OVERLOADED\"[^}]*} 1\\.0.*");
                if (!counted) {
                    Thread.sleep(20);
                }
            }
            assertTrue(counted, "OVERLOADED not counted");
        }
    }

    @Test
    void during_the_drain_requests_on_open_connections_get_503_shutting_down_then_a_clean_end() throws Exception {
        AutocompleteServer server = start("AUTOCOMPLETE_SERVER_SHUTDOWN_GRACE_SECONDS", "5");
        List<RawConnection> clients = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            String body = envelope("").toString();
            for (int i = 0; i < 20; i++) {
                RawConnection client = new RawConnection("127.0.0.1", server.port());
                client.send(head(body.length(), key) + body);
                assertTrue(client.readResponse().startsWith("HTTP/1.1 200"));
                clients.add(client);
            }
            // A slow request keeps the drain going while the kept-alive connections send their next request.
            RawConnection slow = new RawConnection("127.0.0.1", server.port());
            slow.send(head(body.length(), key) + body.substring(0, 10));
            Thread.sleep(200);
            Future<?> closing = pool.submit(server::close);
            Thread.sleep(300);
            for (RawConnection client : clients) {
                client.send(head(body.length(), key) + body);
            }
            for (RawConnection client : clients) {
                String answer = client.readResponse();
                assertTrue(answer.startsWith("HTTP/1.1 503") && answer.contains("SHUTTING_DOWN"), answer);
                assertTrue(client.endsCleanly(), "reset or left open after SHUTTING_DOWN");
            }
            slow.send(body.substring(10));
            String slowAnswer = slow.readResponse();
            assertTrue(slowAnswer.startsWith("HTTP/1.1 200"), slowAnswer);
            closing.get();
        } finally {
            for (RawConnection client : clients) {
                client.close();
            }
            server.close();
        }
    }
}
