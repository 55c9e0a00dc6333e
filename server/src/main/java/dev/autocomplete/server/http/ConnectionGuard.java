package dev.autocomplete.server.http;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.concurrency.limits.Limit;
import io.helidon.common.socket.SocketOptions;
import io.helidon.common.task.InterruptableTask;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Headers;
import io.helidon.http.HttpPrologue;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.http1.Http1ConnectionListener;
import io.helidon.webserver.http1.Http1ConnectionSelector;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketOption;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Defences at the level of connections, which Helidon 4.5.0 lacks: it has only a per-read socket timeout (a byte
 * every few seconds defeats it), keeps a request's slot while it reads a body nobody will use, does not close a
 * connection after {@code Connection: close}, and closes sockets with unread bytes, which sends a reset that
 * loses the answer.
 *
 * <ul>
 * <li>A cap of connections per client address, checked when a connection is accepted (connections from a
 * trusted proxy are not capped: every client behind it shares its address). Refusals are counted for the
 * metrics and summarized in one log line a minute at most ({@link RefusedConnections}).</li>
 * <li>A watchdog thread with a deadline per connection: the request line and headers within the header timeout
 * (from the connection's opening for its first request, from the request line for later ones), the body within
 * the body timeout once the headers are in, and the next request of a kept-alive connection within the idle
 * timeout. Past a header or idle deadline the connection is closed; past a body deadline its input is shut, so
 * the read in progress ends and the request is answered {@code 408 REQUEST_TIMEOUT}.</li>
 * <li>An answer sent before the request's body was read (a refusal: credentials, rate limit, overload) carries
 * {@code Connection: close}: the request frees its slot at once instead of waiting for a body, and the
 * connection ends after the answer, as it does after a client's own {@code Connection: close}.</li>
 * <li>A connection ends gracefully: output shut (the client reads the answer and the end), up to
 * {@link #LINGER_BYTES} of what the client still sends read and discarded for at most {@link #LINGER}, then
 * closed.</li>
 * </ul>
 *
 * Helidon is reached through its public hooks: the listener's socket options (called for each accepted
 * socket), a connection selector wrapping HTTP/1.1 connections, HTTP/1.1 connection listeners (request line,
 * headers and answers) and a routing filter.
 */
public final class ConnectionGuard implements AutoCloseable {

    /** How long a closing connection reads and discards what its client still sends. */
    static final Duration LINGER = Duration.ofSeconds(2);

    /**
     * How much a closing connection reads and discards at most, and how much of a body past the limit is read
     * and discarded after its 413, so a client still sending gets the answer. A declared length beyond the limit
     * and this is refused before routing and the connection closed, as Helidon does at its payload limit.
     */
    public static final long LINGER_BYTES = 1024 * 1024;

    /** How often the watchdog looks at the deadlines. */
    static final long TICK_MILLIS = 100;

    private static final System.Logger LOG = System.getLogger(ConnectionGuard.class.getName());

    /** What a connection is waiting for; each has its own deadline. */
    private enum Phase {
        REQUEST,
        HEAD,
        BODY,
        HANDLER,
        BODY_EXPIRED,
        CLOSING
    }

    private final long headerNanos;
    private final long bodyNanos;
    private final long idleNanos;
    private final int perAddress;
    private final ClientAddresses trustedProxies;
    private final Map<SocketAddress, Tracked> connections = new ConcurrentHashMap<>();
    private final Map<ConnectionContext, Tracked> byContext = new ConcurrentHashMap<>();
    private final Map<InetAddress, AtomicInteger> openPerAddress = new ConcurrentHashMap<>();
    private final RefusedConnections refused = new RefusedConnections();
    private final Thread watchdog;
    private volatile boolean draining;
    private volatile boolean closed;

    /**
     * @param idleTimeout how long a kept-alive connection waits for its next request
     * @param perAddress connections at once from one address, 0 for no cap
     * @param trustedProxies who the reverse proxies are ({@code limits.trusted-proxies}): their connections are not
     *     capped
     */
    public ConnectionGuard(
            Duration headerTimeout,
            Duration bodyTimeout,
            Duration idleTimeout,
            int perAddress,
            ClientAddresses trustedProxies) {
        this.headerNanos = headerTimeout.toNanos();
        this.bodyNanos = bodyTimeout.toNanos();
        this.idleNanos = idleTimeout.toNanos();
        this.perAddress = perAddress;
        this.trustedProxies = trustedProxies;
        this.watchdog = Thread.ofPlatform().daemon().name("connection-watchdog").start(this::watch);
    }

    /** The listener's socket options, which also admit (or refuse) each accepted connection. */
    public SocketOptions socketOptions(SocketOptions base) {
        return new AdmittingOptions(base);
    }

    /** HTTP/1.1 with these defences, from the protocol's settings; the listeners it needs are added here. */
    public ServerConnectionSelector selector(Http1Config.Builder http1) {
        Http1ConnectionSelector http1Selector = Http1ConnectionSelector.builder()
                .config(http1.addReceiveListener(new RequestListener())
                        .addSendListener(new AnswerListener())
                        .build())
                .build();
        return new Selector(http1Selector);
    }

    /**
     * The tracked connection of a peer; none when the peer's address is gone (a client that closed its socket before
     * Helidon asked for it: {@code getRemoteAddress} is then null, and a map lookup of null throws).
     */
    private Tracked tracked(SocketAddress remote) {
        return remote == null ? null : connections.get(remote);
    }

    /** The routing filter that marks early answers {@code Connection: close}. */
    public Filter filter() {
        return this::filter;
    }

    /** Whether the body of this request was cut off at its deadline (then the request deserves a 408). */
    boolean bodyTimedOut(ServerRequest request) {
        Tracked tracked = tracked(request.remotePeer().address());
        return tracked != null && tracked.bodyTimedOut;
    }

    /**
     * Gives this request's body {@code timeout} from now instead of the listener's body deadline: for routes whose
     * bodies are meant to be large (a catalog of a million options). Called by the route before it reads.
     */
    void allowBody(ServerRequest request, Duration timeout) {
        Tracked tracked = tracked(request.remotePeer().address());
        if (tracked != null && tracked.phase == Phase.BODY) {
            long now = System.nanoTime();
            tracked.deadline = now + timeout.toNanos();
            // So long a deadline keeps the read timeout for each silence (docs/security.md): a client that stops
            // sending holds its request slot for that long, not for the whole deadline.
            tracked.progress = now;
            tracked.silenceNanos = idleNanos;
        }
    }

    /** Bytes of a body given {@link #allowBody} arrived: its silence counts from now. */
    void bodyProgress(ServerRequest request) {
        Tracked tracked = tracked(request.remotePeer().address());
        if (tracked != null) {
            tracked.progress = System.nanoTime();
        }
    }

    /** Connections refused over the per-address cap since the start, for the metrics. */
    public long refusedConnections() {
        return refused.total();
    }

    /** From now on every answer closes its connection, so clients come back on new ones during a shutdown. */
    public void drain() {
        draining = true;
    }

    @Override
    public void close() {
        closed = true;
        watchdog.interrupt();
    }

    private void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
        Tracked tracked = tracked(request.remotePeer().address());
        if (tracked != null) {
            tracked.request = request;
        }
        response.beforeSend(() -> {
            // A 413 keeps its connection when the rest of the body is at most LINGER_BYTES: Helidon reads and
            // discards it (within the body deadline), so a client still sending gets its answer on an open
            // connection. A longer body ends the connection after the answer (refusedLength, refusedPastLimit).
            boolean refused = response.status().code() == 413;
            boolean bodyUnread = !refused
                    && request.content().hasEntity()
                    && !request.content().consumed();
            boolean tooLong =
                    refused && request.context().get(BodyTooLong.class).isPresent();
            if (draining || bodyUnread || tooLong) {
                response.header(HeaderValues.CONNECTION_CLOSE);
            }
        });
        chain.proceed();
    }

    /** On a request's context: its declared body is too long to read and discard after its 413. */
    private record BodyTooLong() {}

    /**
     * A body refused for its declared length (413). Helidon's own cap on a body is the largest route limit (the
     * catalog writes') and {@link #LINGER_BYTES}; under it, up to {@link #LINGER_BYTES} past this route's
     * {@code limit} is read and discarded after the answer so the connection stays open, and a longer declared
     * body ends the connection after the answer instead of being read to its end.
     */
    void refusedLength(ServerRequest request, long declared, long limit) {
        if (declared > limit + LINGER_BYTES) {
            request.context().register(new BodyTooLong());
        }
    }

    /**
     * A chunked body read to one byte past its route's {@code limit} (413), whose length nobody declared: what
     * follows is read from {@code rest} and discarded here while the body stays within {@link #LINGER_BYTES} past
     * the limit, so such a client keeps its connection, as with a declared length ({@link #refusedLength}); a longer
     * body ends the connection after the answer. Left to Helidon, the rest would be read to its own cap, the
     * largest route limit (the catalog writes' 64 MiB) and a mebibyte: a route of a few kilobytes read megabytes.
     */
    void refusedPastLimit(ServerRequest request, InputStream rest) throws IOException {
        byte[] discard = new byte[8192];
        long read = 0;
        while (read < LINGER_BYTES) {
            int n = rest.read(discard, 0, (int) Math.min(discard.length, LINGER_BYTES - read));
            if (n < 0) {
                return;
            }
            read += n;
        }
        request.context().register(new BodyTooLong());
    }

    /** One connection's state, written by its own thread and read by the watchdog. */
    private final class Tracked {
        final SocketChannel channel;
        final SocketAddress remote;
        final InetAddress counted;
        volatile Phase phase;
        volatile long deadline;
        volatile ServerConnection connection;
        volatile ServerRequest request;
        volatile boolean clientAskedClose;
        volatile boolean bodyTimedOut;
        volatile boolean answered;
        /** How long a body given {@link #allowBody} may stay silent (0: only its deadline counts), and since when. */
        volatile long silenceNanos;

        volatile long progress;

        Tracked(SocketChannel channel, SocketAddress remote, InetAddress counted) {
            this.channel = channel;
            this.remote = remote;
            this.counted = counted;
            enter(Phase.REQUEST, headerNanos);
        }

        void enter(Phase next, long nanos) {
            deadline = nanos == Long.MAX_VALUE ? Long.MAX_VALUE : System.nanoTime() + nanos;
            silenceNanos = 0;
            phase = next;
        }

        boolean expired(long now) {
            return (deadline != Long.MAX_VALUE && now - deadline > 0)
                    || (silenceNanos > 0 && phase == Phase.BODY && now - progress > silenceNanos);
        }

        /**
         * Output shut, then what the client still sends read and discarded (bounded), then closed: closing with
         * unread bytes would send a reset, and the client's TCP stack could drop the answer it had not read yet.
         */
        void closeGracefully() {
            if (!channel.isOpen()) {
                return;
            }
            enter(Phase.CLOSING, LINGER.toNanos() + TimeUnit.SECONDS.toNanos(1));
            try {
                channel.shutdownOutput();
                Socket socket = channel.socket();
                InputStream in = socket.getInputStream();
                byte[] discard = new byte[8192];
                long end = System.nanoTime() + LINGER.toNanos();
                long read = 0;
                while (read < LINGER_BYTES) {
                    long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
                    if (left <= 0) {
                        break;
                    }
                    socket.setSoTimeout((int) left);
                    int n = in.read(discard);
                    if (n < 0) {
                        break;
                    }
                    read += n;
                }
            } catch (IOException e) {
                // Reset, timed out or closed by the watchdog: closing anyway.
            } finally {
                closeQuietly();
            }
        }

        void closeQuietly() {
            try {
                channel.close();
            } catch (IOException e) {
                // Closed anyway.
            }
        }

        void shutdownInput() {
            try {
                channel.shutdownInput();
            } catch (IOException e) {
                closeQuietly();
            }
        }
    }

    private void forget(Tracked tracked) {
        if (connections.remove(tracked.remote, tracked) && tracked.counted != null) {
            openPerAddress.computeIfPresent(
                    tracked.counted, (address, count) -> count.decrementAndGet() <= 0 ? null : count);
        }
    }

    /** Admits an accepted connection: under the cap of its address, it is tracked; over it, closed at once. */
    private void admit(SocketChannel channel) throws IOException {
        SocketAddress remote = channel.getRemoteAddress();
        InetAddress address = remote instanceof InetSocketAddress inet ? inet.getAddress() : null;
        InetAddress counted = perAddress > 0 && address != null && !trustedProxies.trusted(address) ? address : null;
        if (counted != null) {
            AtomicInteger count = openPerAddress.compute(counted, (a, c) -> c == null ? new AtomicInteger() : c);
            if (count.incrementAndGet() > perAddress) {
                openPerAddress.computeIfPresent(counted, (a, c) -> c.decrementAndGet() <= 0 ? null : c);
                refused.refused(counted); // counted and summarized by the watchdog, never logged one by one
                // Helidon closes the socket when this throws; the client sees its connection end at once.
                throw new IOException("more than " + perAddress + " connections from one address");
            }
        }
        Tracked tracked = new Tracked(channel, remote, counted);
        Tracked previous = connections.put(remote, tracked);
        if (previous != null) {
            forget(previous); // its socket was closed without Helidon reaching it
            connections.put(remote, tracked);
        }
    }

    private void watch() {
        while (!closed) {
            try {
                Thread.sleep(TICK_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            for (Tracked tracked : connections.values()) {
                try {
                    if (!tracked.channel.isOpen()) {
                        forget(tracked); // closed before Helidon handed it to a connection (a TLS failure, say)
                    } else if (tracked.expired(now)) {
                        expire(tracked);
                    }
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "Connection watchdog: " + e);
                }
            }
            refused.summary(now, perAddress).ifPresent(line -> LOG.log(System.Logger.Level.WARNING, line));
        }
    }

    private void expire(Tracked tracked) {
        switch (tracked.phase) {
            case BODY -> {
                ServerRequest request = tracked.request;
                if (request != null && request.content().consumed()) {
                    tracked.enter(Phase.HANDLER, Long.MAX_VALUE); // the body is in; the handler is at work
                } else {
                    tracked.bodyTimedOut = true;
                    tracked.enter(Phase.BODY_EXPIRED, idleNanos);
                    // The read waiting for the body ends; the request is answered 408 and the connection closed.
                    tracked.shutdownInput();
                }
            }
            // Waiting for a request: the end of input ends the connection quietly (Helidon sees a client that left).
            case REQUEST -> {
                tracked.enter(Phase.CLOSING, LINGER.toNanos() + TimeUnit.SECONDS.toNanos(1));
                tracked.shutdownInput();
            }
            case HANDLER -> {
                // No deadline: engine budgets bound the handler.
            }
            // Within a request line or headers, or stuck closing: closed outright.
            case HEAD, BODY_EXPIRED, CLOSING -> tracked.closeQuietly();
        }
    }

    /**
     * Whether the headers carry {@code Connection: close}, as {@code Headers.containsToken} answers it (a token of any
     * value, case aside), without the stream it splits every value through, on every request and every answer.
     */
    static boolean asksClose(Headers headers) {
        if (!headers.contains(HeaderNames.CONNECTION)) {
            return false;
        }
        for (String value : headers.get(HeaderNames.CONNECTION).allValues()) {
            int start = 0;
            while (start <= value.length()) {
                int comma = value.indexOf(',', start);
                int end = comma < 0 ? value.length() : comma;
                int from = start;
                int to = end;
                while (from < to && Character.isWhitespace(value.charAt(from))) {
                    from++;
                }
                while (to > from && Character.isWhitespace(value.charAt(to - 1))) {
                    to--;
                }
                if (to - from == 5 && value.regionMatches(true, from, "close", 0, 5)) {
                    return true;
                }
                start = end + 1;
            }
        }
        return false;
    }

    /** Sees each request line and request headers: the deadlines of the head and the body. */
    private final class RequestListener implements Http1ConnectionListener {
        @Override
        public void prologue(ConnectionContext ctx, HttpPrologue prologue) {
            Tracked tracked = byContext.get(ctx);
            if (tracked != null) {
                tracked.request = null;
                tracked.bodyTimedOut = false;
                if (tracked.answered) {
                    tracked.enter(Phase.HEAD, headerNanos);
                } else {
                    tracked.phase = Phase.HEAD; // the first request's head counts from the connection's opening
                }
            }
        }

        @Override
        public void headers(ConnectionContext ctx, Headers headers) {
            Tracked tracked = byContext.get(ctx);
            if (tracked != null) {
                tracked.clientAskedClose = asksClose(headers);
                boolean body = hasBody(headers);
                tracked.enter(body ? Phase.BODY : Phase.HANDLER, body ? bodyNanos : Long.MAX_VALUE);
            }
        }

        private static boolean hasBody(Headers headers) {
            if (headers.contains(HeaderNames.TRANSFER_ENCODING)) {
                return true;
            }
            try {
                return headers.contentLength().orElse(0) > 0;
            } catch (IllegalArgumentException e) {
                return true; // Helidon refuses it; a deadline does no harm meanwhile
            }
        }
    }

    /** Sees each answer leave: the connection ends after it, or waits for its next request. */
    private final class AnswerListener implements Http1ConnectionListener {
        @Override
        public void headers(ConnectionContext ctx, Headers headers) {
            Tracked tracked = byContext.get(ctx);
            if (tracked == null) {
                return;
            }
            // Phase REQUEST: Helidon refused the request line itself (414 past http1 max-prologue-length, a
            // malformed line) and ends the connection after this answer on its own. Closing here would interrupt its
            // thread, still marked as reading the request line, and the write of the answer: a reset instead of it.
            boolean requestLineRefused = tracked.phase == Phase.REQUEST;
            if (!requestLineRefused && (tracked.clientAskedClose || tracked.bodyTimedOut || asksClose(headers))) {
                // Ends Helidon's loop once this answer is written (it would read the next request otherwise).
                ServerConnection connection = tracked.connection;
                if (connection != null) {
                    connection.close(false);
                }
            }
            tracked.answered = true;
            tracked.enter(Phase.REQUEST, idleNanos);
        }
    }

    /** Wraps Helidon's HTTP/1.1 connections in {@link GuardedConnection}s. */
    private final class Selector implements ServerConnectionSelector {
        private final ServerConnectionSelector http1;

        Selector(ServerConnectionSelector http1) {
            this.http1 = http1;
        }

        @Override
        public int bytesToIdentifyConnection() {
            return http1.bytesToIdentifyConnection();
        }

        @Override
        public Support supports(BufferData data) {
            return http1.supports(data);
        }

        @Override
        public Set<String> supportedApplicationProtocols() {
            return http1.supportedApplicationProtocols();
        }

        @Override
        public ServerConnection connection(ConnectionContext ctx) {
            ServerConnection connection = http1.connection(ctx);
            Tracked tracked = tracked(ctx.remotePeer().address());
            if (tracked == null) {
                return connection;
            }
            tracked.connection = connection;
            byContext.put(ctx, tracked);
            return new GuardedConnection(connection, tracked, ctx);
        }
    }

    /** Helidon's connection, ended gracefully and forgotten by the guard when it is done. */
    private final class GuardedConnection implements ServerConnection, InterruptableTask<Void> {
        private final ServerConnection delegate;
        private final Tracked tracked;
        private final ConnectionContext ctx;

        GuardedConnection(ServerConnection delegate, Tracked tracked, ConnectionContext ctx) {
            this.delegate = delegate;
            this.tracked = tracked;
            this.ctx = ctx;
        }

        @Override
        public void handle(Limit limit) throws InterruptedException {
            try {
                delegate.handle(limit);
            } finally {
                byContext.remove(ctx);
                tracked.closeGracefully();
                forget(tracked);
            }
        }

        @Override
        public Duration idleTime() {
            return delegate.idleTime();
        }

        @Override
        public void close(boolean interrupt) {
            delegate.close(interrupt);
        }

        @Override
        public boolean canInterrupt() {
            return delegate instanceof InterruptableTask<?> task && task.canInterrupt();
        }
    }

    /** The configured socket options, plus admission of each accepted connection. */
    private final class AdmittingOptions implements SocketOptions {
        private final SocketOptions base;

        AdmittingOptions(SocketOptions base) {
            this.base = base;
        }

        @Override
        public void configureSocket(SocketChannel socket) {
            base.configureSocket(socket);
            try {
                admit(socket);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        @Override
        public void configureSocket(Socket socket) {
            base.configureSocket(socket);
        }

        @Override
        public Map<SocketOption<?>, Object> socketOptions() {
            return base.socketOptions();
        }

        @Override
        public Duration connectTimeout() {
            return base.connectTimeout();
        }

        @Override
        public Duration readTimeout() {
            return base.readTimeout();
        }

        @Override
        public Optional<Integer> socketReceiveBufferSize() {
            return base.socketReceiveBufferSize();
        }

        @Override
        public Optional<Integer> socketSendBufferSize() {
            return base.socketSendBufferSize();
        }

        @Override
        public boolean socketReuseAddress() {
            return base.socketReuseAddress();
        }

        @Override
        public boolean socketKeepAlive() {
            return base.socketKeepAlive();
        }

        @Override
        public boolean tcpNoDelay() {
            return base.tcpNoDelay();
        }
    }
}
