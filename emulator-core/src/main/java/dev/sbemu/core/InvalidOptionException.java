package dev.sbemu.core;

/** An entity property, name or message field outside what the service accepts (LIM-2, LOCK-1, ADI-2, ...). */
public final class InvalidOptionException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final String property;

    public InvalidOptionException(String property, Object value, String allowed) {
        this(property, "Invalid " + property + " '" + value + "': " + allowed + ".");
    }

    private InvalidOptionException(String property, String message) {
        super(message);
        this.property = property;
    }

    /** A refusal whose whole message is the service's own words (an immutable property changed, ...). */
    public static InvalidOptionException withMessage(String property, String message) {
        return new InvalidOptionException(property, message);
    }

    /** The property whose value was refused. */
    public String property() {
        return property;
    }
}
