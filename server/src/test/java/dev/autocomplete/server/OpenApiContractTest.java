package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The check {@link ApiClient} runs on every response can fail: real answers of the server, which pass
 * against docs/openapi.yaml, are refused by a copy of the document that says something else, and responses
 * the document does not allow are refused by the document itself.
 */
class OpenApiContractTest {

    @RegisterExtension
    static final DemoServer demo = new DemoServer();

    @TempDir
    Path temp;

    /** The repository's document with every {@code from} replaced by {@code to}. */
    private OpenApiContract changedDocument(String from, String to) throws IOException {
        String document = Files.readString(OpenApiContract.DOCUMENT);
        assertTrue(document.contains(from), from);
        Path changed = temp.resolve("openapi.yaml");
        Files.writeString(changed, document.replace(from, to));
        return new OpenApiContract(changed);
    }

    private static List<String> problems(OpenApiContract contract, String path, ApiClient.Reply reply) {
        return contract.problems("POST", path, reply.status(), reply.headers(), reply.raw());
    }

    @Test
    void an_answer_whose_field_the_document_names_otherwise_is_refused() throws IOException {
        ApiClient.Reply answer = demo.suggestOk("travel", envelope(""));
        assertEquals(List.of(), problems(OpenApiContract.repository(), "/api/suggest", answer));

        List<String> problems = problems(changedDocument("is_ready", "ready"), "/api/suggest", answer);
        assertTrue(problems.toString().contains("'is_ready' is not defined"), problems.toString());
        assertTrue(problems.toString().contains("required property 'ready'"), problems.toString());
    }

    @Test
    void an_error_code_the_document_does_not_list_for_that_status_is_refused() throws IOException {
        ObjectNode body = envelope("");
        ((ObjectNode) body.get("meta")).put("session_id", "not-a-uuid");
        ApiClient.Reply refused = demo.api().suggest(demo.key("travel"), body);
        assertEquals("INVALID_SESSION_ID", refused.errorCode());

        OpenApiContract withoutCode = changedDocument("INVALID_REQUEST_AT, INVALID_SESSION_ID,", "INVALID_REQUEST_AT,");
        List<String> problems = problems(withoutCode, "/api/suggest", refused);
        assertTrue(problems.toString().contains("validation.response.body.schema.enum"), problems.toString());
    }

    @Test
    void a_code_the_document_gives_another_status_is_refused() {
        Map<String, List<String>> headers = Map.of(
                "Content-Type",
                List.of("application/json"),
                "RateLimit-Limit",
                List.of("40"),
                "RateLimit-Remaining",
                List.of("39"),
                "RateLimit-Reset",
                List.of("1"));
        String forbidden = "{\"error\":{\"code\":\"ORIGIN_NOT_ALLOWED\",\"message\":\"No.\"}}";
        String notFound = "{\"error\":{\"code\":\"NOT_FOUND\",\"message\":\"No.\"}}";
        OpenApiContract contract = OpenApiContract.repository();

        assertEquals(List.of(), contract.problems("POST", "/api/suggest", 403, headers, forbidden));
        assertEquals(
                1,
                contract.problems("POST", "/api/suggest", 403, headers, notFound)
                        .size());
        assertEquals(
                1,
                contract.problems("POST", "/api/auth/token", 403, headers, forbidden)
                        .size());
    }

    @Test
    void an_answer_without_its_required_rate_limit_headers_is_refused() {
        ApiClient.Reply answer = demo.suggestOk("travel", envelope(""));
        Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        headers.putAll(answer.headers());
        headers.remove("RateLimit-Remaining");
        List<String> problems =
                OpenApiContract.repository().problems("POST", "/api/suggest", answer.status(), headers, answer.raw());
        assertTrue(problems.toString().contains("RateLimit-Remaining"), problems.toString());
    }

    @Test
    void a_route_the_document_does_not_list_must_answer_its_error_body_with_404_or_405() {
        OpenApiContract contract = OpenApiContract.repository();
        Map<String, List<String>> json = Map.of("Content-Type", List.of("application/json"));
        String notFound = "{\"error\":{\"code\":\"NOT_FOUND\",\"message\":\"No such endpoint.\"}}";
        String notAllowed = "{\"error\":{\"code\":\"METHOD_NOT_ALLOWED\",\"message\":\"Use POST.\"}}";

        assertEquals(List.of(), contract.problems("POST", "/api/nothing", 404, json, notFound));
        assertEquals(List.of(), contract.problems("GET", "/api/suggest", 405, json, notAllowed));
        assertEquals(List.of(), contract.problems("POST", "/observe/health", 404, json, notFound));

        assertEquals(
                1,
                contract.problems("POST", "/api/nothing", 200, json, notFound).size());
        assertEquals(
                1, contract.problems("GET", "/api/suggest", 404, json, notFound).size());
        assertTrue(contract.problems("POST", "/api/nothing", 404, json, "{\"error\":\"NOT_FOUND\"}")
                        .size()
                > 1);
    }
}
