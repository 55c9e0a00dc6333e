package dev.autocomplete.server.tenant;

import dev.autocomplete.server.reading.ProductConfig;
import dev.autocomplete.spi.EngineFactory;
import dev.autocomplete.spi.SpiVersion;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;

/**
 * Finds the engine factories one tenant can use: the built-in ones (on the server's class path) and those in
 * the tenant's {@code engines/*.jar}, each known by the JAR it came from. A tenant's JARs are loaded from
 * private copies taken now, through one {@link EngineClassLoader} per load, so the operator may replace
 * {@code engines/x.jar} in place while the previous load still serves. Never a silent pick: two JARs that
 * provide one engine name, or a JAR that reuses a built-in's name, is a problem naming both; so is an engine
 * JAR without the SPI major version this server speaks in its manifest.
 */
public final class EngineJars {

    /** The origin of the engines on the server's class path. */
    public static final String BUILT_IN = "built-in";
    /** The name params give the core's own option lists ({@code engine: catalog}, the default): no JAR may take it. */
    private static final String CORE_ENGINE = ProductConfig.DEFAULT_ENGINE;

    static final String SERVICE_FILE = "META-INF/services/" + EngineFactory.class.getName();
    private static final Pattern ENGINE_NAME = Pattern.compile("[a-z0-9][a-z0-9-]*");
    private static final String GUIDE = "docs/engine-guide.md";

    private final ClassLoader serverLoader;
    private final Map<String, EngineFactory> builtIns;

    /** Engine JARs next to the built-ins on the server's own class path. */
    public EngineJars() {
        this(List.of());
    }

    /**
     * As above, with {@code given} factories as built-ins too, each replacing one of the same name on the class
     * path: the engine test kit passes the factory an author tests.
     */
    public EngineJars(java.util.Collection<? extends EngineFactory> given) {
        this.serverLoader = EngineJars.class.getClassLoader();
        Map<String, EngineFactory> found = new LinkedHashMap<>();
        for (EngineFactory factory : ServiceLoader.load(EngineFactory.class, serverLoader)) {
            EngineFactory before = found.putIfAbsent(factory.name(), factory);
            if (before != null) {
                throw new IllegalStateException("two built-in engines are named '" + factory.name() + "': "
                        + before.getClass().getName() + " and "
                        + factory.getClass().getName());
            }
        }
        given.forEach(factory -> found.put(factory.name(), factory));
        this.builtIns = Map.copyOf(found);
    }

    /** Names of the engines every tenant can use. */
    public Set<String> builtInNames() {
        return builtIns.keySet();
    }

