package dev.autocomplete.server.suggest;

import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Session ids minted for requests that bring none: random UUIDs of version 4, as unguessable as
 * {@link UUID#randomUUID()} (the same {@link SecureRandom}), but drawn 256 at a time: one call per id cost
 * about 2% of a cached answer's CPU.
 */
final class SessionIds {

    private static final int BATCH = 256;

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final ReentrantLock LOCK = new ReentrantLock();
    private static final ByteBuffer BATCH_BYTES =
            ByteBuffer.allocate(16 * BATCH).position(16 * BATCH);

    private SessionIds() {}

    static String next() {
        long high;
        long low;
        LOCK.lock();
        try {
            if (!BATCH_BYTES.hasRemaining()) {
                RANDOM.nextBytes(BATCH_BYTES.array());
                BATCH_BYTES.clear();
            }
            high = BATCH_BYTES.getLong();
            low = BATCH_BYTES.getLong();
        } finally {
            LOCK.unlock();
        }
        high = (high & ~0xF000L) | 0x4000L; // version 4
        low = (low & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L; // IETF variant
        return new UUID(high, low).toString();
    }
}
