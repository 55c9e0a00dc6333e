package dev.autocomplete.server.http;

import java.io.IOException;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.helidon.http.HttpMediaType;
import io.helidon.webserver.http.ServerRequest;

import dev.autocomplete.server.protocol.ApiException;

/** Reading JSON request bodies: the media type check and the parse, with the protocol's error codes. */
final class JsonRequests {

    private JsonRequests() {
    }

    static void requireJson(ServerRequest request) {
        boolean json = request.headers().contentType()
                .map(HttpMediaType::mediaType)
                .map(type -> type.type().equalsIgnoreCase("application") && type.subtype().equalsIgnoreCase("json"))
                .orElse(false);
        if (!json) {
            throw new ApiException(415, "UNSUPPORTED_MEDIA_TYPE", "Send the body as Content-Type: application/json.");
        }
    }

    static JsonNode parse(ObjectMapper json, ServerRequest request) {
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
