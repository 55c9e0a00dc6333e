package dev.autocomplete.server.http;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.UUID;

/**
 * The demo page at {@code /}: the files the web build bundled into the class path under {@code web/} (the
 * official vanilla client and the page around it), and {@code /demo/config.json}, which hands the page the
 * process's demo public keys. That route answers 404 until {@link #publish} was called, which only
 * {@code serve} does. The files are served by Helidon's static content handler ({@link BundledFiles}); the
 * console's, below {@code web/console/}, are not served here (only on the management listener).
 */
public final class DemoPage implements HttpService {

    /**
     * Everything from this server only. Styles may be inline because the client injects its stylesheet at
     * run time.
     */
    private static final String CONTENT_SECURITY_POLICY = "default-src 'self'; style-src 'self' 'unsafe-inline'; "
            + "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    /** A demo product as the page sees it: the key is a public key, safe in a browser. */
    public record DemoProduct(String slug, UUID id, String publicKey) {
        public DemoProduct {
            requireNonNull(slug, "slug is null");
            requireNonNull(id, "id is null");
            requireNonNull(publicKey, "publicKey is null");
        }
    }

    private final ObjectMapper json;
    private final ErrorResponses errors;
    private volatile List<DemoProduct> products = List.of();

    public DemoPage(ObjectMapper json, ErrorResponses errors) {
        this.json = json;
        this.errors = errors;
    }

    /** Makes {@code /demo/config.json} answer with these products and their keys. */
    public void publish(List<DemoProduct> demoProducts) {
        this.products = List.copyOf(demoProducts);
    }

    @Override
    public void routing(HttpRules rules) {
        rules.route(HeadRequests.get("/demo/config.json", this::config));
        BundledFiles.serve(
                rules,
                "",
                "",
                () -> CONTENT_SECURITY_POLICY,
                name -> name.startsWith(BundledFiles.ROOT + "/console/"),
                errors,
                "The demo page is not in this build; build with `./autocomplete package`.");
    }

    private void config(ServerRequest request, ServerResponse response) {
        List<DemoProduct> current = products;
        if (current.isEmpty()) {
            errors.send(
                    response,
                    404,
                    "NOT_FOUND",
                    "No demo keys in this process (they are made for the demo tenant by `./autocomplete serve`); try"
                            + " any tenant in the console, /admin/ on the management listener.");
            return;
        }
        ObjectNode body = json.createObjectNode();
        body.put("suggest_path", "/api/suggest");
        body.put("max_additional_context_bytes", 2000);
        ArrayNode list = body.putArray("products");
        for (DemoProduct product : current) {
            list.addObject()
                    .put("slug", product.slug())
                    .put("id", product.id().toString())
                    .put("public_key", product.publicKey());
        }
        try {
            response.status(Status.OK_200);
            response.header(HeaderValues.CONTENT_TYPE_JSON);
            response.header(HeaderNames.CACHE_CONTROL, "no-store");
            HeadRequests.send(response, json.writeValueAsBytes(body));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
