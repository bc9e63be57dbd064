package dev.sbemu.core;

/** An entity property, name or message field outside what the service accepts (LIM-2, LOCK-1, ADI-2, ...). */
public final class InvalidOptionException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final String property;

    public InvalidOptionException(String property, Object value, String allowed) {
        super("Invalid " + property + " '" + value + "': " + allowed + ".");
        this.property = property;
    }

    /** The property whose value was refused. */
    public String property() {
        return property;
    }
}
