package dev.autocomplete.server.http;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.autocomplete.server.config.ServerSettings;
import dev.autocomplete.server.wiring.AutocompleteServer;

/** The server's request-body mapper for benchmarks, which must read bodies exactly as the server does. */
public final class ServerJson {

    private ServerJson() {
    }

    public static ObjectMapper mapper(ServerSettings.Limits limits) {
        return AutocompleteServer.jsonMapper(limits);
    }
}
