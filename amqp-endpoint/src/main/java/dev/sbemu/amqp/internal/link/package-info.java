/**
 * The links: the routing of attaches as a table of attach policies ({@link
 * dev.sbemu.amqp.internal.link.LinkRouter}, {@link dev.sbemu.amqp.internal.link.AttachPolicy}), the session accept, the
 * link kinds (senders, receivers, browsers, request and reply links), the worker threads and held calls, settlements,
 * and the owners the links share over connections: the served namespace, the held sessions, the open receivers. It
 * knows nothing of the nodes, JMS or HTTP: they register their rows into the table.
 *
 * <p><b>Internal API</b> of {@code amqp-endpoint}: public only so that the module's own packages can reach it. Nothing
 * outside {@code amqp-endpoint} may use it (the architecture test fails on such a use), and it changes without notice.
 */
package dev.sbemu.amqp.internal.link;
