package dev.autocomplete.server.auth;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * An allowed browser origin: exact ({@code https://app.example.com}, {@code http://localhost:3000}) or a
 * wildcard for the sub-domains of a domain ({@code https://*.example.com}, which does not match
 * {@code https://example.com} itself). Scheme, host and port must match; comparison ignores case.
 */
public record OriginPattern(String scheme, String host, int port, boolean wildcard) {

    /** Parses a pattern as written in {@code keys.yaml} or {@code --origins}. */
    public static OriginPattern parse(String text) {
        String trimmed = text.strip();
        boolean wildcard = false;
        String forUri = trimmed;
        int star = trimmed.indexOf("://*.");
        if (star > 0) {
            wildcard = true;
            forUri = trimmed.substring(0, star + 3) + trimmed.substring(star + 5);
        }
        if (forUri.contains("*")) {
            throw new IllegalArgumentException("origin '" + trimmed + "': '*' is allowed only as 'scheme://*.domain'");
        }
        Origin origin = Origin.parse(forUri);
        if (origin == null) {
            throw new IllegalArgumentException(
                    "origin '" + trimmed + "' must be scheme://host[:port] with no path, like https://app.example.com");
        }
        if (wildcard && !origin.host().contains(".")) {
            throw new IllegalArgumentException("origin '" + trimmed + "': a wildcard needs a domain with a dot");
        }
        return new OriginPattern(origin.scheme(), origin.host(), origin.port(), wildcard);
    }

    /** Whether a request's {@code Origin} header value is allowed by this pattern. */
    public boolean matches(String originHeader) {
        Origin origin = Origin.parse(originHeader);
        if (origin == null || !origin.scheme().equals(scheme) || origin.port() != port) {
            return false;
        }
        return wildcard ? origin.host().endsWith("." + host) : origin.host().equals(host);
    }

    @Override
    public String toString() {
        boolean defaultPort = port == ("https".equals(scheme) ? 443 : 80);
        return scheme + "://" + (wildcard ? "*." : "") + host + (defaultPort ? "" : ":" + port);
    }

    /** A serialized origin: scheme, host and port (the default one filled in). */
    private record Origin(String scheme, String host, int port) {

        static Origin parse(String text) {
            try {
                URI uri = new URI(text.strip());
                String scheme = uri.getScheme() == null ? null : uri.getScheme().toLowerCase(Locale.ROOT);
                if (scheme == null
                        || !(scheme.equals("http") || scheme.equals("https"))
                        || uri.getHost() == null
                        || uri.getRawUserInfo() != null
                        || uri.getRawQuery() != null
                        || uri.getRawFragment() != null
                        || !(uri.getRawPath() == null || uri.getRawPath().isEmpty())) {
                    return null;
                }
                int port = uri.getPort() >= 0 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
                return new Origin(scheme, uri.getHost().toLowerCase(Locale.ROOT), port);
            } catch (URISyntaxException e) {
                return null;
            }
        }
    }
}
