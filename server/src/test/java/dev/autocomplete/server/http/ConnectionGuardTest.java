package dev.autocomplete.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.WritableHeaders;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConnectionGuardTest {

    /** The guard's own check answers as Helidon's containsToken does, for the shapes a Connection header takes. */
    @Test
    void asks_close_exactly_when_a_connection_token_is_close() {
        List<List<String>> shapes = List.of(
                List.of(),
                List.of("close"),
                List.of("Close"),
                List.of("CLOSE"),
                List.of("keep-alive"),
                List.of("keep-alive, close"),
                List.of("close, Upgrade"),
                List.of(" close "),
                List.of("\tclose"),
                List.of("closed"),
                List.of("enclose"),
                List.of("close-ish"),
                List.of(""),
                List.of(","),
                List.of("keep-alive,,close"),
                List.of("keep-alive", "close"),
                List.of("Upgrade", "keep-alive"));
        for (List<String> values : shapes) {
            WritableHeaders<?> headers = WritableHeaders.create();
            headers.add(HeaderNames.CONTENT_TYPE, "application/json");
            if (!values.isEmpty()) {
                headers.add(HeaderNames.CONNECTION, values.toArray(String[]::new));
            }
            assertEquals(
                    headers.containsToken(HeaderValues.CONNECTION_CLOSE),
                    ConnectionGuard.asksClose(headers),
                    "Connection: " + values);
        }
    }
}
