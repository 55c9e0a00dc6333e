package dev.autocomplete.server.engines;

import java.util.Optional;

/**
 * Whose code a thread runs, for a line printed on {@code System.out} or {@code System.err}: the engine, its tenant and
 * product, and its JAR's build, as the failure lines name them ({@code engine 'repos' of acme/review [engine-repos.jar
 * version 1.2.0 (sha256 3f9a0c71be42)]}). Found when a line is printed, from what the thread holds anyway, so that an
 * engine call pays nothing for it: the first class on the printing thread's stack that a tenant's engine class loader
 * ({@link Loader}) loaded names the JAR, and so the engines it provides; the thread's context class loader, which
 * every engine call sets to the tenant's, names the tenant when no such frame is there; the product is known on a
 * reading's thread, which {@link EngineRunner} names after its tenant and product. A thread of an engine's own is told
 * by its stack too, but not its product; a line printed by code no tenant's loader loaded, on a thread no engine
 * call runs, is said to be nobody's.
 */
public final class EngineCode {

    /** A class loader of one tenant's engine JARs, which can say which JAR a class of it came from. */
    public interface Loader {

        /** The tenant whose JARs these are. */
        String tenantId();

        /** The JAR {@code type} was loaded from, empty when not one of this loader's. */
        Optional<Jar> jarOf(Class<?> type);
    }

    /**
     * A JAR of a tenant's engines.
     *
     * @param engines the engines it provides, {@code engine 'repos'}, or null for a library beside them
     * @param build its file name and version, as the load line gives it: {@code engine-repos.jar version 1.2.0 (sha256
     *     3f9a0c71be42)}
     */
    public record Jar(String engines, String build) {}

    /** The name of a reading's thread starts with this, then {@code tenant/product}. */
    static final String READING_THREAD = "read-";

    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    private EngineCode() {}

    /**
     * Whose code the current thread runs: {@code engine 'repos' of acme/review [engine-repos.jar version 1.2.0 (sha256
     * 3f9a0c71be42)]}, {@code engine 'repos' of tenant acme [...]} off a reading's thread, {@code tenant acme [lib.jar
     * version 2.0 (sha256 ...)]} for a library's code alone, {@code tenant acme} from the context class loader alone;
     * null when none of that says. Walks the stack: for a printed line, not for every call.
     */
    public static String running() {
        Thread thread = Thread.currentThread();
        Found found = WALKER.walk(frames -> {
            Found library = null;
            for (var it = frames.iterator(); it.hasNext(); ) {
                Class<?> type = it.next().getDeclaringClass();
                if (type.getClassLoader() instanceof Loader loader) {
                    Optional<Jar> jar = loader.jarOf(type);
                    if (jar.isPresent() && jar.get().engines() != null) {
                        return new Found(loader.tenantId(), jar.get());
                    }
                    if (library == null) {
                        library = new Found(loader.tenantId(), jar.orElse(null));
                    }
                }
            }
            return library;
        });
        if (found == null && thread.getContextClassLoader() instanceof Loader loader) {
            found = new Found(loader.tenantId(), null);
        }
        if (found == null) {
            return null;
        }
        String where = of(found.tenantId(), thread.getName());
        String said = found.jar() == null
                ? where
                : found.jar().engines() == null
                        ? where + " [" + found.jar().build() + "]"
                        : found.jar().engines() + " of " + where + " ["
                                + found.jar().build() + "]";
        return said.replaceAll("\\p{Cntrl}", "?"); // names from the file system, and a JAR's version, on one line
    }

    /** {@code acme/review} on a reading's thread of that tenant, else {@code tenant acme}. */
    private static String of(String tenantId, String threadName) {
        String reading = READING_THREAD + tenantId + "/";
        return threadName.startsWith(reading) ? threadName.substring(READING_THREAD.length()) : "tenant " + tenantId;
    }

    private record Found(String tenantId, Jar jar) {}
}
