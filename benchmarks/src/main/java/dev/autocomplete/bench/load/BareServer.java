package dev.autocomplete.bench.load;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;

/**
 * The baseline of the end-to-end benchmark: a bare Helidon endpoint on the same path that reads the whole
 * request body and answers with a canned JSON body, with a Content-Length, as the real server does.
 */
final class BareServer implements AutoCloseable {

    private final WebServer server;

    BareServer(byte[] canned) {
        HttpRouting.Builder routing = HttpRouting.builder().post("/api/suggest", (req, res) -> {
            req.content().as(byte[].class);
            res.header(HeaderNames.CONTENT_TYPE, "application/json");
            res.send(canned);
        });
        server = WebServer.builder()
                .host("127.0.0.1")
                .port(0)
                .routing(routing)
                .build()
                .start();
    }

    int port() {
        return server.port();
    }

    @Override
    public void close() {
        server.stop();
    }
}
