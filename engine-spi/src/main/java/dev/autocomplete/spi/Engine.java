package dev.autocomplete.spi;

import java.util.List;
import java.util.Set;

/**
 * A source of values for some param types of one product: it tells how typed text reads as a value, and
 * which options to offer. The server reads the query (intents, cues, spans, readiness, context ranking,
 * languages) and asks the engines of the product's params; an engine knows only its data.
 *
 * <p>Threading: an engine is shared by every request of its product, so every method must be thread-safe
 * and should not block on I/O: the server calls it in-process, on the request's virtual thread, within one
 * time budget per request ({@link Ask#deadlineNanos()}). Load data in {@link EngineFactory#create}, not here.
 * A method that throws costs only the params this engine serves, for that request; repeated failures open a
 * circuit for this engine in this product.
 *
 * <p>Lifecycle: created by its {@link EngineFactory}; the server calls {@link #close()} once, after the last
 * request that uses it finished, when its tenant is unloaded or reloaded. The thread context class loader
 * is the tenant's during every call.
 */
public interface Engine extends AutoCloseable {

    /**
     * The param types this engine serves: those of {@link EngineContext#params()} it accepted. The server asks
     * about no other type, and drops answers about others. Constant for the engine's life; never null.
     */
    Set<String> paramTypes();

    /**
     * Whether the answers depend on the arguments alone (the {@link Ask}, including {@link Ask#today()}), so
     * the server may cache them. An engine over live data that changes without a reload returns false.
     */
    default boolean cacheable() {
        return true;
    }

    /**
     * Whether the server may learn from the picks of this engine's options, and offer what users picked to later
     * users (docs/configuration.md, "Learning from picks"). True unless the options are values of the moment: a date
     * relative to today, a free time slot, a price quoted now. A pick of {@code tomorrow, Monday 7 December} is no value
     * to offer the next user, the day after. A param's {@code learn:} in {@code tenant.yaml} overrides the answer
     * either way. Read once, when the engine is created.
     *
     * @since 3.2
     */
    default boolean learnsFromPicks() {
        return true;
    }

    /**
     * How each typed span reads as a value of {@code ask.type()}: batched, so that the server asks once for
     * every span of a piece of text.
     *
     * @param ask what the server asks about; never null
     * @param spans typed text, verbatim (not folded), one question each; never null
     * @return one answer per span, in the same order; never null
     */
    List<SpanMatch> match(Ask ask, List<String> spans);

    /**
     * The options to offer for {@code ask.type()}, best first, for what the user typed so far.
     *
     * @param ask what the server asks about; never null
     * @param typed the text typed for this param, verbatim; empty for the best options with nothing typed
     * @return at most {@link Ask#limit()} options (the server cuts the rest), best first; never null
     */
    List<Option> options(Ask ask, String typed);

    /** Releases what the engine holds. The default does nothing. Must not throw. */
    @Override
    default void close() {}
}
