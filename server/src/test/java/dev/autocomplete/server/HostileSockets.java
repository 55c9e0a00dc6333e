package dev.autocomplete.server;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Hostile connections from one loopback address, as the attack on issue 11 made them: slow headers, slow bodies
 * with and without a valid key, idle sockets and aborted bodies. The open ones trickle a byte a second (a
 * per-read socket timeout never fires) until {@link #close}. Connections the server refuses or closes are
 * dropped, not reopened.
 */
final class HostileSockets implements AutoCloseable {

    /** The kinds of hostile connection. */
    enum Kind {
        SLOW_HEADERS,
        SLOW_BODY,
        SLOW_BODY_WITH_KEY,
        IDLE,
        ABORTED
    }

    /** Opened in turn: five in eight are slow bodies, so that they outnumber the default 1,024 request slots. */
    private static final Kind[] MIX = {
        Kind.SLOW_HEADERS,
        Kind.SLOW_BODY,
        Kind.SLOW_BODY,
        Kind.SLOW_BODY,
        Kind.SLOW_BODY_WITH_KEY,
        Kind.SLOW_BODY_WITH_KEY,
        Kind.IDLE,
        Kind.ABORTED
    };

    private final InetAddress from;
    private final int port;
    private final String key;
    private final List<Socket> trickling = new CopyOnWriteArrayList<>();
    private final List<Socket> all = new ArrayList<>();
    private final Thread trickler;
    private volatile boolean closed;

    /** @param key a valid public key for the slow bodies that pass authentication */
    HostileSockets(String from, int port, String key) throws IOException {
        this.from = InetAddress.getByName(from);
        this.port = port;
        this.key = key;
        this.trickler = Thread.ofPlatform().daemon().name("hostile-trickle").start(this::trickle);
    }

    /** Opens {@code count} connections, the kinds in turn; returns how many the server accepted. */
    int open(int count) {
        int opened = 0;
        for (int i = 0; i < count; i++) {
            Kind kind = MIX[i % MIX.length];
            try {
                Socket socket = new Socket();
                all.add(socket);
                socket.bind(new InetSocketAddress(from, 0));
                socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 2000);
                start(socket, kind);
                opened++;
            } catch (IOException e) {
                // Refused or closed by the server: that is one of its defences.
            }
        }
        return opened;
    }

    private void start(Socket socket, Kind kind) throws IOException {
        OutputStream out = socket.getOutputStream();
        String body = "POST /api/suggest HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Content-Length: 60000\r\n";
        switch (kind) {
            case SLOW_HEADERS -> {
                out.write("POST /api/suggest HTTP/1.1\r\nHost: localhost\r\nX-Slow: "
                        .getBytes(StandardCharsets.US_ASCII));
                trickling.add(socket);
            }
            case SLOW_BODY -> {
                out.write((body + "\r\n{").getBytes(StandardCharsets.US_ASCII));
                trickling.add(socket);
            }
            case SLOW_BODY_WITH_KEY -> {
                out.write((body + "Authorization: Bearer " + key + "\r\n\r\n{").getBytes(StandardCharsets.US_ASCII));
                trickling.add(socket);
            }
            case IDLE -> {
                // Connected, says nothing.
            }
            case ABORTED -> {
                out.write((body + "Authorization: Bearer " + key + "\r\n\r\n{\"data\":")
                        .getBytes(StandardCharsets.US_ASCII));
                socket.setSoLinger(true, 0); // a reset, not a clean close
                socket.close();
            }
        }
        out.flush();
    }

    /** A byte a second on each open socket, spread over the second as independent clients would send it. */
    private void trickle() {
        for (long tick = 0; !closed; tick++) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                return;
            }
            int i = 0;
            for (Socket socket : trickling) {
                if (i++ % 10 == tick % 10) {
                    try {
                        socket.getOutputStream().write('x');
                    } catch (IOException e) {
                        trickling.remove(socket);
                    }
                }
            }
        }
    }

    /** How many hostile connections are still open from the client's side and trickling. */
    int trickling() {
        return trickling.size();
    }

    @Override
    public void close() {
        closed = true;
        trickler.interrupt();
        for (Socket socket : all) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // Closing anyway.
            }
        }
    }
}
