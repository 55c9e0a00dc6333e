package dev.autocomplete.server.learning;

import com.fasterxml.jackson.databind.JsonNode;
import dev.autocomplete.server.config.LearningSettings;
import dev.autocomplete.server.protocol.Offered;
import dev.autocomplete.server.protocol.Placeholders;
import dev.autocomplete.server.protocol.SuggestRequestReader;
import dev.autocomplete.server.protocol.Uuids;
import dev.autocomplete.server.reading.Priors;
import dev.autocomplete.server.store.LazyStore;
import dev.autocomplete.server.store.StorageUnavailableException;
import dev.autocomplete.spi.toolkit.TextFolding;
import java.text.Normalizer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The service learns from its users (docs/protocol.md §6): the official client's pick events are attributed to the
 * param they filled, checked against what the server itself offered that session ({@link ShownOptions}), capped per
 * client address and key, marked ranked when the address had not had the option credited today ({@link DailyFirsts}),
 * and queued; a background thread writes them to the store in batches, and every
 * {@link LearningSettings#applyInterval()} each replica reads what changed and swaps the products' {@link Priors}.
 * A pick never waits for the store: under a flood, picks are dropped and counted. Thread-safe.
 */
public final class Learning implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Learning.class.getName());
    /** The longest option text credited; longer ones are not options this server offers. */
    private static final int MAX_OPTION_CHARS = 500;

    private static final long FLUSH_MILLIS = 1_000;

    /** What came of one event, for the metrics. */
    public enum Outcome {
        /** Credited: written to the store within a second or two. */
        CREDITED("credited"),
        /** A pill pick, checked and counted (analytics), not ranked by. */
        PILL("pill"),
        /** The session was not offered that option lately: changes nothing. */
        NOT_OFFERED("not_offered"),
        /** This session's pick of this option was credited already. */
        REPEATED("repeated"),
        /** The client address or the key has been credited its hourly share. */
        CAPPED("capped"),
        /**
         * An honest pick of an option the client's address had credited already today: counted (analytics), not ranked
         * by, so that an option's ranking counts clients rather than one client's repeats.
         */
        NOT_RANKED("not_ranked"),
        /**
         * An honest pick of a param whose options are values of the moment (the date engine's, {@code learn: false}
         * on the param): counted (analytics), never ranked by.
         */
        NOT_LEARNED("not_learned"),
        /** The queue was full: dropped. */
        DROPPED("dropped"),
        /** An option or pill event whose fields are not the official client's (docs/protocol.md §6.1): no pick. */
        MALFORMED("malformed"),
        /** Not a pick event the official client sends. */
        IGNORED("ignored"),
        /** Learning is off for the tenant, or the store is not set up. */
        OFF("off");

        private final String label;

        Outcome(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /** Which product an event or answer belongs to. */
    public record ProductRef(String tenant, String product) {
        public ProductRef {
            Objects.requireNonNull(tenant, "tenant");
            Objects.requireNonNull(product, "product");
        }

        // Written out: a record's own equals and hashCode run through method handles that the JIT left uninlined on
        // this path, which looks the key up on every request (about 1 % of a cached answer's CPU in all).
        @Override
        public boolean equals(Object other) {
            return other instanceof ProductRef that && tenant.equals(that.tenant) && product.equals(that.product);
        }

        @Override
        public int hashCode() {
            return 31 * tenant.hashCode() + product.hashCode();
        }
    }

    private final LearningSettings settings;
    private final Clock clock;
    private final LazyStore<LearningStore> store;
    private final ShownOptions shown;
    private final BlockingQueue<Pick> queue;
    private final Map<ProductRef, LearnedPriors> priors = new ConcurrentHashMap<>();
    private final Map<ProductRef, Long> versions = new ConcurrentHashMap<>();
    private final AtomicLong generations = new AtomicLong();
    private final HourlyCounts perAddress = new HourlyCounts();
    private final HourlyCounts perKey = new HourlyCounts();
    private final DailyFirsts perAddressOption;
    private final List<Consumer<List<Pick>>> listeners = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService background;

    /**
     * @param connect opens the store; called again at each flush while it fails (PostgreSQL away at start)
     */
    public Learning(Supplier<LearningStore> connect, LearningSettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
        this.store = new LazyStore<>(connect);
        this.shown = new ShownOptions(settings.sessions(), settings.sessionsPerAddressHour());
        this.perAddressOption = new DailyFirsts(settings.picksPerAddressOptionDay());
        this.queue = new ArrayBlockingQueue<>(settings.queue());
        this.background = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("learning").factory());
        background.scheduleWithFixedDelay(this::flushQuietly, FLUSH_MILLIS, FLUSH_MILLIS, TimeUnit.MILLISECONDS);
        long apply = settings.applyInterval().toMillis();
        background.scheduleWithFixedDelay(this::applyQuietly, 0, apply, TimeUnit.MILLISECONDS);
        background.scheduleWithFixedDelay(this::rebaseQuietly, 1, 60, TimeUnit.MINUTES);
    }

    /** Calls {@code listener} with every batch of honest picks, on the learning thread (analytics). */
    public void onPicks(Consumer<List<Pick>> listener) {
        listeners.add(listener);
    }

    /** The product's learned priors, as last applied; {@link Priors#NONE} before it learned anything. */
    public Priors priors(String tenant, String product) {
        Priors learned = priors.get(new ProductRef(tenant, product));
        return learned == null ? Priors.NONE : learned;
    }

    /**
     * Notes what an answer of the product offered the session: what its picks may be credited to.
     *
     * @param client the client's address as the per-client limits count it, asked only when the session is new
     */
    public void offered(ProductRef product, String sessionId, Offered offered, Supplier<String> client) {
        shown.record(scoped(product, sessionId), offered, clock.millis() / 1000, client);
    }

    /** As {@link #offered}, for a session id the server has just generated for the answer. */
    public void offeredToNewSession(ProductRef product, String sessionId, Offered offered) {
        shown.recordNew(scoped(product, sessionId), offered, clock.millis() / 1000);
    }

    /**
     * A session as the honest-pick memory knows it: within one product. A session id is the client's to choose, so
     * one offered Paris by a tenant's travel product must not make a pick of Paris honest for another product.
     */
    private static String scoped(ProductRef product, String sessionId) {
        return product.tenant() + '\u0000' + product.product() + '\u0000' + sessionId;
    }

    /**
     * Takes one telemetry event of a product (the gate passed it already): attributes, checks and queues a pick.
     *
     * @param learns whether the tenant learns ({@code learn} in tenant.yaml)
     * @param keyId the credential's key id, for the hourly cap
     * @param address the client address, for the hourly cap
     * @param typeOfLabel the param type a suggestion's label names, or null (pill events name the label)
     * @param ranksBy whether picks of a param type re-rank its options: not those of params whose options are values
     *     of the moment (the date engine's), whose honest picks are counted for analytics only
     */
    public Outcome event(
            ProductRef product,
            boolean learns,
            String keyId,
            String address,
            JsonNode event,
            Function<String, String> typeOfLabel,
            Predicate<String> ranksBy) {
        String kind = event.path("type").asText("");
        if (!kind.equals("option") && !kind.equals("pill")) {
            return Outcome.IGNORED;
        }
        String sessionId = event.path("session_id").asText("");
        String session = scoped(product, sessionId);
        JsonNode data = event.path("query_data");
        JsonNode rawQueryField = data.path("raw_query");
        JsonNode selectedField = data.path(kind.equals("option") ? "selected_option" : "selected_pill");
        // The official client sends strings: an object, a number or a blank text is another client's mistake, counted
        // as such so that whoever wrote it can see it in the metrics.
        if (!Uuids.isUuid(sessionId)
                || !rawQueryField.isTextual()
                || tooLong(rawQueryField.asText())
                || !selectedField.isTextual()
                || selectedField.asText().isBlank()
                || selectedField.asText().length() > MAX_OPTION_CHARS) {
            return Outcome.MALFORMED;
        }
        String rawQuery = rawQueryField.asText();
        String selected = selectedField.asText();
        if (!learns) {
            return Outcome.OFF;
        }
        long now = clock.instant().getEpochSecond();
        Pick pick;
        if (kind.equals("pill")) {
            String type = typeOfLabel.apply(selected);
            if (type == null || !shown.offeredType(session, type, now)) {
                return Outcome.NOT_OFFERED;
            }
            if (!shown.creditOnce(session, type, Offered.hash(""))) {
                return Outcome.REPEATED;
            }
            if (!withinHourlyShares(address, keyId, now)) {
                return Outcome.CAPPED;
            }
            pick = new Pick(product.tenant(), product.product(), type, "", "", 0, 0, now);
        } else {
            String folded = TextFolding.fold(selected);
            if (folded.isEmpty()) {
                // Punctuation alone ('!!!'): no option folds to nothing, and the empty hash is the suggestion's own
                // mark, which a pill pick checks.
                return Outcome.MALFORMED;
            }
            long hash = Offered.hash(folded);
            String type = shown.attribute(session, hash, filledIn(rawQuery), now);
            if (type == null) {
                return Outcome.NOT_OFFERED;
            }
            // Once per option, whichever param it filled: an option offered as origin and as destination is one.
            if (!shown.creditOnce(session, "", hash)) {
                return Outcome.REPEATED;
            }
            String typed = TypedTail.of(rawQuery, selected);
            if (!withinHourlyShares(address, keyId, now)) {
                return Outcome.CAPPED;
            }
            boolean learned = ranksBy.test(type);
            boolean ranked = learned && perAddressOption.take(address, product, folded, now);
            pick = new Pick(
                    product.tenant(),
                    product.product(),
                    type,
                    folded,
                    TypedTail.prefix(typed),
                    typed.length(),
                    selected.length(),
                    now,
                    display(selected, folded),
                    ranked);
        }
        if (!queue.offer(pick)) {
            return Outcome.DROPPED;
        }
        if (pick.pill()) {
            return Outcome.PILL;
        }
        return pick.ranked() ? Outcome.CREDITED : ranksBy.test(pick.type()) ? Outcome.NOT_RANKED : Outcome.NOT_LEARNED;
    }

    /** Counts a pick against the client address's and the key's hourly shares; whether both had room for it. */
    private boolean withinHourlyShares(String address, String keyId, long now) {
        return perAddress.add(address, settings.picksPerAddressHour(), now)
                && perKey.add(keyId, settings.picksPerKeyHour(), now);
    }

    /**
     * Whether a {@code raw_query} is longer than a suggest request may send: no client was offered anything for it,
     * and reading it would cost what the suggest endpoint refuses to spend.
     */
    private static boolean tooLong(String rawQuery) {
        return rawQuery.length() > SuggestRequestReader.MAX_QUERY_CHARACTERS
                && rawQuery.codePointCount(0, rawQuery.length()) > SuggestRequestReader.MAX_QUERY_CHARACTERS;
    }

    /**
     * The picked text as analytics shows it: the client's own when it is plain text of about the option's length, as
     * options are offered; else the folded text. The official client sends back the text it was offered, but any
     * script may send a text that only folds to it: control and format characters (a NUL, which PostgreSQL refuses,
     * a bidi override, a zero-width space), compatibility forms (fullwidth or mathematical letters), or the option
     * wrapped in punctuation (a text that starts with none of a letter or a digit).
     */
    static String display(String selected, String folded) {
        String text = selected.strip();
        if (text.length() > 2 * folded.length() + 8
                || !Normalizer.isNormalized(text, Normalizer.Form.NFKC)
                || text.isEmpty()
                || !Character.isLetterOrDigit(text.codePointAt(0))) {
            // No option is offered starting with punctuation: '***Paris***' is decoration a script chose.
            return folded;
        }
        for (int i = 0; i < text.length(); ) {
            int point = text.codePointAt(i);
            switch (Character.getType(point)) {
                case Character.CONTROL,
                        Character.FORMAT,
                        Character.SURROGATE,
                        Character.PRIVATE_USE,
                        Character.UNASSIGNED,
                        Character.LINE_SEPARATOR,
                        Character.PARAGRAPH_SEPARATOR -> {
                    return folded;
                }
                default -> i += Character.charCount(point);
            }
        }
        return text;
    }

    /**
     * Whether a param type is filled by a placeholder of the event's query: the query carries the types' minted
     * names ({@code {{DESTINATION_1}}}), the session memory the types.
     */
    private static Predicate<String> filledIn(String rawQuery) {
        Set<String> names = new HashSet<>();
        for (Placeholders.Token token : Placeholders.find(rawQuery)) {
            names.add(token.name());
        }
        return type -> names.contains(Placeholders.mintedName(type));
    }

    /** Picks waiting to be written. */
    public int queued() {
        return queue.size();
    }

    /** Sessions whose offers are remembered. */
    public long sessions() {
        return shown.size();
    }

    /** Writes the queued picks now (tests, and before stopping). */
    public void flush() {
        List<Pick> batch = new ArrayList<>();
        queue.drainTo(batch);
        if (batch.isEmpty()) {
            return;
        }
        LearningStore reached = store.get();
        try {
            reached.add(batch);
        } catch (StorageUnavailableException e) {
            // Kept for the next flush while there is room; picks beyond it are dropped, as under a flood.
            for (Pick pick : batch) {
                if (!queue.offer(pick)) {
                    break;
                }
            }
            throw e;
        }
        listeners.forEach(listener -> listener.accept(List.copyOf(batch)));
    }

    /** Reads what changed in the store and applies it: every product whose version moved gets new priors. */
    public void apply() {
        LearningStore reached = store.get();
        Map<List<String>, Long> stored = reached.versions();
        for (Map.Entry<List<String>, Long> entry : stored.entrySet()) {
            ProductRef ref =
                    new ProductRef(entry.getKey().get(0), entry.getKey().get(1));
            if (entry.getValue().equals(versions.get(ref))) {
                continue;
            }
            LearningStore.Credits credits = reached.credits(ref.tenant(), ref.product());
            long now = clock.instant().getEpochSecond();
            priors.put(
                    ref,
                    LearnedPriors.of(
                            generations.incrementAndGet(),
                            credits.rows(),
                            score -> reached.credit(score, credits.epoch(), now),
                            settings.minCredit()));
            versions.put(ref, credits.version());
        }
    }

    private void flushQuietly() {
        try {
            flush();
        } catch (StorageUnavailableException e) {
            LOG.log(System.Logger.Level.DEBUG, "learning: the store is unavailable; picks wait in memory");
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "learning: writing picks failed", e);
        }
    }

    private void applyQuietly() {
        try {
            apply();
        } catch (StorageUnavailableException e) {
            LOG.log(System.Logger.Level.DEBUG, "learning: the store is unavailable; rankings keep what they learned");
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "learning: applying what was learned failed", e);
        }
    }

    private void rebaseQuietly() {
        try {
            store.get().rebase(clock.instant().getEpochSecond());
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "learning: rebase skipped: " + e.getMessage());
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
            LOG.log(System.Logger.Level.WARNING, "learning: " + queue.size() + " picks not written at stop");
        }
        store.close();
    }
}
