package dev.sbemu.amqp.internal.transport;

import org.apache.qpid.proton.engine.Link;

/** A handler that belongs to one link: the connection detaches it on a goodbye and ends it with its session. */
public interface LinkBound extends LinkHandler {
    Link link();
}
