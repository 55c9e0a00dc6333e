package dev.autocomplete.server.http;

import io.helidon.common.media.type.MediaType;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.HttpMediaType;
import io.helidon.http.Method;
import io.helidon.http.PathMatchers;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.staticcontent.ClasspathHandlerConfig;
import io.helidon.webserver.staticcontent.StaticContentFeature;
import java.net.URL;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Files the web build bundled into the class path under {@code web/} (web/build.mjs): the demo page and the operator
 * console, each a page ({@code index.html}) and its {@code assets/}. Helidon's static content handler serves them
 * (GET and HEAD, {@code Last-Modified} and {@code ETag} with their 304 answers, ranges, path traversal refused); this
 * class adds our headers in a step before it: {@code Cache-Control: no-cache} (a browser revalidates, so a new build
 * shows at once), {@code X-Content-Type-Options: nosniff} and the page's Content-Security-Policy. A file the build does
 * not have goes on to our JSON 404.
 */
final class BundledFiles {

    /** Where the web build puts the pages on the class path. */
    static final String ROOT = "web";

    /** Our types, with the charset Helidon's own table leaves out. */
    private static final Map<String, MediaType> MEDIA_TYPES = Map.of(
            "html", HttpMediaType.create("text/html; charset=UTF-8"),
            "js", HttpMediaType.create("text/javascript; charset=UTF-8"),
            "css", HttpMediaType.create("text/css; charset=UTF-8"),
            "map", HttpMediaType.create("application/json"),
            "json", HttpMediaType.create("application/json"),
            "svg", HttpMediaType.create("image/svg+xml"),
            "png", HttpMediaType.create("image/png"),
            "txt", HttpMediaType.create("text/plain; charset=UTF-8"));
    /** A plain file name with an extension: no directory, no dot file. */
    private static final Pattern FILE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]*(\\.[A-Za-z0-9_-]+)+");

    private static final HeaderName CSP = HeaderNames.create("Content-Security-Policy");

    private BundledFiles() {}

    /**
     * Serves the page {@code web/<location>/index.html} at {@code <context>/} and {@code <context>/index.html}, and
     * its files at {@code <context>/assets/*}, with {@code contentSecurityPolicy} (read per request); {@code hidden}
     * names class path resources below {@code web/<location>} that this context must not serve. Without the page,
     * its paths answer 404 with {@code missingPage} as the message; a missing asset, with "No such file.".
     */
    static void serve(
            HttpRules rules,
            String context,
            String location,
            Supplier<String> contentSecurityPolicy,
            Predicate<String> hidden,
            ErrorResponses errors,
            String missingPage) {
        String root = location.isEmpty() ? ROOT : ROOT + "/" + location;
        Predicate<Method> read = Method.predicate(Method.GET, Method.HEAD);
        String[] pages = {context + "/", context + "/index.html"};
        String assets = context + "/assets/*";
        for (String path : new String[] {pages[0], pages[1], assets}) {
            rules.route(read, PathMatchers.create(path), (req, res) -> {
                res.header(HeaderNames.CACHE_CONTROL, "no-cache");
                res.header(Headers.NOSNIFF);
                res.header(CSP, contentSecurityPolicy.get());
                res.next();
            });
        }
        ClassLoader server = BundledFiles.class.getClassLoader();
        // Helidon's handler resolves and normalizes the path first, then asks this loader: a directory, a dot file or
        // what this context hides is not there, whichever path named it.
        ClassLoader files = new ClassLoader(null) {
            @Override
            public URL getResource(String name) {
                boolean served = name.startsWith(root + "/")
                        && FILE_NAME
                                .matcher(name.substring(name.lastIndexOf('/') + 1))
                                .matches()
                        && !hidden.test(name);
                return served ? server.getResource(name) : null;
            }
        };
        HttpService handler = StaticContentFeature.createService(ClasspathHandlerConfig.builder()
                .location(root)
                .welcome("index.html")
                .classLoader(files)
                .contentTypes(MEDIA_TYPES)
                .build());
        rules.register(context.isEmpty() ? "/" : context, handler);
        for (String page : pages) {
            rules.route(read, PathMatchers.create(page), (req, res) -> errors.send(res, 404, "NOT_FOUND", missingPage));
        }
        rules.route(
                read, PathMatchers.create(assets), (req, res) -> errors.send(res, 404, "NOT_FOUND", "No such file."));
    }
}
