package dev.autocomplete.server.analytics;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Distinct session ids, counted approximately in 2 KiB whatever the traffic: a HyperLogLog of 2^11 registers
 * (standard error about 2.3%, and exact in practice for a few dozen sessions, where linear counting applies). Two
 * sketches merge by taking each register's maximum, so replicas that each keep their own sketch of an hour add up to
 * the distinct sessions of them all: a session seen by two replicas counts once. Thread-safe.
 */
final class SessionSketch {

    private static final int BITS = 11;
    private static final int REGISTERS = 1 << BITS;
    /** Below this many set registers a sketch is written as index and value pairs. */
    private static final int SPARSE_LIMIT = 400;

    private final byte[] registers;

    SessionSketch() {
        this.registers = new byte[REGISTERS];
    }

    private SessionSketch(byte[] registers) {
        this.registers = registers;
    }

    /** Adds a session id. */
    synchronized void add(String sessionId) {
        long hash = mix(sessionId);
        int index = (int) (hash >>> (64 - BITS));
        int rank = Long.numberOfLeadingZeros((hash << BITS) | (1L << (BITS - 1))) + 1;
        if (rank > registers[index]) {
            registers[index] = (byte) rank;
        }
    }

    /** Takes the other sketch's sessions into this one. */
    synchronized void merge(SessionSketch other) {
        byte[] theirs = other.copy();
        for (int i = 0; i < REGISTERS; i++) {
            if (theirs[i] > registers[i]) {
                registers[i] = theirs[i];
            }
        }
    }

    private synchronized byte[] copy() {
        return registers.clone();
    }

    /** The estimated number of distinct sessions added. */
    synchronized long estimate() {
        double sum = 0;
        int zeros = 0;
        for (byte register : registers) {
            sum += Math.pow(2, -register);
            if (register == 0) {
                zeros++;
            }
        }
        double alpha = 0.7213 / (1 + 1.079 / REGISTERS);
        double raw = alpha * REGISTERS * REGISTERS / sum;
        if (raw <= 2.5 * REGISTERS && zeros > 0) {
            return Math.round(REGISTERS * Math.log((double) REGISTERS / zeros));
        }
        return Math.round(raw);
    }

    /** The sketch as text for the store: {@code s} and index/value pairs while few registers are set, else all. */
    synchronized String encode() {
        int set = 0;
        for (byte register : registers) {
            if (register != 0) {
                set++;
            }
        }
        if (set > SPARSE_LIMIT) {
            return "d" + Base64.getEncoder().encodeToString(registers);
        }
        ByteArrayOutputStream pairs = new ByteArrayOutputStream(set * 3);
        for (int i = 0; i < REGISTERS; i++) {
            if (registers[i] != 0) {
                pairs.write(i >>> 8);
                pairs.write(i & 0xFF);
                pairs.write(registers[i]);
            }
        }
        return "s" + Base64.getEncoder().encodeToString(pairs.toByteArray());
    }

    /** A sketch read back from {@link #encode}; an unreadable one counts nothing. */
    static SessionSketch decode(String text) {
        byte[] registers = new byte[REGISTERS];
        try {
            byte[] bytes = Base64.getDecoder().decode(text.substring(1));
            if (text.startsWith("d") && bytes.length == REGISTERS) {
                return new SessionSketch(bytes);
            }
            if (text.startsWith("s")) {
                for (int at = 0; at + 2 < bytes.length; at += 3) {
                    int index = ((bytes[at] & 0xFF) << 8) | (bytes[at + 1] & 0xFF);
                    if (index < REGISTERS) {
                        registers[index] = bytes[at + 2];
                    }
                }
            }
        } catch (IllegalArgumentException | StringIndexOutOfBoundsException e) {
            // counts nothing
        }
        return new SessionSketch(registers);
    }

    /** A 64-bit hash of the id: FNV-1a, then a finalizer that spreads its bits (MurmurHash3's fmix64). */
    private static long mix(String id) {
        long hash = 0xcbf29ce484222325L;
        for (byte b : id.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xFF;
            hash *= 0x100000001b3L;
        }
        hash ^= hash >>> 33;
        hash *= 0xff51afd7ed558ccdL;
        hash ^= hash >>> 33;
        hash *= 0xc4ceb93fe1a85ec3L;
        hash ^= hash >>> 33;
        return hash;
    }
}
