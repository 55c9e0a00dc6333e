package dev.autocomplete.server;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.model.Request;
import com.atlassian.oai.validator.model.SimpleResponse;
import com.atlassian.oai.validator.report.LevelResolver;
import com.atlassian.oai.validator.report.MessageResolver;
import com.atlassian.oai.validator.report.ValidationReport;
import com.atlassian.oai.validator.schema.SchemaValidator;
import com.fasterxml.jackson.databind.JsonNode;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code docs/openapi.yaml} as a check of responses, by Atlassian's OpenAPI validator: a response must be one
 * the document lists for its path and method, with that status, its required headers, and a body of its
 * media type and schema. A path or method the document does not list must answer as its description says:
 * the Error body with {@code 404 NOT_FOUND} or {@code 405 METHOD_NOT_ALLOWED}. {@link ApiClient} checks every
 * response it receives.
 */
final class OpenApiContract {

    /** The document in this repository, found from the working directory (the module's, under Maven). */
    static final Path DOCUMENT = locate("docs/openapi.yaml");

    private static final String PATH_MISSING = "validation.request.path.missing";
    private static final String NOT_ALLOWED = "validation.request.operation.notAllowed";

    /** Parsed once per test JVM: reading the document takes most of a second. */
    private static final class Repository {
        static final OpenApiContract CONTRACT = new OpenApiContract(DOCUMENT);
    }

    private final OpenAPI api;
    private final OpenApiInteractionValidator validator;
    private final SchemaValidator schemas;

    OpenApiContract(Path document) {
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        options.setResolveFully(true);
        // allOf stays as written: merged into one schema, the code lists of §7.2 would replace the Error shape.
        options.setResolveCombinators(false);
        SwaggerParseResult parsed =
                new OpenAPIV3Parser().readLocation(document.toUri().toString(), null, options);
        if (parsed.getOpenAPI() == null || !parsed.getMessages().isEmpty()) {
            throw new IllegalArgumentException(document + " is not a valid OpenAPI document: " + parsed.getMessages());
        }
        api = parsed.getOpenAPI();
        // Everything the validator can report is an error here: a warning would let a mismatch pass.
        LevelResolver levels = LevelResolver.create()
                .withDefaultLevel(ValidationReport.Level.ERROR)
                .build();
        validator = OpenApiInteractionValidator.createFor(api)
                .withLevelResolver(levels)
                .build();
        schemas = new SchemaValidator(api, new MessageResolver(levels));
    }

    /** The contract of this repository. */
    static OpenApiContract repository() {
        return Repository.CONTRACT;
    }

    /** Fails with every problem when the response does not match the document. */
    void check(String method, String rawPath, int status, Map<String, List<String>> headers, String body) {
        List<String> problems = problems(method, rawPath, status, headers, body);
        if (!problems.isEmpty()) {
            throw new AssertionError(method + " " + rawPath + " answered " + status + ", which docs/openapi.yaml "
                    + "does not allow:\n  " + String.join("\n  ", problems) + "\nbody: " + body);
        }
    }

    /** What does not match the document; empty when the response does. */
    List<String> problems(String method, String rawPath, int status, Map<String, List<String>> headers, String body) {
        SimpleResponse.Builder response = SimpleResponse.Builder.status(status);
        headers.forEach(response::withHeader);
        if (!body.isEmpty()) {
            response.withBody(body);
        }
        ValidationReport report = validator.validateResponse(
                rawPath, Request.Method.valueOf(method.toUpperCase(Locale.ROOT)), response.build());
        List<String> keys = report.getMessages().stream()
                .map(ValidationReport.Message::getKey)
                .toList();
        if (keys.contains(PATH_MISSING)) {
            return unlisted(404, "NOT_FOUND", status, body);
        }
        if (keys.contains(NOT_ALLOWED)) {
            // The /api/ routes (and the console's) answer other methods themselves; elsewhere no route matches at all.
            return rawPath.startsWith("/api/") || rawPath.startsWith("/admin/api/")
                    ? unlisted(405, "METHOD_NOT_ALLOWED", status, body)
                    : unlisted(404, "NOT_FOUND", status, body);
        }
        return messages(report);
    }

    /** A path or method the document does not list: the Error body with the status and code its description gives. */
    private List<String> unlisted(int expectedStatus, String expectedCode, int status, String body) {
        List<String> problems = new ArrayList<>(
                messages(schemas.validate(body, api.getComponents().getSchemas().get("Error"), "response.body")));
        String code = errorCode(body);
        if (status != expectedStatus || !expectedCode.equals(code)) {
            problems.add("a route the document does not list answers " + expectedStatus + " " + expectedCode + ", not "
                    + status + " " + code);
        }
        return problems;
    }

    private static String errorCode(String body) {
        try {
            JsonNode json = ApiClient.JSON.readTree(body);
            return json.path("error").path("code").asText(null);
        } catch (Exception e) {
            return null;
        }
    }

    private static List<String> messages(ValidationReport report) {
        List<String> messages = new ArrayList<>();
        for (ValidationReport.Message message : report.getMessages()) {
            if (message.getLevel() == ValidationReport.Level.ERROR) {
                messages.add(message.getKey() + ": " + message.getMessage()
                        + (message.getAdditionalInfo().isEmpty() ? "" : " " + message.getAdditionalInfo()));
                message.getNestedMessages().forEach(nested -> messages.add("  " + nested.getMessage()));
            }
        }
        return messages;
    }

    private static Path locate(String relative) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(relative))) {
                return dir.resolve(relative);
            }
        }
        throw new IllegalStateException(
                relative + " not found above " + Path.of("").toAbsolutePath());
    }
}
