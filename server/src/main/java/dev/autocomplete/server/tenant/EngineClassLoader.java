package dev.autocomplete.server.tenant;

import java.net.URL;
import java.net.URLClassLoader;

/**
 * A tenant's class loader over its {@code engines/*.jar}, modelled on Trino's {@code PluginClassLoader}: the
 * parent is the platform class loader, so an engine sees the JDK and its own JARs but none of the server's
 * libraries; only the SPI package is delegated to the server's loader, so engine and server agree on the
 * SPI types. Two tenants can thus carry different versions of one library.
 */
final class EngineClassLoader extends URLClassLoader {

    private static final String SPI_PACKAGE = "dev.autocomplete.spi.";

    static {
        ClassLoader.registerAsParallelCapable();
    }

    private final ClassLoader spiLoader;

    EngineClassLoader(String tenantId, URL[] jars, ClassLoader spiLoader) {
        super("tenant-" + tenantId, jars, ClassLoader.getPlatformClassLoader());
        this.spiLoader = spiLoader;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (name.startsWith(SPI_PACKAGE)) {
            return spiLoader.loadClass(name);
        }
        return super.loadClass(name, resolve);
    }
}
