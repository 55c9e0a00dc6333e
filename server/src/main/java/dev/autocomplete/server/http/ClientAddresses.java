package dev.autocomplete.server.http;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Who a request comes from, for the limits counted per client: failed authentications, honest picks and new
 * sessions an hour. That is the connection's address, unless it is a trusted proxy's ({@code limits.trusted-proxies}):
 * then it is the client that the proxies name in {@code X-Forwarded-For}, read from the right (each proxy appends the
 * address it was connected from, so what a client wrote itself stands to the left of it), past the trusted proxies'
 * own addresses. A header that is missing, or an entry that is no IP address, leaves the proxy's address: nothing
 * to the left of it can be believed. Behind a proxy without this, every client shared the proxy's hourly share of
 * honest picks (200), so a whole product learned from at most 200 picks an hour.
 *
 * <p>An IPv6 client is counted by its {@code /64} network: one subscriber usually holds a whole one, so counting
 * addresses would give one attacker billions of shares.
 */
public final class ClientAddresses {

    /** No trusted proxy: every client is its connection's address. */
    public static final ClientAddresses DIRECT = new ClientAddresses(List.of());

    private static final Pattern IPV4 =
            Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})(?::\\d{1,5})?");
    private static final Pattern IPV6 = Pattern.compile("\\[?([0-9A-Fa-f:.]{2,45})(?:](?::\\d{1,5})?)?");

    private final Set<InetAddress> trusted;

    /** @param trustedProxies IP address literals of reverse proxies ({@code limits.trusted-proxies}) */
    public ClientAddresses(List<String> trustedProxies) {
        Set<InetAddress> proxies = new HashSet<>();
        for (String proxy : trustedProxies) {
            InetAddress address = literal(proxy.strip());
            if (address == null) {
                throw new IllegalArgumentException("not an IP address: " + proxy);
            }
            proxies.add(address);
        }
        this.trusted = Set.copyOf(proxies);
    }

    /** Whether {@code address} is a trusted proxy's. */
    public boolean trusted(InetAddress address) {
        return trusted.contains(address);
    }

    /** The client of {@code request} as the per-client limits count it: an IPv4 address, or an IPv6 {@code /64}. */
    public String of(ServerRequest request) {
        InetAddress peer = request.remotePeer().address() instanceof InetSocketAddress inet ? inet.getAddress() : null;
        if (peer == null) {
            return request.remotePeer().host();
        }
        if (trusted.contains(peer)) {
            InetAddress forwarded = forwarded(request.headers().all(HeaderNames.X_FORWARDED_FOR, List::of));
            return counted(forwarded == null ? peer : forwarded);
        }
        return peer instanceof Inet6Address
                ? counted(peer)
                : request.remotePeer().host();
    }

    /**
     * The rightmost address of the {@code X-Forwarded-For} values that is no trusted proxy; null when there is none,
     * or when an entry before it (from the right) is no IP address.
     */
    InetAddress forwarded(List<String> values) {
        for (int v = values.size() - 1; v >= 0; v--) {
            String[] entries = values.get(v).split(",", -1);
            for (int i = entries.length - 1; i >= 0; i--) {
                InetAddress address = literal(entries[i].strip());
                if (address == null) {
                    return null;
                }
                if (!trusted.contains(address)) {
                    return address;
                }
            }
        }
        return null;
    }

    /** An IPv4 address as it is, an IPv6 one as its {@code /64} network ({@code 2001:db8:1:2:0:0:0:0/64}). */
    static String counted(InetAddress address) {
        if (!(address instanceof Inet6Address)) {
            return address.getHostAddress();
        }
        byte[] network = Arrays.copyOf(address.getAddress(), 16);
        Arrays.fill(network, 8, 16, (byte) 0);
        try {
            return InetAddress.getByAddress(network).getHostAddress() + "/64";
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // sixteen bytes are always an address
        }
    }

    /**
     * An IP address literal (IPv4 with an optional port, IPv6 with optional brackets and port), or null: parsed
     * only once its shape is an address's, so that no text from a header is ever looked up as a host name.
     */
    static InetAddress literal(String text) {
        Matcher v4 = IPV4.matcher(text);
        if (v4.matches()) {
            byte[] bytes = new byte[4];
            for (int i = 0; i < 4; i++) {
                int part = Integer.parseInt(v4.group(i + 1));
                if (part > 255) {
                    return null;
                }
                bytes[i] = (byte) part;
            }
            try {
                return InetAddress.getByAddress(bytes);
            } catch (UnknownHostException e) {
                return null;
            }
        }
        Matcher v6 = IPV6.matcher(text);
        if (v6.matches() && v6.group(1).indexOf(':') >= 0 && text.startsWith("[") == text.contains("]")) {
            try {
                // In brackets, the JDK parses it as an IPv6 literal or refuses it, and never looks a name up.
                return InetAddress.getByName("[" + v6.group(1) + "]");
            } catch (UnknownHostException e) {
                return null;
            }
        }
        return null;
    }
}
