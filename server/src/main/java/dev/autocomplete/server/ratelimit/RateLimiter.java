package dev.autocomplete.server.ratelimit;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.EstimationProbe;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.distributed.serialization.Mapper;
import io.github.bucket4j.redis.jedis.Bucket4jJedis;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.JedisPoolConfig;

/**
 * Token buckets by name (Bucket4j). Without Redis they live in this process. With Redis they live there,
 * through Bucket4j's Jedis integration, so every replica shares them; when Redis cannot be reached the limiter
 * falls back to per-process buckets, logs it, reports it in {@link #status()}, and goes back to Redis as soon
 * as a ping succeeds again (checked every second).
 */
public final class RateLimiter implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(RateLimiter.class.getName());
    private static final String KEY_PREFIX = "autocomplete:rate:";
    private static final int REDIS_TIMEOUT_MILLIS = 500;
    private static final long SWEEP_SECONDS = 60;

    /** A local bucket's key: the limit is part of it, so a key whose rate changes gets a fresh bucket. */
    private record LocalKey(String name, long perSecond, long burst) {
        // Written out: a record's own equals and hashCode run through method handles that the JIT left uninlined on
        // this path, which looks the key up on every request (about 1 % of a cached answer's CPU in all).
        @Override
        public boolean equals(Object other) {
            return other instanceof LocalKey that
                    && perSecond == that.perSecond
                    && burst == that.burst
                    && name.equals(that.name);
        }

        @Override
        public int hashCode() {
            return (31 * name.hashCode() + Long.hashCode(perSecond)) * 31 + Long.hashCode(burst);
        }
    }

    private final Map<LocalKey, Bucket> local = new ConcurrentHashMap<>();
    private final ScheduledExecutorService background;
    private final JedisPool pool;
    private final ProxyManager<String> shared;
    private final String redisAddress;
    private volatile RateLimitStatus status;

    private RateLimiter(JedisPool pool, String redisAddress) {
        this.pool = pool;
        this.redisAddress = redisAddress;
        this.shared = pool == null
                ? null
                : Bucket4jJedis.casBasedBuilder(pool)
                        .keyMapper(Mapper.STRING)
                        .expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(
                                Duration.ofSeconds(60)))
                        .build();
        this.background = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("rate-limits").factory());
        background.scheduleWithFixedDelay(this::sweep, SWEEP_SECONDS, SWEEP_SECONDS, TimeUnit.SECONDS);
        if (pool == null) {
            status = new RateLimitStatus("local", null, Instant.now());
        } else {
            status = new RateLimitStatus("redis", redisAddress, Instant.now());
            if (!ping()) {
                fallBack("no answer at start");
            } else {
                LOG.log(System.Logger.Level.INFO, "Rate limits: " + status.describe() + ".");
            }
            background.scheduleWithFixedDelay(this::watchRedis, 1, 1, TimeUnit.SECONDS);
        }
    }

    /** Per-process buckets only. */
    public static RateLimiter local() {
        return new RateLimiter(null, null);
    }

    /** Buckets in the Redis at {@code redis://host:port} (a password in the URI is used, never logged). */
    public static RateLimiter redis(URI uri) {
        if (uri.getScheme() == null
                || !(uri.getScheme().equals("redis") || uri.getScheme().equals("rediss"))
                || uri.getHost() == null) {
            throw new IllegalArgumentException("--redis must look like redis://host:port");
        }
        JedisPoolConfig config = new JedisPoolConfig();
        config.setMaxTotal(64);
        config.setMaxWait(Duration.ofMillis(REDIS_TIMEOUT_MILLIS));
        config.setJmxEnabled(false);
        JedisPool pool = new JedisPool(config, uri, REDIS_TIMEOUT_MILLIS, REDIS_TIMEOUT_MILLIS);
        int port = uri.getPort() < 0 ? 6379 : uri.getPort();
        return new RateLimiter(pool, uri.getHost() + ":" + port);
    }

    /** Where the buckets are kept now. */
    public RateLimitStatus status() {
        return status;
    }

    /** Takes one request from the named bucket. */
    public RateDecision tryConsume(String name, RateLimit limit) {
        return decision(limit, onBucket(name, limit, bucket -> bucket.tryConsumeAndReturnRemaining(1)));
    }

    /**
     * Takes {@code requests} more from the named bucket whether or not it holds them: a request that cost as much as
     * that many. A bucket taken below empty refuses the next requests until its refill has paid the debt.
     */
    public void charge(String name, RateLimit limit, long requests) {
        if (requests > 0) {
            onBucket(name, limit, bucket -> bucket.consumeIgnoringRateLimits(requests));
        }
    }

    /** Whether the named bucket has a request left, without taking it (nor making a local bucket). */
    public RateDecision peek(String name, RateLimit limit) {
        if (shared == null || status.degraded()) {
            Bucket bucket = local.get(new LocalKey(name, limit.perSecond(), limit.burst()));
            return bucket == null
                    ? new RateDecision(true, limit, limit.burst(), 0, 0)
                    : estimate(limit, bucket.estimateAbilityToConsume(1));
        }
        return estimate(limit, onBucket(name, limit, bucket -> bucket.estimateAbilityToConsume(1)));
    }

    /** Runs a bucket operation in Redis while it answers, else on this process's bucket of the same name. */
    private <T> T onBucket(String name, RateLimit limit, Function<Bucket, T> operation) {
        if (shared != null && !status.degraded()) {
            try {
                return operation.apply(
                        shared.builder().build(KEY_PREFIX + keyOf(name, limit), () -> configuration(limit)));
            } catch (RuntimeException e) {
                fallBack(e.getClass().getSimpleName());
            }
        }
        return operation.apply(localBucket(name, limit));
    }

    private Bucket localBucket(String name, RateLimit limit) {
        return local.computeIfAbsent(
                new LocalKey(name, limit.perSecond(), limit.burst()),
                k -> Bucket.builder().addLimit(bandwidth(limit)).build());
    }

    /** The limit is part of the key, so a key whose rate changes gets a fresh bucket with the new rate. */
    private static String keyOf(String name, RateLimit limit) {
        return name + ":" + limit.perSecond() + ":" + limit.burst();
    }

    private static BucketConfiguration configuration(RateLimit limit) {
        return BucketConfiguration.builder().addLimit(bandwidth(limit)).build();
    }

    private static Bandwidth bandwidth(RateLimit limit) {
        return Bandwidth.builder()
                .capacity(limit.burst())
                .refillGreedy(limit.perSecond(), Duration.ofSeconds(1))
                .build();
    }

    private static RateDecision decision(RateLimit limit, ConsumptionProbe probe) {
        return new RateDecision(
                probe.isConsumed(),
                limit,
                probe.getRemainingTokens(),
                probe.isConsumed() ? 0 : Math.max(1, RateDecision.seconds(probe.getNanosToWaitForRefill())),
                RateDecision.seconds(probe.getNanosToWaitForReset()));
    }

    private static RateDecision estimate(RateLimit limit, EstimationProbe probe) {
        long missing = limit.burst() - probe.getRemainingTokens();
        long resetNanos = missing <= 0 ? 0 : missing * 1_000_000_000L / limit.perSecond();
        return new RateDecision(
                probe.canBeConsumed(),
                limit,
                probe.getRemainingTokens(),
                probe.canBeConsumed() ? 0 : Math.max(1, RateDecision.seconds(probe.getNanosToWaitForRefill())),
                RateDecision.seconds(resetNanos));
    }

    private synchronized void fallBack(String reason) {
        if (!status.degraded()) {
            status = new RateLimitStatus("local-fallback", redisAddress, Instant.now());
            LOG.log(System.Logger.Level.WARNING, "Rate limits: " + status.describe() + " (" + reason + ").");
        }
    }

    private void watchRedis() {
        if (status.degraded() && ping()) {
            synchronized (this) {
                status = new RateLimitStatus("redis", redisAddress, Instant.now());
            }
            LOG.log(
                    System.Logger.Level.INFO,
                    "Rate limits: Redis at " + redisAddress + " is reachable again; " + status.describe() + ".");
        }
    }

    private boolean ping() {
        try (Jedis jedis = pool.getResource()) {
            return "PONG".equals(jedis.ping());
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Forgets local buckets that are full again, so buckets of one-off client addresses do not pile up. */
    private void sweep() {
        local.entrySet()
                .removeIf(entry ->
                        entry.getValue().getAvailableTokens() >= entry.getKey().burst());
    }

    @Override
    public void close() {
        background.shutdownNow();
        if (pool != null) {
            pool.close();
        }
    }
}
