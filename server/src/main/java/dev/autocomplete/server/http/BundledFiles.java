package dev.autocomplete.server.http;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Files the web build bundled into the class path under {@code web/} (web/build.mjs): the demo page and the operator
 * console. HTML pages go with a strict Content-Security-Policy: everything from this server only.
 */
final class BundledFiles {

    /** Where the web build puts the pages on the class path. */
    static final String ROOT = "web/";

    private static final Pattern ASSET_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,100}");
    private static final Map<String, String> MEDIA_TYPES = Map.of(
            "html", "text/html; charset=UTF-8",
            "js", "text/javascript; charset=UTF-8",
            "css", "text/css; charset=UTF-8",
            "map", "application/json",
            "json", "application/json",
            "svg", "image/svg+xml",
            "png", "image/png",
            "txt", "text/plain; charset=UTF-8");
    private static final HeaderName CSP = HeaderNames.create("Content-Security-Policy");

    private final ErrorResponses errors;
    private final ClassLoader resources = BundledFiles.class.getClassLoader();

    BundledFiles(ErrorResponses errors) {
        this.errors = errors;
    }

    /** Whether {@code name} may name an asset: one plain file name, no path. */
    static boolean assetName(String name) {
        return ASSET_NAME.matcher(name).matches() && !name.contains("..");
    }

    /**
     * Sends the file at {@code path} below {@link #ROOT}, or 404 with {@code missing} as the message when the build
     * has no such file; an HTML page gets {@code contentSecurityPolicy}.
     */
    void send(ServerResponse response, String path, String contentSecurityPolicy, String missing) {
        byte[] bytes = read(ROOT + path);
        if (bytes == null) {
            errors.send(response, 404, "NOT_FOUND", missing);
            return;
        }
        String extension = path.substring(path.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
        response.status(Status.OK_200);
        response.header(HeaderNames.CONTENT_TYPE, MEDIA_TYPES.getOrDefault(extension, "application/octet-stream"));
        response.header(HeaderNames.CACHE_CONTROL, "no-cache");
        response.header(HeaderNames.X_CONTENT_TYPE_OPTIONS, "nosniff");
        if (extension.equals("html")) {
            response.header(CSP, contentSecurityPolicy);
        }
        response.send(bytes);
    }

    private byte[] read(String resource) {
        try (InputStream in = resources.getResourceAsStream(resource)) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