    /**
     * The engines of one tenant load. Close it when the load is abandoned; otherwise the tenant owns
     * {@link #loader()} and closes it when unloaded, which deletes the copies.
     *
     * @param factories every engine the tenant can use, built-ins included, by name
     * @param origins by engine name: {@link #BUILT_IN}, or the file name of the JAR in {@code engines/}
     * @param loader the tenant's own loader over the copies, or null when it has no engine JARs
     * @param contextLoader the loader to set as thread context class loader while its engines run
     * @param problems what is wrong with the JARs, each naming them; the tenant must not load when any
     */
    public record Found(
            Map<String, EngineFactory> factories,
            Map<String, String> origins,
            EngineClassLoader loader,
            ClassLoader contextLoader,
            List<Problem> problems,
            Map<String, Path> libraries)
            implements AutoCloseable {

        public Found {
            factories = Map.copyOf(factories);
            origins = Map.copyOf(origins);
            problems = List.copyOf(problems);
            libraries = Map.copyOf(libraries);
        }

        Found(
                Map<String, EngineFactory> factories,
                Map<String, String> origins,
                EngineClassLoader loader,
                ClassLoader contextLoader,
                List<Problem> problems) {
            this(factories, origins, loader, contextLoader, problems, Map.of());
        }

        /**
         * What a param naming no engine is told of the JARs loaded as libraries (without the service file): those that
         * hold an engine factory class by that class and the file to add (an author who forgot it), the others by
         * name. Empty when there are none. Their classes are read only here, when a param names no engine, not at
         * every load.
         */
        public String unlistedHint() {
            StringBuilder hint = new StringBuilder();
            List<String> plain = new ArrayList<>();
            new java.util.TreeMap<>(libraries).forEach((name, copy) -> {
                String factory;
                try (JarFile file = new JarFile(copy.toFile())) {
                    factory = factoryClass(file);
                } catch (IOException e) {
                    return; // read at load already: nothing more to say of it
                }
                if (factory == null) {
                    plain.add(name);
                    return;
                }
                hint.append("; ")
                        .append(name)
                        .append(" holds ")
                        .append(factory)
                        .append(", which names ")
                        .append(EngineFactory.class.getName())
                        .append(", but no ")
                        .append(SERVICE_FILE)
                        .append(" listing it, so it is loaded as a library and provides no engine (add that file to")
                        .append(" the JAR, e.g. as src/main/resources/")
                        .append(SERVICE_FILE)
                        .append(", its one line ")
                        .append(factory)
                        .append(")");
            });
            if (!plain.isEmpty()) { // the JARs searched, even when none holds a factory: a wrong JAR copied, say
                hint.append("; loaded as libraries, with no ")
                        .append(SERVICE_FILE)
                        .append(" and no class naming ")
                        .append(EngineFactory.class.getName())
                        .append(": ")
                        .append(String.join(", ", plain));
            }
            return hint.toString();
        }

        /**
         * The name and version of the JAR that provides an engine, as the load line gives it: {@code engine-repos.jar
         * version 1.2.0 (sha256 3f9a0c71be42)}; null for a built-in engine or one of no JAR of this load.
         */
        public String build(String engineName) {
            String origin = origins.get(engineName);
            return loader == null || origin == null || BUILT_IN.equals(origin) ? null : loader.build(origin);
        }

        /** Closes the tenant's loader, deleting the copies; for a load that did not go live. */
        @Override
        public void close() {
            if (loader != null) {
                try {
                    loader.close();
                } catch (IOException ignored) {
                    // Nothing left to release.
                }
            }
        }
    }

    /**
     * An engine JAR as copied: where it came from, the copy, the factory classes it lists, and the version it says
     * it is ({@link #version}).
     */
    private record Jar(Path original, Path copy, List<String> factoryClasses, String version) {

        String name() {
            return original.getFileName().toString();
        }
    }

    /** Finds the engines of the tenant in {@code directory}: the built-ins and those in its {@code engines/}. */
    public Found find(Path directory, String tenantId) {
        Map<String, EngineFactory> factories = new LinkedHashMap<>(builtIns);
        Map<String, String> origins = new HashMap<>();
        builtIns.keySet().forEach(name -> origins.put(name, BUILT_IN));
        List<Problem> problems = new ArrayList<>();
        Path enginesDir = directory.resolve("engines");
        List<Path> originals = jars(enginesDir, problems);
        if (originals.isEmpty()) {
            return new Found(factories, origins, null, serverLoader, problems);
        }
        Path copies;
        List<Jar> jars = new ArrayList<>();
        try {
            copies = Files.createTempDirectory("autocomplete-" + tenantId + "-engines-");
        } catch (IOException e) {
            problems.add(new Problem(enginesDir, 0, "cannot copy the engine JARs to load them: " + e));
            return new Found(factories, origins, null, serverLoader, problems);
        }
        try {
            for (Path original : originals) {
                Path copy = Files.copy(
                        original, copies.resolve(original.getFileName().toString()));
                Jar jar = read(original, copy, problems);
                if (jar != null) {
                    jars.add(jar);
                }
            }
        } catch (IOException e) {
            EngineClassLoader.deleteCopies(copies);
            problems.add(new Problem(enginesDir, 0, "cannot copy the engine JARs to load them: " + e));
            return new Found(factories, origins, null, serverLoader, problems);
        }
        sameClassInTwoJars(jars, problems);
        EngineClassLoader loader = new EngineClassLoader(tenantId, urls(jars), serverLoader, copies, builds(jars));
        // A JAR that lists no factory is a library, even when it is the only one: a param naming the engine it was
        // meant to provide is told which class it holds and the file it lacks (Found.unlistedHint). It used to be
        // refused with "no EngineFactory found", which named no class and kept that param's message from being said.
        load(loader, jars, factories, origins, problems);
        loader.provides(origins); // for the lines engines print (EngineCode)
        Map<String, Path> libraries = new java.util.HashMap<>();
        jars.stream()
                .filter(jar -> jar.factoryClasses().isEmpty())
                .forEach(jar -> libraries.put(jar.name(), jar.copy()));
        return new Found(factories, origins, loader, loader, problems, libraries);
    }

