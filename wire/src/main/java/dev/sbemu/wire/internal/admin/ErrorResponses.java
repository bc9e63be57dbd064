package dev.sbemu.wire.internal.admin;

import dev.sbemu.core.BrokerException;
import dev.sbemu.core.InvalidOptionException;
import dev.sbemu.core.filter.FilterSyntaxException;

/**
 * Turns a refused operation into the status the service answers with: 404 for an unknown entity, 409
 * for an existing one, 400 for invalid values (LIM-3), 403 for quota, 500 for an emulator fault.
 */
final class ErrorResponses {
    private ErrorResponses() {}

    static ManagementResponse from(RuntimeException e) {
        if (e instanceof ManagementException m) {
            return ManagementResponse.error(m.status(), m.getMessage());
        }
        if (e instanceof BrokerException.EntityNotFound) {
            return ManagementResponse.error(404, e.getMessage());
        }
        if (e instanceof BrokerException.EntityAlreadyExists) {
            return ManagementResponse.error(409, e.getMessage());
        }
        if (e instanceof BrokerException.QuotaExceeded) {
            return ManagementResponse.error(403, e.getMessage());
        }
        if (e instanceof FilterSyntaxException) {
            return ManagementResponse.error(400, "Invalid SQL expression: " + e.getMessage());
        }
        if (e instanceof InvalidOptionException
                || e instanceof BrokerException
                || e instanceof IllegalArgumentException) {
            return ManagementResponse.error(400, e.getMessage());
        }
        return ManagementResponse.error(500, "Internal emulator error: " + e);
    }
}
