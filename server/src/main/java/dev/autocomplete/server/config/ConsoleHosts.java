package dev.autocomplete.server.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code Host} names the operator console answers ({@code management.console-hosts}), so that a web page
 * elsewhere cannot read it through a DNS name rebound to the listener's address: the loopback names
 * ({@code localhost}, {@code 127.x.x.x}, {@code [::1]}) and those listed, or any name.
 *
 * <p>{@code auto} (the default): loopback names only while the management listener is on loopback, any name
 * otherwise; {@code loopback}: loopback names only, wherever the listener is (a container's listener binds every
 * address of the container and is published on the host's loopback); {@code any}; or host names and addresses,
 * comma-separated, answered besides the loopback names.
 *
 * @param any whether every name is answered
 * @param names names answered besides the loopback ones (lower case, without port)
 */
public record ConsoleHosts(boolean any, Set<String> names) {

    private static final Set<String> LOOPBACK = Set.of("localhost", "[::1]");
    private static final Pattern LOOPBACK_V4 = Pattern.compile("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");
    /** A host name (a trailing dot allowed), an IPv4 address, or an IPv6 address in brackets. */
    private static final Pattern NAME = Pattern.compile(
            "[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*\\.?|\\[[0-9a-f:.]+\\]");

    /**
     * Reads the setting's value for a listener at {@code listenerHost}.
     *
     * @throws IllegalArgumentException naming the value that is neither a keyword nor a host name
     */
    public static ConsoleHosts of(String setting, String listenerHost) {
        String value = setting.strip().toLowerCase(Locale.ROOT);
        switch (value) {
            case "", "auto" -> {
                return new ConsoleHosts(!isLoopback(listenerHost), Set.of());
            }
            case "loopback" -> {
                return new ConsoleHosts(false, Set.of());
            }
            case "any" -> {
                return new ConsoleHosts(true, Set.of());
            }
            default -> {
                List<String> names = new ArrayList<>();
                for (String part : value.split(",")) {
                    String name = part.strip();
                    if (!NAME.matcher(name).matches()) {
                        throw new IllegalArgumentException("must be auto, loopback, any or host names separated by"
                                + " commas (without ports); got '" + name + "'");
                    }
                    names.add(name.endsWith(".") ? name.substring(0, name.length() - 1) : name);
                }
                return new ConsoleHosts(false, Set.copyOf(names));
            }
        }
    }

    /** Whether a listener address is loopback by name. */
    private static boolean isLoopback(String host) {
        return host.equals("localhost") || host.startsWith("127.") || host.equals("::1") || host.equals("[::1]");
    }

    /** Whether a request whose {@code Host} header is {@code hostHeader} (empty when absent) is answered. */
    public boolean allows(String hostHeader) {
        if (any) {
            return true;
        }
        String name = hostHeader.startsWith("[")
                ? hostHeader.substring(0, hostHeader.indexOf(']') + 1)
                : hostHeader.contains(":") ? hostHeader.substring(0, hostHeader.indexOf(':')) : hostHeader;
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".")) {
            lower = lower.substring(0, lower.length() - 1);
        }
        return LOOPBACK.contains(lower) || LOOPBACK_V4.matcher(lower).matches() || names.contains(lower);
    }
}
