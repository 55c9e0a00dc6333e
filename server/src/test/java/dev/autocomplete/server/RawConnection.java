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
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One HTTP/1.1 connection written and read byte by byte, for what a client library hides: framing of its
 * own choosing, and several requests on one connection. Like {@link ApiClient}, it checks every response
 * against docs/openapi.yaml, matching responses to the request lines it sent, in order.
 */
final class RawConnection implements AutoCloseable {

    private static final Pattern REQUEST_LINE = Pattern.compile("^([A-Z]+) (\\S+) HTTP/1\\.[01]\r\n");

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    /** Method and path of each request sent and not yet answered. */
    private final Deque<String[]> sent = new ArrayDeque<>();

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
        send(request.getBytes(StandardCharsets.UTF_8));
    }

    void send(byte[] request) throws IOException {
        Matcher line = REQUEST_LINE.matcher(new String(request, StandardCharsets.ISO_8859_1));
        if (line.find()) {
            sent.add(new String[] {line.group(1), line.group(2).split("\\?", 2)[0]}); // the path, without the query
        }
        out.write(request);
        out.flush();
    }

    /**
     * The next response, head and body, read by its Content-Length; the answer to a {@code HEAD} has no body whatever
     * its Content-Length says (RFC 9112 §6.3), and is not checked against the document, which lists its {@code GET}.
     */
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
        String[] lines = text.split("\r\n");
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.computeIfAbsent(lines[i].substring(0, colon).trim(), name -> new ArrayList<>())
                    .add(lines[i].substring(colon + 1).trim());
        }
        int length = headers.entrySet().stream()
                .filter(h -> h.getKey().toLowerCase(Locale.ROOT).equals("content-length"))
                .mapToInt(h -> Integer.parseInt(h.getValue().getFirst()))
                .findFirst()
                .orElse(0);
        String[] request = sent.poll();
        boolean answersHead = request != null && request[0].equals("HEAD");
        String body = answersHead ? "" : new String(in.readNBytes(length), StandardCharsets.UTF_8);
        if (request != null && !answersHead) {
            OpenApiContract.repository()
                    .check(request[0], request[1], Integer.parseInt(lines[0].split(" ")[1]), headers, body);
        }
        return text + body;
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
