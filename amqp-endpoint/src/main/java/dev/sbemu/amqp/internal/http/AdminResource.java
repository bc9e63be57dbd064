package dev.sbemu.amqp.internal.http;

/** One resource of the control API under {@code /__admin/}: answers the requests routed to it ({@link AdminRoutes}). */
interface AdminResource {
    /**
     * Answers {@code request}; a refusal is thrown ({@link AdminRoutes.Refusal}, {@link IllegalArgumentException} for
     * bad input, a broker failure), never answered here.
     */
    AdminRoutes.Answer handle(AdminRequest request);
}
