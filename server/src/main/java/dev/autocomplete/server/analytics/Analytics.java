package dev.autocomplete.server.analytics;

import dev.autocomplete.server.auth.Caller;
import dev.autocomplete.server.learning.Pick;
import dev.autocomplete.server.protocol.SuggestRequest;
import dev.autocomplete.server.protocol.SuggestResponse;
import dev.autocomplete.server.store.LazyStore;
import dev.autocomplete.server.store.StorageUnavailableException;
import dev.autocomplete.server.suggest.Suggester;
import dev.autocomplete.spi.toolkit.TextFolding;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * How the service is used, per tenant, product and hour (docs/operations.md, "Analytics"): suggest requests, their
 * sessions and the sessions that reached {@code is_ready}, engine fallbacks and latency, from each answered suggest
 * request; honest option picks and the letters typed before them (keystroke saving in the wild), from learning's
 * picks; the typed spans that matched nothing; and the suggest and telemetry requests answered with an error, by
 * endpoint, status and error code ({@link #refused}), so that a broken integration shows why it sends fewer
 * requests. Counted in memory (bounded whatever the traffic) and added to the {@link AnalyticsStore} every
 * {@link #FLUSH_SECONDS} seconds, so that replicas' figures add up. Never {@code additional_context}, never a whole
 * query. Thread-safe.
 */
public final class Analytics implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Analytics.class.getName());
    static final long FLUSH_SECONDS = 5;
    /** Distinct picked options, and distinct unmatched spans, counted a day by this replica at most. */
    private static final int MAX_KEYS_A_DAY = 100_000;

    /** The endpoints whose refusals are counted ({@link #refused}). */
    public static final String SUGGEST = "suggest";

    public static final String TELEMETRY = "telemetry";
    /** The prefix of a refusal's counter name: {@code refused:<endpoint>:<status>:<code>}. */
    private static final String REFUSED = "refused:";
    /** Refusals of no known tenant, by endpoint, status and code: at most this many distinct ones. */
    private static final int MAX_UNATTRIBUTED = 200;

    /** A product's refusals of one kind ({@link #refusal}) in an hour. */
    private record Refusal(String tenant, String product, long hour, String name) {}

    private final LazyStore<AnalyticsStore> store;
    private final boolean keepUnmatched;
    private final Clock clock;
    /** Names this process's session sketches in the store. */
    private final String replica = UUID.randomUUID().toString();

    private final BoundedCounts<AnalyticsStore.Count> counts = new BoundedCounts<>(MAX_KEYS_A_DAY);
    private final BoundedCounts<AnalyticsStore.Picked> picks = new BoundedCounts<>(MAX_KEYS_A_DAY);
    private final BoundedCounts<AnalyticsStore.Span> unmatched = new BoundedCounts<>(MAX_KEYS_A_DAY);
    /** This hour's and the last hour's sketches (older ones are dropped once written). */
    private final Map<AnalyticsStore.Sketch, SessionSketch> sketches = new ConcurrentHashMap<>();

    private final java.util.Set<AnalyticsStore.Sketch> changed = ConcurrentHashMap.newKeySet();
    /** Refusals since the last flush, moved into {@link #counts} then; lock-free, as a flood of 429s may add to them. */
    private final Map<Refusal, AtomicLong> refusals = new ConcurrentHashMap<>();
    /** Refusals of no known tenant since this process started. */
    private final Map<String, LongAdder> unattributed = new ConcurrentHashMap<>();

    private final ScheduledExecutorService background;

    /**
     * @param connect opens the store; called again at each flush while it fails (PostgreSQL away at start)
     * @param keepUnmatched whether typed spans that matched nothing are counted ({@code analytics.keep-unmatched})
     */
    public Analytics(Supplier<AnalyticsStore> connect, boolean keepUnmatched, Clock clock) {
        this.store = new LazyStore<>(connect);
        this.keepUnmatched = keepUnmatched;
        this.clock = clock;
        this.background = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("analytics").factory());
        background.scheduleWithFixedDelay(this::flushQuietly, FLUSH_SECONDS, FLUSH_SECONDS, TimeUnit.SECONDS);
        background.scheduleWithFixedDelay(this::pruneQuietly, 1, 360, TimeUnit.MINUTES);
    }

    /** Counts an answered suggest request: what it answered, and how long it took. */
    public void suggested(Caller caller, SuggestRequest request, Suggester.Outcome outcome, long nanos) {
        String tenant = caller.tenant().id();
        String product = caller.product().slug();
        long now = clock.instant().getEpochSecond();
        long hour = now / 3600;
        long day = now / 86_400;
        Hourly counters = hourly.get(new Hour(tenant, product, hour));
        if (counters == null) {
            counters = hourly.computeIfAbsent(new Hour(tenant, product, hour), key -> new Hourly());
        }
        counters.count(Latency.bucket(nanos), outcome.fallback() != null);
        SuggestResponse response = outcome.response();
        if (request.sessionId() != null) {
            session(new AnalyticsStore.Sketch(tenant, product, hour, "all"), request.sessionId());
            if (response.ready()) {
                session(new AnalyticsStore.Sketch(tenant, product, hour, "ready"), request.sessionId());
            }
        }
        if (keepUnmatched && response.unmatchedParam() != null && outcome.fallback() == null) {
            String span = UnmatchedSpan.of(
                    request.rawQuery(), caller.product().model().paramsByType().get(response.unmatchedParam()));
            if (span != null) {
                unmatched.add(new AnalyticsStore.Span(tenant, product, day, span), 1, day);
            }
        }
    }

    /**
     * Counts a suggest or telemetry request of a known tenant and product answered with an error (called on the
     * refusal path only, never for an answered request): its endpoint ({@link #SUGGEST} or {@link #TELEMETRY}), status
     * and error code, which is one of the server's own codes (a code that is not, say a future one with other
     * characters, is counted as {@code OTHER}); never the key, the query or its context.
     */
    public void refused(String tenant, String product, String endpoint, int status, String code) {
        long hour = clock.instant().getEpochSecond() / 3600;
        refusals.computeIfAbsent(
                        new Refusal(tenant, product, hour, refusal(endpoint, status, code)), key -> new AtomicLong())
                .incrementAndGet();
    }

    /**
     * Counts a suggest or telemetry request refused before its tenant was known (no key, an unknown one, too many failed
     * authentications from its address): attributed to no one, kept in memory since the start of this process only.
     */
    public void refusedWithoutTenant(String endpoint, int status, String code) {
        String name = refusal(endpoint, status, code);
        LongAdder count = unattributed.get(name);
        if (count == null) {
            if (unattributed.size() >= MAX_UNATTRIBUTED) {
                return;
            }
            count = unattributed.computeIfAbsent(name, key -> new LongAdder());
        }
        count.increment();
    }

    /**
     * The requests refused before their tenant was known since this process started, most first: each with its
     * {@code endpoint}, {@code status}, {@code code} and {@code count}.
     */
    public List<Map<String, Object>> refusedWithoutTenant() {
        Map<String, Long> counts = new HashMap<>();
        unattributed.forEach((name, count) -> counts.put(name, count.sum()));
        return refusalList(counts);
    }

    /** {@code refused:<endpoint>:<status>:<code>}, from what the server itself answered. */
    private static String refusal(String endpoint, int status, String code) {
        String where = TELEMETRY.equals(endpoint) ? TELEMETRY : SUGGEST;
        int shown = status >= 100 && status <= 599 ? status : 0;
        String named = isCode(code) ? code : "OTHER";
        return REFUSED + where + ":" + shown + ":" + named;
    }

    /** Whether {@code code} reads as one of the server's error codes: {@code [A-Z][A-Z0-9_]*}, at most 64 long. */
    private static boolean isCode(String code) {
        if (code == null || code.isEmpty() || code.length() > 64 || code.charAt(0) < 'A' || code.charAt(0) > 'Z') {
            return false;
        }
        for (int i = 0; i < code.length(); i++) {
            char c = code.charAt(i);
            if (!(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_')) {
                return false;
            }
        }
        return true;
    }

    /** Counts by refusal name as a list of {@code endpoint, status, code, count}, most first. */
    private static List<Map<String, Object>> refusalList(Map<String, Long> counts) {
        List<Map<String, Object>> list = new ArrayList<>();
        for (Map.Entry<String, Long> entry : counts.entrySet()) {
            String[] parts = entry.getKey().split(":", 4);
            if (parts.length != 4 || entry.getValue() <= 0) {
                continue;
            }
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("endpoint", parts[1]);
            try {
                one.put("status", Integer.parseInt(parts[2]));
            } catch (NumberFormatException e) {
                continue;
            }
            one.put("code", parts[3]);
            one.put("count", entry.getValue());
            list.add(one);
        }
        list.sort((a, b) -> {
            int byCount = Long.compare((Long) b.get("count"), (Long) a.get("count"));
            return byCount != 0
                    ? byCount
                    : (a.get("endpoint") + ":" + a.get("code")).compareTo(b.get("endpoint") + ":" + b.get("code"));
        });
        return list;
    }

    /** Counts honest option picks (learning's, as written): picks, letters typed before them, their options. */
    public void picked(List<Pick> batch) {
        for (Pick pick : batch) {
            if (pick.pill()) {
                continue;
            }
            long hour = pick.at() / 3600;
            long day = pick.at() / 86_400;
            count(pick.tenant(), pick.product(), hour, "picks", 1, day);
            count(pick.tenant(), pick.product(), hour, "typed", Math.min(pick.typed(), pick.length()), day);
            count(pick.tenant(), pick.product(), hour, "length", pick.length(), day);
            picks.add(
                    new AnalyticsStore.Picked(pick.tenant(), pick.product(), day, pick.type(), pick.display()), 1, day);
        }
    }

    /** A product's hour of suggest requests. */
    private record Hour(String tenant, String product, long hour) {
        // Written out: a record's own equals and hashCode run through method handles that the JIT left uninlined on
        // this path, which looks the key up on every request (about 1 % of a cached answer's CPU in all).
        @Override
        public boolean equals(Object other) {
            return other instanceof Hour that
                    && hour == that.hour
                    && tenant.equals(that.tenant)
                    && product.equals(that.product);
        }

        @Override
        public int hashCode() {
            return (31 * tenant.hashCode() + product.hashCode()) * 31 + Long.hashCode(hour);
        }
    }

    /**
     * The counts of a product's hour of suggest requests, moved into {@link #counts} at each flush: counters that
     * requests add to without a lock (a synchronized map of counts, updated twice a request, cost 1 % of a cached
     * answer's CPU), in one array: the requests, then the fallbacks, then one per latency bucket. Every answered
     * request adds to two of them from whichever core it runs on, so they share cache lines: as separate
     * {@code LongAdder}s, each request moved two or three lines between the cores.
     */
    private static final class Hourly {
        static final int REQUESTS = 0;
        static final int FALLBACKS = 1;
        static final int LATENCY = 2;

        final AtomicLongArray counts = new AtomicLongArray(LATENCY + Latency.BOUNDS_MS.length);

        void count(int latencyBucket, boolean fallback) {
            counts.getAndIncrement(REQUESTS);
            counts.getAndIncrement(LATENCY + latencyBucket);
            if (fallback) {
                counts.getAndIncrement(FALLBACKS);
            }
        }

        /** The count at {@code index}, set back to 0. */
        long take(int index) {
            return counts.getAndSet(index, 0);
        }
    }

    private final Map<Hour, Hourly> hourly = new ConcurrentHashMap<>();

    /**
     * Moves the hourly request counters into {@link #counts}; those of hours before the last one are dropped once
     * moved (no request adds to them any more).
     */
    private void moveHourly(long hour) {
        for (Map.Entry<Hour, Hourly> entry : hourly.entrySet()) {
            Hour key = entry.getKey();
            Hourly counters = entry.getValue();
            if (key.hour() < hour - 1) {
                hourly.remove(key, counters);
            }
            long day = key.hour() / 24;
            long requests = counters.take(Hourly.REQUESTS);
            if (requests > 0) {
                count(key.tenant(), key.product(), key.hour(), "requests", requests, day);
            }
            long fallbacks = counters.take(Hourly.FALLBACKS);
            if (fallbacks > 0) {
                count(key.tenant(), key.product(), key.hour(), "fallbacks", fallbacks, day);
            }
            for (int bucket = 0; bucket < Latency.BOUNDS_MS.length; bucket++) {
                long n = counters.take(Hourly.LATENCY + bucket);
                if (n > 0) {
                    count(key.tenant(), key.product(), key.hour(), Latency.name(bucket), n, day);
                }
            }
        }
    }

    /** Moves the refusals into {@link #counts}; those of hours before the last one are dropped once moved. */
    private void moveRefusals(long hour) {
        for (Map.Entry<Refusal, AtomicLong> entry : refusals.entrySet()) {
            Refusal key = entry.getKey();
            AtomicLong count = entry.getValue();
            if (key.hour() < hour - 1) {
                refusals.remove(key, count);
            }
            long n = count.getAndSet(0);
            if (n > 0) {
                count(key.tenant(), key.product(), key.hour(), key.name(), n, key.hour() / 24);
            }
        }
    }

    private void count(String tenant, String product, long hour, String name, long n, long day) {
        counts.add(new AnalyticsStore.Count(tenant, product, hour, name), n, day);
    }

    private void session(AnalyticsStore.Sketch key, String sessionId) {
        sketches.computeIfAbsent(key, k -> new SessionSketch()).add(sessionId);
        changed.add(key);
    }

    /** Adds what was counted since the last flush to the store now (tests, and before stopping). */
    public void flush() {
        long hour = clock.instant().getEpochSecond() / 3600;
        moveHourly(hour);
        moveRefusals(hour);
        Map<AnalyticsStore.Sketch, String> written = new HashMap<>();
        for (AnalyticsStore.Sketch key : List.copyOf(changed)) {
            changed.remove(key);
            SessionSketch sketch = sketches.get(key);
            if (sketch != null) {
                written.put(key, sketch.encode());
            }
        }
        AnalyticsStore.Batch batch = new AnalyticsStore.Batch(counts.take(), written, picks.take(), unmatched.take());
        try {
            store.get().write(replica, batch);
        } catch (RuntimeException e) {
            counts.putBack(batch.counts());
            picks.putBack(batch.picks());
            unmatched.putBack(batch.unmatched());
            changed.addAll(written.keySet());
            throw e;
        }
        // Sessions of hours gone by are written for the last time once no request can add to them.
        sketches.keySet().removeIf(key -> key.hour() < hour - 1 && !changed.contains(key));
    }

    /**
     * The figures of a product over the last {@code days} days, as the store holds them for every replica: totals, the
     * top picks, the unmatched spans and a series by hour (up to two days: the last {@code 24 * days} hours, this one
     * included) or by day (the last {@code days} UTC days, today so far included: one point a day, each a whole day).
     */
    public Map<String, Object> report(String tenant, String product, int days) {
        long now = clock.instant().getEpochSecond();
        long toHour = now / 3600 + 1;
        boolean hourly = days <= 2;
        // By day, whole UTC days: a window of 24 * days hours would begin with the last hour or so of an eighth day.
        long fromHour = hourly ? toHour - 24L * days : Math.floorDiv(toHour - 1, 24) * 24 - 24L * (days - 1);
        AnalyticsStore.Figures figures = store.get().read(tenant, product, fromHour, toHour);
        int step = hourly ? 1 : 24;
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("tenant", tenant);
        data.put("product", product);
        data.put("days", days);
        data.put("from", Instant.ofEpochSecond(fromHour * 3600).toString());
        data.put("to", Instant.ofEpochSecond(toHour * 3600).toString());
        Map<String, Object> totals = figures(figures, fromHour, toHour);
        data.putAll(totals);
        data.put("top_picks", topPicks(figures.picks()));
        data.put(
                "unmatched",
                withoutTypingSteps(figures.unmatched()).stream()
                        .map(span -> Map.<String, Object>of("text", span.text(), "count", span.count()))
                        .toList());
        data.put("unmatched_kept", keepUnmatched);
        data.put("refused_by_code", refusedByCode(figures, fromHour, toHour));
        data.put("granularity", hourly ? "hour" : "day");
        List<Map<String, Object>> series = new ArrayList<>();
        for (long start = fromHour; start < toHour; start += step) {
            Map<String, Object> point = new LinkedHashMap<>();
            point.put("at", Instant.ofEpochSecond(start * 3600).toString());
            point.putAll(figures(figures, Math.max(start, fromHour), Math.min(start + step, toHour)));
            series.add(point);
        }
        data.put("series", series);
        return data;
    }
    /**
     * The unmatched spans without the typing steps of longer ones: a span that another, longer span starts (case
     * aside) and that was typed no more often than it. A client asking at every keystroke leaves {@code bl}, {@code
     * blor} and {@code blorp} for one user typing {@code blorp} (an operator trial); a span typed more often than
     * its extension ({@code qwq} three times, {@code qwqx} once) is listed too. Most counted first, as read.
     */
    static List<AnalyticsStore.Counted> withoutTypingSteps(List<AnalyticsStore.Counted> spans) {
        List<AnalyticsStore.Counted> kept = new ArrayList<>(spans.size());
        for (AnalyticsStore.Counted span : spans) {
            boolean step = false;
            for (AnalyticsStore.Counted longer : spans) {
                if (longer.text().length() > span.text().length()
                        && longer.count() >= span.count()
                        && longer.text()
                                .regionMatches(
                                        true, 0, span.text(), 0, span.text().length())) {
                    step = true;
                    break;
                }
            }
            if (!step) {
                kept.add(span);
            }
        }
        return kept;
    }

    /** The refusals of hours {@code [from, to)} by endpoint, status and code, most first. */
    private static List<Map<String, Object>> refusedByCode(AnalyticsStore.Figures figures, long from, long to) {
        Map<String, Long> counts = new HashMap<>();
        for (long hour = from; hour < to; hour++) {
            for (Map.Entry<String, Long> count :
                    figures.counts().getOrDefault(hour, Map.of()).entrySet()) {
                if (count.getKey().startsWith(REFUSED)) {
                    counts.merge(count.getKey(), count.getValue(), Long::sum);
                }
            }
        }
        return refusalList(counts);
    }

    /** The totals of hours {@code [from, to)}. */
    private static Map<String, Object> figures(AnalyticsStore.Figures figures, long from, long to) {
        long requests = 0;
        long picked = 0;
        long typed = 0;
        long length = 0;
        long fallbacks = 0;
        long refused = 0;
        long[] latency = new long[Latency.BOUNDS_MS.length];
        SessionSketch sessions = new SessionSketch();
        SessionSketch ready = new SessionSketch();
        for (long hour = from; hour < to; hour++) {
            Map<String, Long> counts = figures.counts().getOrDefault(hour, Map.of());
            for (Map.Entry<String, Long> count : counts.entrySet()) {
                long value = count.getValue();
                switch (count.getKey()) {
                    case "requests" -> requests += value;
                    case "picks" -> picked += value;
                    case "typed" -> typed += value;
                    case "length" -> length += value;
                    case "fallbacks" -> fallbacks += value;
                    default -> {
                        if (count.getKey().startsWith(REFUSED)) {
                            refused += value;
                        } else {
                            int bucket = Latency.bucketOf(count.getKey());
                            if (bucket >= 0) {
                                latency[bucket] += value;
                            }
                        }
                    }
                }
            }
            SessionSketch hourSessions = figures.sessions().get(hour);
            if (hourSessions != null) {
                sessions.merge(hourSessions);
            }
            SessionSketch hourReady = figures.readySessions().get(hour);
            if (hourReady != null) {
                ready.merge(hourReady);
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("requests", requests);
        out.put("sessions", sessions.estimate());
        out.put("ready_sessions", ready.estimate());
        out.put("picks", picked);
        // Letters typed for the param before the pick against the picked option's length, summed over the picks.
        out.put("keystroke_saving", length == 0 ? null : Math.round((1 - (double) typed / length) * 1000) / 1000.0);
        out.put("fallbacks", fallbacks);
        out.put("refused", refused);
        out.put("p50_ms", Latency.quantile(latency, 0.50));
        out.put("p99_ms", Latency.quantile(latency, 0.99));
        return out;
    }

    /**
     * The ten most picked options of each param, most picked first. Texts that fold alike are one option: a script may
     * send back an offered option in another case ({@code PARIS}), and each text is a row of the store; they are counted
     * together, shown as the text sent most often (the offered one, unless a script out-picks every user).
     */
    private static List<Map<String, Object>> topPicks(List<AnalyticsStore.Counted> picks) {
        // The store's rows come most picked first: the first text of an option is its display.
        Map<List<String>, PickedOption> byOption = new LinkedHashMap<>();
        for (AnalyticsStore.Counted pick : picks) {
            byOption.computeIfAbsent(
                                    List.of(pick.param(), TextFolding.fold(pick.text())),
                                    option -> new PickedOption(pick.param(), pick.text()))
                            .count +=
                    pick.count();
        }
        List<PickedOption> merged = new ArrayList<>(byOption.values());
        merged.sort((a, b) -> Long.compare(b.count, a.count)); // stable: ties keep the store's order
        Map<String, Integer> perParam = new HashMap<>();
        List<Map<String, Object>> top = new ArrayList<>();
        for (PickedOption option : merged) {
            if (perParam.merge(option.type, 1, Integer::sum) <= 10) {
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("type", option.type);
                entry.put("text", option.text);
                entry.put("count", option.count);
                top.add(entry);
            }
        }
        return top;
    }

    /** One option's picks, its texts summed. */
    private static final class PickedOption {
        final String type;
        final String text;
        long count;

        PickedOption(String type, String text) {
            this.type = type;
            this.text = text;
        }
    }

    private void flushQuietly() {
        try {
            flush();
        } catch (StorageUnavailableException e) {
            LOG.log(System.Logger.Level.DEBUG, "analytics: the store is unavailable; counts wait in memory");
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "analytics: writing counts failed", e);
        }
    }

    private void pruneQuietly() {
        try {
            store.get().prune(clock.instant().getEpochSecond());
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "analytics: prune skipped: " + e.getMessage());
        }
    }

    @Override
    public void close() {
        background.shutdownNow();
        try {
            background.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            flush();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "analytics: counts not written at stop: " + e.getMessage());
        }
        store.close();
    }
}
