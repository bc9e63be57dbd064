package dev.sbemu.amqp.internal.transport;

import java.util.List;

/**
 * What is open on the wire now, for diagnostics (the control API's {@code /__admin/connections}, spec CON-10): each
 * connection with its links as the loop sees them. A snapshot taken on the loop thread ({@link EventLoop#traffic}),
 * bounded: at most {@link #MAX_CONNECTIONS} connections and {@link #MAX_LINKS} links in all, each text (which a client
 * chose: a link's name, an address, a container id) cut at {@link #MAX_TEXT} characters.
 *
 * @param connections the connections, oldest first
 * @param truncated whether connections or links were left out past the bounds
 */
public record Traffic(List<Connection> connections, boolean truncated) {
    /** The most connections one snapshot lists. */
    public static final int MAX_CONNECTIONS = 1000;

    /** The most links one snapshot lists, over all its connections. */
    public static final int MAX_LINKS = 2000;

    /** The most characters of a text a client chose that a snapshot keeps. */
    public static final int MAX_TEXT = 256;

    /** {@code text} cut at {@link #MAX_TEXT} characters (with an ellipsis), or null. */
    static String clip(String text) {
        return text == null || text.length() <= MAX_TEXT ? text : text.substring(0, MAX_TEXT) + "\u2026";
    }

    /**
     * One connection.
     *
     * @param id the loop's number for it, stable while it is open
     * @param client the client's address
     * @param containerId the container id of the client's open, or null before it
     * @param hostname the host name of the client's open, or null
     * @param namespace the namespace its credentials chose, or null before any was accepted
     * @param authorized whether a token or key was accepted
     * @param tls whether it came on the TLS port
     * @param openedAt when it was accepted, the wall clock's instant as ISO-8601 text
     * @param links its attached links
     */
    public record Connection(
            long id,
            String client,
            String containerId,
            String hostname,
            String namespace,
            boolean authorized,
            boolean tls,
            String openedAt,
            List<Link> links) {}

    /**
     * One attached link, as the client sees it.
     *
     * @param name the link's name
     * @param role {@code receiver} (the client takes messages: the endpoint sends) or {@code sender}
     * @param address the address the client attached to (a receiver's source, a sender's target), as sent
     * @param receiveMode a receiver's mode, {@code PEEK_LOCK} or {@code RECEIVE_AND_DELETE} (settled on send); null
     *     for a sender
     * @param sessionId the session a receiver asked for (its session filter), or null
     * @param credit the credit left: for a receiver what the client granted the endpoint, for a sender what the
     *     endpoint granted the client
     * @param unsettled the deliveries not settled yet on the link
     */
    public record Link(
            String name,
            String role,
            String address,
            String receiveMode,
            String sessionId,
            int credit,
            int unsettled) {}
}
