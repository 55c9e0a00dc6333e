package dev.autocomplete.testkit;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.autocomplete.server.auth.Caller;
import dev.autocomplete.server.engines.EngineRunner;
import dev.autocomplete.server.protocol.ApiException;
import dev.autocomplete.server.protocol.JsonBodies;
import dev.autocomplete.server.protocol.SuggestRequestReader;
import dev.autocomplete.server.suggest.ResponseCache;
import dev.autocomplete.server.suggest.Suggester;
import dev.autocomplete.server.tenant.Product;
import dev.autocomplete.server.tenant.Tenant;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;

/**
 * The server's path for one suggest body, minus HTTP and authentication: the body bytes are read and validated by
 * the server's reader, answered by its {@link Suggester}, and written by its {@link JsonBodies}, so that an
 * {@link Answer} is the very body the HTTP API would send. Thread-safe.
 */
final class Core {

    static final ObjectMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private final ResponseCache cache;
    private final SuggestRequestReader reader = new SuggestRequestReader(JSON);
    private final JsonBodies bodies = new JsonBodies(JSON);

    Core(ResponseCache cache) {
        this.cache = cache;
    }

    /**
     * Answers a suggest body for a product as the server would on {@code today} (the system clock's today when
     * null); the product's engines ran as {@code /api/suggest} runs them (one budget, fallback when late).
     *
     * @throws RequestRefused when the server would refuse the body with a 4xx
     */
    Answer suggest(Tenant tenant, Product product, ObjectNode body, LocalDate today) {
        Suggester suggester = new Suggester(new EngineRunner(), cache, clock(today));
        // Authentication is HTTP's business; the suggest core reads only the tenant and product of its caller.
        Caller caller = new Caller(tenant, product, null, Caller.Kind.SECRET_KEY);
        Suggester.Outcome outcome;
        try {
            // No learning here, so the client's address (for new sessions per client) is never asked.
            outcome = suggester.suggest(caller, JSON.writeValueAsBytes(body), reader, () -> "127.0.0.1");
        } catch (ApiException e) {
            throw new RequestRefused(e.status(), e.code(), e.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        byte[] written = bodies.suggestResponse(outcome.response());
        try {
            JsonNode json = JSON.readTree(written);
            return Answer.of(
                    json.path("data"),
                    outcome.cache() == Suggester.CacheLookup.HIT
                            ? "cached"
                            : outcome.engine().label());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A clock that reads noon of {@code today}: the date is what matters, in any product's time zone. */
    private static Clock clock(LocalDate today) {
        if (today == null) {
            return Clock.systemUTC();
        }
        ZoneId zone = ZoneId.of("UTC");
        return new Clock() {
            @Override
            public ZoneId getZone() {
                return zone;
            }

            @Override
            public Clock withZone(ZoneId other) {
                return Clock.fixed(today.atTime(LocalTime.NOON).atZone(other).toInstant(), other);
            }

            @Override
            public java.time.Instant instant() {
                return today.atTime(LocalTime.NOON).atZone(zone).toInstant();
            }
        };
    }
}
