package dev.autocomplete.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One HTTP/1.1 connection written and read byte by byte, for what a client library hides: framing of its
 * own choosing, and several requests on one connection.
 */
final class RawConnection implements AutoCloseable {

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    RawConnection(int port) throws IOException {
        this("127.0.0.1", port);
    }

    /** A connection to the loopback port from the loopback address {@code from} (127.0.0.2, say). */
    RawConnection(String from, int port) throws IOException {
        socket = new Socket();
        socket.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 2000);
        socket.setSoTimeout(10_000);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    void send(String request) throws IOException {
        out.write(request.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** The next response, head and body, read by its Content-Length. */
    String readResponse() throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("the connection closed after: " + head.toString(StandardCharsets.ISO_8859_1));
            }
            head.write(b);
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        int length = 0;
        for (String line : text.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(line.substring("content-length:".length()).trim());
            }
        }
        return text + new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    /** Whether the server ends the connection with an end of stream, not a reset, within two seconds. */
    boolean endsCleanly() throws IOException {
        socket.setSoTimeout(2000);
        try {
            return in.read() == -1;
        } catch (SocketException e) {
            return false; // a reset
        }
    }

    /** Whether the server ends the connection, cleanly or not, within {@code millis}. */
    boolean endsWithin(int millis) throws IOException {
        socket.setSoTimeout(millis);
        try {
            return in.read() == -1;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException e) {
            return true;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
