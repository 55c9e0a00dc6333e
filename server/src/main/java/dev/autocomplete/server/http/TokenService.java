package dev.autocomplete.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.autocomplete.server.auth.AccessTokens;
import dev.autocomplete.server.auth.KeyRecord;
import dev.autocomplete.server.protocol.ApiException;
import dev.autocomplete.server.protocol.Uuids;
import dev.autocomplete.server.tenant.Product;
import dev.autocomplete.server.tenant.Tenant;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.UUID;

/**
 * {@code POST /api/auth/token} (docs/protocol.md §5): a secret key mints a short-lived access token for one
 * product of its tenant. Called from the customer's server only, so it has no CORS.
 */
public final class TokenService implements HttpService {

    private final Gatekeeper gatekeeper;
    private final ObjectMapper json;
    private final ErrorResponses errors;
    private final JsonRequests requests;

    public TokenService(Gatekeeper gatekeeper, ObjectMapper json, ErrorResponses errors, JsonRequests requests) {
        this.gatekeeper = gatekeeper;
        this.json = json;
        this.errors = errors;
        this.requests = requests;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/api/auth/token", this::mint)
                .any(
                        "/api/auth/token",
                        (req, res) -> errors.methodNotAllowed(res, "POST", "Use POST for /api/auth/token."));
    }

    private void mint(ServerRequest request, ServerResponse response) throws JsonProcessingException {
        KeyRecord key = gatekeeper.admitSecretKey(request, response);
        JsonRequests.requireJson(request);
        UUID productId = productId(requests.parse(json, request));
        Tenant tenant = gatekeeper.authenticator().tenantOf(key);
        Product product = tenant.product(productId)
                .orElseThrow(() -> new ApiException(
                        404, "PRODUCT_NOT_FOUND", "product_id names no product of this key's tenant."));
        AccessTokens.Minted minted = gatekeeper
                .authenticator()
                .tokens()
                .mint(key, product.id(), tenant.accessTokens().lifetime());
        ObjectNode body = json.createObjectNode()
                .put("access_token", minted.token())
                .put("expires_at", minted.expiresAt().getEpochSecond())
                .put("token_type", "Bearer");
        response.status(Status.OK_200);
        response.header(HeaderValues.CONTENT_TYPE_JSON);
        response.header(HeaderNames.CACHE_CONTROL, "no-store");
        response.send(json.writeValueAsBytes(body));
    }

    private static UUID productId(JsonNode body) {
        JsonNode id = body.path("product_id");
        return Uuids.parse(body.isObject() && id.isTextual() ? id.asText() : null)
                .orElseThrow(() -> ApiException.badRequest(
                        "INVALID_PRODUCT_ID", "Send {\"product_id\": \"<the product's UUID>\"}."));
    }
}
