package dev.autocomplete.server.http;

import java.net.InetAddress;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The connections the per-address cap refused: a total for the metrics, and per address since the last summary,
 * so that a flood of refusals (tens of thousands a minute) is one log line a minute, not one each.
 */
final class RefusedConnections {

    /** At most one summary line this often. */
    static final Duration SUMMARY_INTERVAL = Duration.ofMinutes(1);

    /** Addresses remembered between two summaries; more are counted, not named. */
    static final int MAX_ADDRESSES = 10_000;

    private final LongAdder total = new LongAdder();
    private final AtomicLong pending = new AtomicLong();
    private final Map<InetAddress, LongAdder> byAddress = new ConcurrentHashMap<>();
    private final AtomicLong unnamedAddresses = new AtomicLong();
    private long lastSummary = System.nanoTime() - SUMMARY_INTERVAL.toNanos();

    /** One connection from {@code address} refused. */
    void refused(InetAddress address) {
        total.increment();
        pending.incrementAndGet();
        LongAdder count = byAddress.get(address);
        if (count == null && byAddress.size() >= MAX_ADDRESSES) {
            unnamedAddresses.incrementAndGet(); // each counted once at most by the cap on the map, not exactly
            return;
        }
        (count != null ? count : byAddress.computeIfAbsent(address, a -> new LongAdder())).increment();
    }

    /** Refused since the start. */
    long total() {
        return total.sum();
    }

    /**
     * The summary line due now, if any: when connections were refused since the last one and that was at least
     * {@link #SUMMARY_INTERVAL} ago. Called by one thread (the connection watchdog).
     */
    Optional<String> summary(long now, int cap) {
        if (pending.get() == 0 || now - lastSummary < SUMMARY_INTERVAL.toNanos()) {
            return Optional.empty();
        }
        lastSummary = now;
        long connections = pending.getAndSet(0);
        long addresses = unnamedAddresses.getAndSet(0);
        InetAddress most = null;
        long mostCount = 0;
        for (InetAddress address : byAddress.keySet()) {
            LongAdder count = byAddress.remove(address);
            if (count == null) {
                continue;
            }
            addresses++;
            if (count.sum() > mostCount) {
                most = address;
                mostCount = count.sum();
            }
        }
        return Optional.of("Refused " + connections + " connection(s) from " + addresses + " address(es) over the cap"
                + " of " + cap + " connections per address in the last minute"
                + (most == null ? "" : "; most from " + most.getHostAddress() + " (" + mostCount + ")"));
    }
}
