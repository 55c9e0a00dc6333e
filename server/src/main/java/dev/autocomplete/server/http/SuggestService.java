package dev.autocomplete.server.http;

import java.io.IOException;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.HttpMediaType;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import dev.autocomplete.server.auth.Authenticator;
import dev.autocomplete.server.auth.Caller;
import dev.autocomplete.server.protocol.ApiException;
import dev.autocomplete.server.protocol.JsonBodies;
import dev.autocomplete.server.protocol.SuggestRequest;
import dev.autocomplete.server.protocol.SuggestRequestReader;
import dev.autocomplete.server.suggest.Suggester;

/** {@code POST /api/suggest}: media type, credentials, body, then the {@link Suggester}. */
public final class SuggestService implements HttpService {

    private final Authenticator authenticator;
    private final ObjectMapper json;
    private final SuggestRequestReader reader;
    private final Suggester suggester;
    private final JsonBodies bodies;
    private final ErrorResponses errors;

    public SuggestService(Authenticator authenticator, ObjectMapper json, Suggester suggester, JsonBodies bodies,
            ErrorResponses errors) {
        this.authenticator = authenticator;
        this.json = json;
        this.reader = new SuggestRequestReader(json);
        this.suggester = suggester;
        this.bodies = bodies;
        this.errors = errors;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/api/suggest", this::suggest)
                .any("/api/suggest", (req, res) -> errors.send(res, 405, "METHOD_NOT_ALLOWED",
                        "Use POST for /api/suggest."));
    }

    private void suggest(ServerRequest request, ServerResponse response) {
        try {
            requireJson(request);
            Caller caller = authenticator.authenticate(request.headers().first(HeaderNames.AUTHORIZATION),
                    request.headers().first(Headers.APP_IDENTIFIER));
            request.context().register(caller);
            SuggestRequest body = reader.read(parse(request));
            request.context().register(body);
            byte[] bytes = bodies.suggestResponse(suggester.suggest(caller, body));
            response.status(Status.OK_200);
            response.header(HeaderValues.CONTENT_TYPE_JSON);
            response.send(bytes);
        } catch (ApiException e) {
            errors.send(response, e);
        }
    }

    private static void requireJson(ServerRequest request) {
        boolean json = request.headers().contentType()
                .map(HttpMediaType::mediaType)
                .map(type -> type.type().equalsIgnoreCase("application") && type.subtype().equalsIgnoreCase("json"))
                .orElse(false);
        if (!json) {
            throw new ApiException(415, "UNSUPPORTED_MEDIA_TYPE", "Send the body as Content-Type: application/json.");
        }
    }

    private JsonNode parse(ServerRequest request) {
        try {
            byte[] body = request.content().hasEntity() ? request.content().as(byte[].class) : new byte[0];
            if (body.length == 0) {
                throw ApiException.badRequest("INVALID_JSON", "The body is empty; send a JSON object.");
            }
            return json.readTree(body);
        } catch (JacksonException e) {
            throw ApiException.badRequest("INVALID_JSON", "The body is not valid JSON.");
        } catch (IOException e) {
            throw ApiException.badRequest("INVALID_JSON", "The body could not be read.");
        }
    }
}
