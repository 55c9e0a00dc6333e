package dev.autocomplete.server;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock a test moves forward by hand, so expiry is tested without waiting. */
public final class TestClock extends Clock {

    private volatile Instant now = Instant.now();

    public void advance(Duration duration) {
        now = now.plus(duration);
    }

    /** Sets the clock to {@code instant} (ISO 8601, e.g. {@code 2026-03-10T00:00:00Z}). */
    public void set(String instant) {
        now = Instant.parse(instant);
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
