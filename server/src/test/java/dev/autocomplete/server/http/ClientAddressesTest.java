package dev.autocomplete.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Reading the client from {@code X-Forwarded-For} behind trusted proxies, and the address literals it takes. */
class ClientAddressesTest {

    private final ClientAddresses clients = new ClientAddresses(List.of("10.0.0.5", "10.0.0.6", "fd00::1"));

    private String forwarded(String... values) {
        InetAddress address = clients.forwarded(List.of(values));
        return address == null ? null : ClientAddresses.counted(address);
    }

    @Test
    void the_client_is_the_rightmost_address_that_is_no_trusted_proxy() {
        assertEquals("198.51.100.7", forwarded("198.51.100.7"));
        assertEquals("198.51.100.7", forwarded("203.0.113.1, 198.51.100.7"), "what the client wrote itself is left");
        assertEquals("198.51.100.7", forwarded("203.0.113.1, 198.51.100.7, 10.0.0.6"), "past a chain of proxies");
        assertEquals("198.51.100.7", forwarded("203.0.113.1", "198.51.100.7, fd00::1"), "over several headers");
        assertEquals("198.51.100.7", forwarded("198.51.100.7:51234"), "a port is left out");
        assertEquals("2001:db8:1:2:0:0:0:0/64", forwarded("[2001:db8:1:2::77]:443"), "IPv6 by its /64");
        assertEquals("192.0.2.1", forwarded("::ffff:192.0.2.1"), "an IPv4-mapped address is IPv4");
    }

    @Test
    void anything_but_an_address_to_the_right_leaves_the_proxys_own_address() {
        assertNull(forwarded());
        assertNull(forwarded("198.51.100.7, unknown"), "nothing left of an entry that is no address can be believed");
        assertNull(forwarded("10.0.0.5, 10.0.0.6"), "only proxies");
        assertNull(forwarded("example.com"));
        assertNull(forwarded("256.1.1.1"));
        assertNull(forwarded("1.2.3"));
        assertNull(forwarded(""));
        assertNull(forwarded("[2001:db8::1"), "an unclosed bracket");
        assertNull(forwarded("abc:def"), "hexadecimal letters and a colon, but no address");
        assertNull(forwarded("2001:db8::1::2"));
    }

    @Test
    void trusted_proxies_must_be_address_literals() {
        IllegalArgumentException error =
                assertThrows(IllegalArgumentException.class, () -> new ClientAddresses(List.of("proxy.internal")));
        assertEquals("not an IP address: proxy.internal", error.getMessage());
    }
}
