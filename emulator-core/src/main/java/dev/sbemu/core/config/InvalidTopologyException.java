package dev.sbemu.core.config;

/**
 * A declared entity the emulator cannot create: a value outside the real service's limits, a name that exists
 * already, a forward target that does not exist, a malformed filter. The message names where the entity was
 * declared ({@link Origin}) and why; the cause is the core's exception.
 */
public final class InvalidTopologyException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public InvalidTopologyException(String message, Throwable cause) {
        super(message, cause);
    }

    public InvalidTopologyException(String message) {
        super(message);
    }
}