    /** The {@code *.jar} files of {@code engines/}, sorted; none when it does not exist. */
    private static List<Path> jars(Path enginesDir, List<Problem> problems) {
        List<Path> jars = new ArrayList<>();
        if (!Files.isDirectory(enginesDir)) {
            return jars;
        }
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(enginesDir, "*.jar")) {
            stream.forEach(jars::add);
        } catch (IOException e) {
            problems.add(new Problem(enginesDir, 0, "cannot list engine JARs: " + e.getMessage()));
            return List.of();
        }
        jars.sort(null);
        return jars;
    }

    /**
     * Reads a copied JAR's factory list and, when it lists any (an engine JAR, not a library beside one), the
     * SPI version in its manifest. Null when it is refused: it is then left out of the class loader.
     */
    private static Jar read(Path original, Path copy, List<Problem> problems) {
        List<String> classes = new ArrayList<>();
        String version;
        String build;
        try (JarFile file = new JarFile(copy.toFile())) {
            ZipEntry services = file.getEntry(SERVICE_FILE);
            if (services != null) {
                try (InputStream in = file.getInputStream(services)) {
                    classes.addAll(serviceLines(in));
                }
            }
            Manifest manifest = file.getManifest();
            version = manifest == null ? null : manifest.getMainAttributes().getValue(SpiVersion.MANIFEST_ATTRIBUTE);
            // Two builds of one version (a SNAPSHOT rebuilt) are told apart in the log by their content.
            build = version(file, manifest, original.getFileName().toString()) + " (sha256 " + shortDigest(copy) + ")";
        } catch (IOException e) {
            problems.add(new Problem(original, 0, "cannot read engine JAR " + original.getFileName() + ": " + e));
            return null;
        }
        if (classes.isEmpty()) {
            return new Jar(original, copy, List.of(), build);
        }
        String refused = versionProblem(original.getFileName().toString(), version);
        if (refused != null) {
            problems.add(new Problem(original, 0, refused));
            return null;
        }
        return new Jar(original, copy, List.copyOf(classes), build);
    }

    /** The internal name of the factory interface, as a class implementing it names it in its constant pool. */
    private static final byte[] FACTORY_NAME =
            EngineFactory.class.getName().replace('.', '/').getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    /**
     * A class of the JAR whose bytes name the engine factory interface (most likely one implementing it), or null: read
     * only for a JAR without a service file, class files of at most 1 MiB.
     */
    private static String factoryClass(JarFile file) throws IOException {
        for (java.util.Enumeration<java.util.jar.JarEntry> entries = file.entries(); entries.hasMoreElements(); ) {
            java.util.jar.JarEntry entry = entries.nextElement();
            String name = entry.getName();
            if (!name.endsWith(".class") || name.contains("-") || entry.getSize() > (1 << 20)) {
                continue; // module-info, package-info and versioned copies: no factory of an engine
            }
            try (InputStream in = file.getInputStream(entry)) {
                if (contains(in.readNBytes(1 << 20), FACTORY_NAME)) {
                    return name.substring(0, name.length() - ".class".length()).replace('/', '.');
                }
            }
        }
        return null;
    }

    private static boolean contains(byte[] bytes, byte[] wanted) {
        outer:
        for (int i = 0; i + wanted.length <= bytes.length; i++) {
            for (int j = 0; j < wanted.length; j++) {
                if (bytes[i + j] != wanted[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    /** The first 12 hex digits of the file's SHA-256: enough to tell two builds apart in a log. */
    private static String shortDigest(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            java.security.MessageDigest sha256 = java.security.MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[64 * 1024];
            for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                sha256.update(buffer, 0, read);
            }
            return java.util.HexFormat.of().formatHex(sha256.digest(), 0, 6);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /**
     * The version a JAR says it is, for the log: {@code Implementation-Version} in its manifest, else the version in
     * the Maven {@code pom.properties} that {@code mvn package} puts in it (of the JAR's own artifact, the one its
     * file name starts with, when it bundles others), else {@code unknown}. One line of at most 60 characters.
     */
    private static String version(JarFile file, Manifest manifest, String fileName) throws IOException {
        String implementation =
                manifest == null ? null : manifest.getMainAttributes().getValue(Attributes.Name.IMPLEMENTATION_VERSION);
        if (implementation != null && !implementation.isBlank()) {
            return oneLine(implementation);
        }
        List<Properties> poms = new ArrayList<>();
        for (ZipEntry entry : Collections.list(file.entries())) {
            String name = entry.getName();
            if (name.startsWith("META-INF/maven/") && name.endsWith("/pom.properties")) {
                Properties pom = new Properties();
                try (InputStream in = file.getInputStream(entry)) {
                    pom.load(in);
                }
                poms.add(pom);
            }
        }
        for (Properties pom : poms) {
            String artifact = pom.getProperty("artifactId", "");
            if (poms.size() == 1 || !artifact.isEmpty() && fileName.startsWith(artifact)) {
                return oneLine(pom.getProperty("version", "unknown"));
            }
        }
        return "unknown";
    }

    /** A version as the log can show it: the JAR's text could hold a line break to forge a log line. */
    private static String oneLine(String version) {
        String line = version.strip().replaceAll("\\p{Cntrl}", "?");
        return line.isEmpty() ? "unknown" : line.length() > 60 ? line.substring(0, 60) + "..." : line;
    }

    /** Why a JAR built for {@code version} cannot load here, or null when it can. */
    static String versionProblem(String jar, String version) {
        String speaks = "this server speaks engine SPI version " + SpiVersion.MAJOR;
        String todo = "rebuild the engine against engine-spi " + SpiVersion.MAJOR + ".x with the manifest attribute "
                + SpiVersion.MANIFEST_ATTRIBUTE + ": " + SpiVersion.MAJOR + " (see " + GUIDE + ", \"SPI version\")";
        if (version == null || version.isBlank()) {
            return jar + " does not say which engine SPI version it was built for (no " + SpiVersion.MANIFEST_ATTRIBUTE
                    + " in its manifest); " + speaks + "; " + todo;
        }
        String major = version.strip();
        int dot = major.indexOf('.');
        if (dot >= 0) {
            major = major.substring(0, dot);
        }
        if (!major.equals(Integer.toString(SpiVersion.MAJOR))) {
            boolean newer = major.matches("\\d{1,9}") && Integer.parseInt(major) > SpiVersion.MAJOR;
            return jar + " was built for engine SPI version " + version.strip() + " (" + SpiVersion.MANIFEST_ATTRIBUTE
                    + "); " + speaks + "; " + (newer ? "run a server that speaks version " + major + ", or " : "")
                    + todo;
        }
        return null;
    }

    /** The class names of a {@code META-INF/services} file: one a line, {@code #} starts a comment. */
    private static List<String> serviceLines(InputStream in) throws IOException {
        List<String> lines = new ArrayList<>();
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            int comment = line.indexOf('#');
            String name = (comment >= 0 ? line.substring(0, comment) : line).strip();
            if (!name.isEmpty()) {
                lines.add(name);
            }
        }
        return lines;
    }

    /**
     * Two builds of one engine side by side list the same factory class; one class loader would load it from
     * the first JAR only and the service loader would list it once, silently picking that build.
     */
    private static void sameClassInTwoJars(List<Jar> jars, List<Problem> problems) {
        Map<String, Jar> byClass = new HashMap<>();
        for (Jar jar : jars) {
            for (String type : jar.factoryClasses()) {
                Jar first = byClass.putIfAbsent(type, jar);
                if (first != null && first != jar) {
                    problems.add(new Problem(
                            jar.original(),
                            0,
                            "engine factory " + type + " is in both " + first.name() + " and " + jar.name()
                                    + " (two builds of one engine?): keep one"));
                }
            }
        }
    }

    /** Instantiates the JARs' factories. */
    private static void load(
            EngineClassLoader loader,
            List<Jar> jars,
            Map<String, EngineFactory> factories,
            Map<String, String> origins,
            List<Problem> problems) {
        Map<Path, Jar> byCopy = new HashMap<>();
        jars.forEach(jar -> byCopy.put(jar.copy().toAbsolutePath().normalize(), jar));
        Path enginesDir = jars.isEmpty() ? null : jars.getFirst().original().getParent();
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            for (ServiceLoader.Provider<EngineFactory> provider :
                    ServiceLoader.load(EngineFactory.class, loader).stream().toList()) {
                Jar jar = byCopy.get(copyOf(provider.type()));
                Path file = jar == null ? enginesDir : jar.original();
                String origin = jar == null ? "engines/" : jar.name();
                EngineFactory factory = provider.get();
                String name = factory.name();
                if (name == null || !ENGINE_NAME.matcher(name).matches()) {
                    problems.add(new Problem(
                            file,
                            0,
                            "engine " + provider.type().getName() + " in " + origin + " has the name '" + name
                                    + "': use lower-case letters, digits and '-'"));
                    continue;
                }
                String before = CORE_ENGINE.equals(name) ? BUILT_IN : origins.get(name);
                if (BUILT_IN.equals(before)) {
                    problems.add(new Problem(
                            file,
                            0,
                            "engine name '" + name + "' in " + origin
                                    + " is already the name of a built-in engine (one on the server's class path:"
                                    + " under the engine test kit, the engine under test itself, so keep its JAR out"
                                    + " of the test tenant's engines/): rename the engine in " + origin
                                    + " (EngineFactory.name()) or remove the JAR"));
                } else if (before != null) {
                    problems.add(new Problem(
                            file,
                            0,
                            "engine name '" + name + "' is provided by both " + before + " and " + origin
                                    + ": keep one of the JARs"));
                } else {
                    factories.put(name, factory);
                    origins.put(name, origin);
                }
            }
        } catch (ServiceConfigurationError | RuntimeException | LinkageError e) {
            problems.add(new Problem(
                    jars.size() == 1 ? jars.getFirst().original() : enginesDir,
                    0,
                    "cannot load engines from "
                            + names(jars.stream().map(Jar::original).toList()) + ": " + e + loadHint(e)));
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** What to do about a JAR whose classes failed to load, from the error: a newer Java, or another SPI. */
    private static String loadHint(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof UnsupportedClassVersionError) {
                return " (compiled for a newer Java than this server runs, Java "
                        + Runtime.version().feature()
                        + ": build the engine with <maven.compiler.release>21</maven.compiler.release>; see " + GUIDE
                        + ")";
            }
        }
        return e instanceof LinkageError || e.getCause() instanceof LinkageError
                ? " (built for another engine SPI version? see " + GUIDE + ")"
                : "";
    }

    /** The copied JAR a class was loaded from, or null when it cannot be told. */
    private static Path copyOf(Class<?> type) {
        CodeSource source = type.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            return null;
        }
        try {
            return Path.of(source.getLocation().toURI()).toAbsolutePath().normalize();
        } catch (URISyntaxException | IllegalArgumentException e) {
            return null;
        }
    }

    /** By JAR file name, in order, its name and version for the log: {@code repos.jar version 1.2.0 (sha256 ...)}. */
    private static Map<String, String> builds(List<Jar> jars) {
        Map<String, String> builds = new LinkedHashMap<>();
        jars.forEach(jar -> builds.put(jar.name(), jar.name() + " version " + jar.version()));
        return builds;
    }

    private static URL[] urls(List<Jar> jars) {
        URL[] urls = new URL[jars.size()];
        for (int i = 0; i < urls.length; i++) {
            try {
                urls[i] = jars.get(i).copy().toUri().toURL();
            } catch (MalformedURLException e) {
                throw new IllegalStateException(e);
            }
        }
        return urls;
    }

    private static String names(List<Path> jars) {
        return String.join(
                ", ", jars.stream().map(p -> p.getFileName().toString()).toList());
    }
}
