package dev.autocomplete.server.learning;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.autocomplete.server.protocol.Offered;
import java.time.Duration;
import java.util.function.Predicate;

/**
 * What the server offered each session lately: the honest-pick check. A pick is credited only when this session was
 * offered that option within {@link #WINDOW} (so a forged event for an option never shown changes nothing), and each
 * option at most once per session. Bounded: at most {@code maxSessions} sessions (the least recently seen go first),
 * each remembering its last {@link #PER_SESSION} offers as hashes, not texts. Thread-safe.
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

    private final Cache<String, Session> sessions;

    ShownOptions(int maxSessions) {
        this.sessions = Caffeine.newBuilder()
                .executor(Runnable::run)
                .maximumSize(maxSessions)
                .expireAfterAccess(WINDOW)
                .build();
    }

    /** Notes what one answer offered the session, at {@code nowSeconds}. */
    void record(String sessionId, Offered offered, long nowSeconds) {
        if (sessionId == null || offered.offers().isEmpty()) {
            return;
        }
        sessions.get(sessionId, id -> new Session()).record(offered, nowSeconds);
    }

    /**
     * The param type a pick of the option whose folded text hashes to {@code option} credits, or null when the
     * session was not offered it lately: among the types that offered it and are not filled yet ({@code filled},
     * the types of the placeholders in the event's query), the one most recently offered as the active param, else
     * the one most recently offered at all.
     */
    String attribute(String sessionId, long option, Predicate<String> filled, long nowSeconds) {
        Session session = sessions.getIfPresent(sessionId);
        return session == null ? null : session.attribute(option, filled, nowSeconds - WINDOW.toSeconds());
    }

    /** Whether the session was offered a suggestion of {@code type} lately (a pill). */
    boolean offeredType(String sessionId, String type, long nowSeconds) {
        Session session = sessions.getIfPresent(sessionId);
        return session != null && session.offeredType(type, nowSeconds - WINDOW.toSeconds());
    }

    /** Marks a credit for the session; false when this option of this type was credited in it already. */
    boolean creditOnce(String sessionId, String type, long option) {
        Session session = sessions.getIfPresent(sessionId);
        return session != null && session.creditOnce(type, option);
    }

    long size() {
        return sessions.estimatedSize();
    }

    /** One session's recent offers: parallel arrays used as a ring. */
    private static final class Session {
        private final String[] types = new String[TYPES_PER_SESSION];
        private int typeCount;
        private final long[] options = new long[PER_SESSION];
        private final byte[] typeOf = new byte[PER_SESSION];
        private final boolean[] first = new boolean[PER_SESSION];
        /** Seconds since {@link #BASE}: four bytes an offer. */
        private final int[] at = new int[PER_SESSION];

        private int size;
        private int next;
        private long[] credited = new long[4];
        private int creditedCount;

        synchronized void record(Offered offered, long now) {
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
            options[next] = option;
            typeOf[next] = (byte) type;
            first[next] = isFirst;
            at[next] = (int) (now - BASE);
            next = (next + 1) % PER_SESSION;
            size = Math.min(size + 1, PER_SESSION);
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
            types[typeCount] = type;
            return typeCount++;
        }

        synchronized String attribute(long option, Predicate<String> filled, long sinceSeconds) {
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
            long key = option * 31 + type.hashCode();
            for (int i = 0; i < creditedCount; i++) {
                if (credited[i] == key) {
                    return false;
                }
            }
            if (creditedCount == CREDITS_PER_SESSION) {
                return false;
            }
            if (creditedCount == credited.length) {
                credited = java.util.Arrays.copyOf(credited, credited.length * 2);
            }
            credited[creditedCount++] = key;
            return true;
        }
    }
}
