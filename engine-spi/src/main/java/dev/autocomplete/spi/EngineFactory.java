package dev.autocomplete.spi;

/**
 * Creates {@link Engine}s of one kind. Found with {@link java.util.ServiceLoader}: list the implementation in
 * {@code META-INF/services/dev.autocomplete.spi.EngineFactory} of the engine's JAR.
 *
 * <p>Threading: {@link #create} may be called from any thread, once per product whose params name this
 * engine, and again whenever a tenant is (re)loaded. Implementations keep no mutable state of their own.
 *
 * <p>Lifecycle: the server calls {@link #create} with the tenant's class loader as the thread context class
 * loader. The engine returned belongs to the server, which calls {@link Engine#close()} when the tenant is
 * unloaded or reloaded.
 */
public interface EngineFactory {

    /**
     * The stable name that a param's {@code engine} key in {@code tenant.yaml} refers to, e.g. {@code date}.
     * Lower case letters, digits and dashes. Never null. Two engines with one name in a tenant are an error.
     */
    String name();

    /**
     * Builds an engine that serves some params of one product.
     *
     * @param context the params it serves with their config, the engine's tenant-wide config and the tenant's
     *     directory; never null
     * @return a ready engine; never null
     * @throws EngineConfigException when the configuration is invalid; its {@link EngineConfigException#key()}
     *     names the offending key (build errors from the {@link dev.autocomplete.spi.ConfigTree}s of
     *     the context, which know their place in {@code tenant.yaml}) so the server can report file and line
     */
    Engine create(EngineContext context) throws EngineConfigException;
}
