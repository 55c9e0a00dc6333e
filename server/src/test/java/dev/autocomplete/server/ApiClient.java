package dev.autocomplete.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A small HTTP client for tests: real requests to a real port. Every response it receives is checked against
 * docs/openapi.yaml ({@link OpenApiContract}): one that does not match fails the test.
 */
final class ApiClient {

    static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;
    private final boolean management;

    ApiClient(int port) {
        this("127.0.0.1", port);
    }

    ApiClient(String host, int port) {
        this(host, port, false);
    }

    private ApiClient(String host, int port, boolean management) {
        this.base = "http://" + host + ":" + port;
        this.management = management;
    }

    /**
     * A client of the management listener: its {@code /observe/*} and console ({@code /admin/api/*}) answers are
     * checked against docs/openapi.yaml, and every other path must answer 404 NOT_FOUND there (the API is not served
     * on it).
     */
    static ApiClient management(String host, int port) {
        return new ApiClient(host, port, true);
    }

    static ApiClient management(int port) {
        return management("127.0.0.1", port);
    }

    /** A response: status, headers and the body parsed as JSON (null when it is not JSON). */
    record Reply(int status, Map<String, List<String>> headers, String raw, JsonNode json) {
        String errorCode() {
            return json == null ? null : json.path("error").path("code").asText(null);
        }

        JsonNode data() {
            return json.path("data");
        }

        /** The texts of the options of the suggestion of a type, in order. */
        List<String> options(String type) {
            List<String> texts = new ArrayList<>();
            for (JsonNode suggestion : data().path("suggestions")) {
                if (suggestion.path("type").asText().equals(type)) {
                    suggestion
                            .path("options")
                            .forEach(o -> texts.add(o.path("text").asText()));
                }
            }
            return texts;
        }

        /** The types of the suggestions, in order. */
        List<String> suggestionTypes() {
            List<String> types = new ArrayList<>();
            data().path("suggestions").forEach(s -> types.add(s.path("type").asText()));
            return types;
        }

        String header(String name) {
            return headers.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().getFirst())
                    .findFirst()
                    .orElse(null);
        }
    }

    /** A valid envelope for a raw query, to adjust before sending. */
    static ObjectNode envelope(String rawQuery) {
        ObjectNode body = JSON.createObjectNode();
        body.putObject("data").put("raw_query", rawQuery).putArray("completed_params");
        body.putObject("meta")
                .put("request_id", UUID.randomUUID().toString())
                .put("request_at", "2026-11-22T10:15:30+01:00");
        return body;
    }

    /** Adds a {@code completed_params} entry; a null text is left out (masked). */
    static ObjectNode fill(ObjectNode body, String placeholder, String type, String text) {
        ArrayNode params = (ArrayNode) body.path("data").path("completed_params");
        ObjectNode entry = params.addObject().put("placeholder", placeholder).put("type", type);
        if (text != null) {
            entry.put("text", text);
        }
        return body;
    }

    Reply suggest(String credential, ObjectNode body) {
        return post("/api/suggest", credential, body.toString(), "application/json", Map.of());
    }

    Reply post(String path, String credential, String body, String contentType, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        if (credential != null) {
            request.header("Authorization", "Bearer " + credential);
        }
        headers.forEach(request::header);
        return send(request.build());
    }

    /** Any method, with an optional body and credential: the records API's PUT, GET and DELETE. */
    Reply call(String method, String path, String credential, String body, String contentType) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(30))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        if (credential != null) {
            request.header("Authorization", "Bearer " + credential);
        }
        return send(request.build());
    }

    Reply get(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET().build());
    }

    /** Posts raw bytes as {@code application/json}: bodies no string holds, such as invalid UTF-8. */
    Reply postBytes(String path, String credential, byte[] body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (credential != null) {
            request.header("Authorization", "Bearer " + credential);
        }
        return send(request.build());
    }

    Reply send(HttpRequest request) {
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            String path = request.uri().getRawPath();
            if (management && !path.startsWith("/observe/") && !path.startsWith("/admin/")) {
                if (response.statusCode() != 404 || !response.body().contains("\"NOT_FOUND\"")) {
                    throw new AssertionError(request.method() + " " + path + " on the management listener answered "
                            + response.statusCode() + ", not 404 NOT_FOUND: " + response.body());
                }
            } else {
                OpenApiContract.repository()
                        .check(
                                request.method(),
                                path,
                                response.statusCode(),
                                response.headers().map(),
                                response.body());
            }
            JsonNode json;
            try {
                json = response.body().isEmpty() ? null : JSON.readTree(response.body());
            } catch (IOException e) {
                json = null;
            }
            return new Reply(response.statusCode(), response.headers().map(), response.body(), json);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    String base() {
        return base;
    }
}
