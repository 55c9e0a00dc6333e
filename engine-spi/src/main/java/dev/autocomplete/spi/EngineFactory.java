package dev.autocomplete.spi;

/**
 * Creates {@link Engine}s of one kind. Found with {@link java.util.ServiceLoader}: list the implementation in
 * {@code META-INF/services/dev.autocomplete.spi.EngineFactory} of the engine's JAR.
 *
 * <p>Threading: {@link #create} may be called from any thread, once per product that names this factory, and
 * again whenever a tenant is (re)loaded. Implementations keep no mutable state of their own.
 *
 * <p>Lifecycle: the server calls {@link #create} with the tenant's class loader as the thread context class
 * loader. The engine returned belongs to the server, which calls {@link Engine#close()} when the tenant is
 * unloaded.
 */
public interface EngineFactory {

    /**
     * The stable name that a product's {@code engine} key in {@code tenant.yaml} refers to, e.g. {@code catalog}.
     * Lower case letters, digits and dashes. Never null.
     */
    String name();

    /**
     * Builds an engine for one product.
     *
     * @param context the product's engine configuration and the tenant's directory; never null
     * @return a ready engine; never null
     * @throws EngineConfigException when the configuration is invalid; its {@link EngineConfigException#key()}
     *     names the offending key so the server can report the file and line
     */
    Engine create(EngineContext context) throws EngineConfigException;
}
