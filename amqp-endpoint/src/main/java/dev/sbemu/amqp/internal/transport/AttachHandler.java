package dev.sbemu.amqp.internal.transport;

import org.apache.qpid.proton.amqp.transport.ErrorCondition;
import org.apache.qpid.proton.engine.Link;

/**
 * What a connection hands its clients' attaches to (the link routing): it answers each attach, opening the link with
 * a {@link LinkHandler} in its context or refusing it. Loop thread only.
 */
public interface AttachHandler {
    /** Answers the client's attach of {@code link}. */
    void attach(Link link);

    /** Answers the attach of {@code link} with a refusal: attached with no source or target, then detached. */
    void refuse(Link link, ErrorCondition error);
}
