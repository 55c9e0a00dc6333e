package dev.autocomplete.server.learning;

import dev.autocomplete.server.memory.Generations;
import dev.autocomplete.server.protocol.Offered;
import java.time.Duration;
import java.util.Arrays;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * What the server offered each session lately: the honest-pick check. A pick is credited only when this session was
 * offered that option within {@link #WINDOW} (so a forged event for an option never shown changes nothing), and each
 * option at most once per session. Bounded: at most {@code maxSessions} sessions, each remembering its last
 * {@link #PER_SESSION} offers as hashes, not texts; a session not seen for {@link #WINDOW} is forgotten.
 *
 * <p>Sessions a client named are kept in {@link Generations} (a session seen again in the older generation moves back
 * to the recent one; the least recently seen go first, half of them at a time): a bounded Caffeine cache's write path
 * (its upkeep and eviction, run per new entry) cost 5 % of a cached answer's CPU. A request without a session id gets
 * one made up for it, and so a new session here, on every answer; most never come back. Those are kept apart, in a
 * table of one slot per id hash where a newer made-up session takes an older one's place ({@link #madeUp}): so
 * requests without a session id, however many, never push the sessions clients named out of this memory, and keeping
 * one costs an array write where a map insert cost 0.8 µs of a cached answer's 32 (half of it the map's size counter,
 * contended by every request thread). A made-up session that its client sends back moves to the generations (within
 * that client's share of new sessions, below).
 *
 * <p>A client can name as many sessions as it likes, though, and one that named thousands a minute pushed every other
 * session out, so that no one's picks counted. So a named session enters the generations only within
 * {@code newPerClientHour} new sessions an hour from its client (counted per address, {@link HourlyCounts}); beyond it,
 * its sessions go to the made-up ones' table, where they take one another's places and nobody else's. Thread-safe.
 */
final class ShownOptions {

    /** How long an offer counts for a pick. */
    static final Duration WINDOW = Duration.ofMinutes(10);
    /** Offers remembered per session: a few answers' worth of options. */
    static final int PER_SESSION = 48;
    /** Options credited per session at most (a session picks a handful). */
    static final int CREDITS_PER_SESSION = 32;
    /** Distinct param types remembered per session. */
    private static final int TYPES_PER_SESSION = 16;
    /** Offer times are kept as seconds after this instant (2024-01-01). */
    private static final long BASE = 1_704_067_200L;

    private static final long WINDOW_NANOS = WINDOW.toNanos();

    /** The sessions clients named, and the made-up ones that came back, in two generations. */
    private final Generations<String, Session> sessions;

    /**
     * The sessions made up for answers, by the hash of their (scoped) id: a quarter of {@code maxSessions}, rounded
     * down to a power of two. Racy by design: an entry is immutable, so a reader sees a whole entry, an older one or
     * none.
     */
    private final MadeUp[] madeUp;

    private record MadeUp(String id, Session session) {}

    /** New named sessions per client in the current hour. */
    private final HourlyCounts newPerClient = new HourlyCounts();

    private final int newPerClientHour;

    /**
     * @param maxSessions sessions remembered at most, made up or named
     * @param newPerClientHour new named sessions an hour one client may put in the generations
     */
    ShownOptions(int maxSessions, int newPerClientHour) {
        this.madeUp = new MadeUp[Integer.highestOneBit(Math.max(1, maxSessions / 4))];
        this.sessions = new Generations<>(Math.max(1, (maxSessions - madeUp.length) / 2), 0);
        this.newPerClientHour = newPerClientHour;
    }

    /**
     * Notes what one answer offered the session, at {@code nowSeconds}.
     *
     * @param client the client's address, asked only when the session is not in the generations
     */
    void record(String sessionId, Offered offered, long nowSeconds, Supplier<String> client) {
        if (sessionId == null || offered.isEmpty()) {
            return;
        }
        long now = System.nanoTime();
        Session session = sessions.get(sessionId);
        if (session == null || session.expired(now)) {
            session = admit(sessionId, now, nowSeconds, client);
        }
        session.seen = now;
        session.record(offered, nowSeconds);
    }

    /**
     * The session for a named id that is not in the generations (new, made up and sent back, or expired): put in the
     * generations when its client is within its hourly share of new sessions, else kept in the made-up ones' table.
     */
    private Session admit(String sessionId, long now, long nowSeconds, Supplier<String> client) {
        int slot = slot(sessionId);
        MadeUp kept = kept(sessionId, now);
        Session session = kept == null ? new Session(now) : kept.session();
        if (!newPerClient.add(client.get(), newPerClientHour, nowSeconds)) {
            if (kept == null) {
                madeUp[slot] = new MadeUp(sessionId, session);
            }
            return session;
        }
        Session raced = sessions.putIfAbsent(sessionId, session);
        if (raced != null && !raced.expired(now)) {
            session = raced;
        } else if (raced != null) {
            sessions.put(sessionId, session); // the one kept had expired
        }
        if (kept != null && madeUp[slot] == kept) {
            madeUp[slot] = null;
        }
        return session;
    }

    /**
     * Notes what one answer offered a session the server has just made up for it (the request had no session id):
     * no session can have that id yet, so none is looked for (a request without one pays no lookup of its own).
     */
    void recordNew(String sessionId, Offered offered, long nowSeconds) {
        if (offered.isEmpty()) {
            return;
        }
        madeUp[slot(sessionId)] = new MadeUp(sessionId, new Session(System.nanoTime(), offered, nowSeconds));
    }

    private int slot(String sessionId) {
        int hash = sessionId.hashCode();
        return (hash ^ hash >>> 16) & (madeUp.length - 1);
    }

    /**
     * The session remembered for {@code sessionId}, marked seen at {@code now}; null when none is, or it was not seen
     * for {@link #WINDOW}.
     */
    private Session find(String sessionId, long now) {
        Session session = sessions.get(sessionId);
        if (session == null) {
            MadeUp kept = kept(sessionId, now);
            session = kept == null ? null : kept.session(); // read where it is: only an answer moves it
        }
        if (session == null || session.expired(now)) {
            return null;
        }
        session.seen = now;
        return session;
    }

    /** The session the made-up ones' table keeps for {@code sessionId}, unexpired; null when it keeps none. */
    private MadeUp kept(String sessionId, long now) {
        MadeUp kept = madeUp[slot(sessionId)];
        return kept == null || !kept.id().equals(sessionId) || kept.session().expired(now) ? null : kept;
    }

    /**
     * The param type a pick of the option whose folded text hashes to {@code option} credits, or null when the
     * session was not offered it lately: among the types that offered it and are not filled yet ({@code filled},
     * the types of the placeholders in the event's query), the one most recently offered as the active param, else
     * the one most recently offered at all.
     */
    String attribute(String sessionId, long option, Predicate<String> filled, long nowSeconds) {
        Session session = find(sessionId, System.nanoTime());
        return session == null ? null : session.attribute(option, filled, nowSeconds - WINDOW.toSeconds());
    }

    /** Whether the session was offered a suggestion of {@code type} lately (a pill). */
    boolean offeredType(String sessionId, String type, long nowSeconds) {
        Session session = find(sessionId, System.nanoTime());
        return session != null && session.offeredType(type, nowSeconds - WINDOW.toSeconds());
    }

    /** Marks a credit for the session; false when this option of this type was credited in it already. */
    boolean creditOnce(String sessionId, String type, long option) {
        Session session = find(sessionId, System.nanoTime());
        return session != null && session.creditOnce(type, option);
    }

    /** Sessions remembered: named ones (some perhaps expired, until their generation goes) and made-up ones. */
    long size() {
        long now = System.nanoTime();
        long count = sessions.size();
        for (MadeUp kept : madeUp) {
            if (kept != null && !kept.session().expired(now)) {
                count++;
            }
        }
        return count;
    }

    /**
     * One session's recent offers: parallel arrays used as a ring once {@link #PER_SESSION} long (they start
     * shorter: most sessions see one or two answers). A session the server made up for an answer keeps that answer's
     * {@link Offered} (shared with the cached answer) until it is asked anything: many such sessions never come back,
     * and filling the arrays for each cost 2 % of a cached answer's CPU.
     */
    private static final class Session {
        private String[] types;
        private int typeCount;
        private long[] options;
        private byte[] typeOf;
        private boolean[] first;
        /** Seconds since {@link #BASE}: four bytes an offer. */
        private int[] at;
        /** When the session was last seen, in {@link System#nanoTime()}. */
        volatile long seen;
        /** The first answer's offers, not yet in the arrays (then null), and when they were offered. */
        private Offered pending;

        private long pendingAt;

        private static final int INITIAL = 16;

        Session(long now) {
            this.seen = now;
            allocate();
        }

        /** A new session that was offered {@code offered} at {@code nowSeconds}, kept as is until asked. */
        Session(long now, Offered offered, long nowSeconds) {
            this.seen = now;
            this.pending = offered;
            this.pendingAt = nowSeconds;
        }

        private void allocate() {
            types = new String[4];
            options = new long[INITIAL];
            typeOf = new byte[INITIAL];
            first = new boolean[INITIAL];
            at = new int[INITIAL];
        }

        /** Puts the first answer's offers into the arrays, before anything reads or adds to them. */
        private void settle() {
            if (options == null) {
                allocate();
                Offered offered = pending;
                pending = null;
                record(offered, pendingAt);
            }
        }

        boolean expired(long now) {
            return now - seen > WINDOW_NANOS;
        }

        private int size;
        private int next;
        private long[] credited;
        private int creditedCount;

        synchronized void record(Offered offered, long now) {
            settle();
            for (Offered.Offer offer : offered.offers()) {
                int type = typeIndex(offer.type());
                if (type < 0) {
                    continue;
                }
                put(type, Offered.hash(""), offer.first(), now); // the suggestion itself, for pill picks
                for (long option : offer.options()) {
                    put(type, option, offer.first(), now);
                }
            }
        }

        private void put(int type, long option, boolean isFirst, long now) {
            for (int i = 0; i < size; i++) {
                if (options[i] == option && typeOf[i] == type) {
                    at[i] = (int) (now - BASE);
                    first[i] |= isFirst;
                    return;
                }
            }
            int slot;
            if (size < PER_SESSION) {
                if (size == options.length) {
                    int length = Math.min(PER_SESSION, size * 2);
                    options = Arrays.copyOf(options, length);
                    typeOf = Arrays.copyOf(typeOf, length);
                    first = Arrays.copyOf(first, length);
                    at = Arrays.copyOf(at, length);
                }
                slot = size++;
            } else {
                slot = next; // full: the oldest offer makes room
                next = (next + 1) % PER_SESSION;
            }
            options[slot] = option;
            typeOf[slot] = (byte) type;
            first[slot] = isFirst;
            at[slot] = (int) (now - BASE);
        }

        private int typeIndex(String type) {
            for (int i = 0; i < typeCount; i++) {
                if (types[i].equals(type)) {
                    return i;
                }
            }
            if (typeCount == TYPES_PER_SESSION) {
                return -1;
            }
            if (typeCount == types.length) {
                types = Arrays.copyOf(types, Math.min(TYPES_PER_SESSION, typeCount * 2));
            }
            types[typeCount] = type;
            return typeCount++;
        }

        synchronized String attribute(long option, Predicate<String> filled, long sinceSeconds) {
            settle();
            int since = (int) (sinceSeconds - BASE);
            int bestActive = -1;
            int bestAny = -1;
            for (int i = 0; i < size; i++) {
                if (options[i] != option || at[i] < since || filled.test(types[typeOf[i]])) {
                    continue;
                }
                if (first[i] && (bestActive < 0 || at[i] > at[bestActive])) {
                    bestActive = i;
                }
                if (bestAny < 0 || at[i] > at[bestAny]) {
                    bestAny = i;
                }
            }
            int best = bestActive >= 0 ? bestActive : bestAny;
            return best < 0 ? null : types[typeOf[best]];
        }

        synchronized boolean offeredType(String type, long sinceSeconds) {
            settle();
            int since = (int) (sinceSeconds - BASE);
            long suggestion = Offered.hash("");
            for (int i = 0; i < size; i++) {
                if (options[i] == suggestion && at[i] >= since && types[typeOf[i]].equals(type)) {
                    return true;
                }
            }
            return false;
        }

        synchronized boolean creditOnce(String type, long option) {
            settle();
            long key = option * 31 + type.hashCode();
            for (int i = 0; i < creditedCount; i++) {
                if (credited[i] == key) {
                    return false;
                }
            }
            if (creditedCount == CREDITS_PER_SESSION) {
                return false;
            }
            if (credited == null) {
                credited = new long[4];
            } else if (creditedCount == credited.length) {
                credited = Arrays.copyOf(credited, credited.length * 2);
            }
            credited[creditedCount++] = key;
            return true;
        }
    }
}
