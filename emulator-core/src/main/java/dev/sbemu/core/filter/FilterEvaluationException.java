package dev.sbemu.core.filter;

/**
 * An error of a SQL filter or action expression evaluated against one message (RUL-8), such as an
 * integer division by zero. The service reports it as the .NET exception it is: a subscription with
 * {@code deadLetteringOnFilterEvaluationExceptions} dead-letters the message with
 * {@code DeadLetterReason} = {@link #reason()} (the exception's type name) and
 * {@code DeadLetterErrorDescription} = {@link #getMessage()}; without it the message is not copied in.
 */
public final class FilterEvaluationException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String reason;

    FilterEvaluationException(String reason, String description) {
        super(description, null, false, false);
        this.reason = reason;
    }

    /** An integer division or remainder by zero ({@code DivideByZeroException} in the service). */
    static FilterEvaluationException divideByZero() {
        return new FilterEvaluationException("DivideByZeroException", "Attempted to divide by zero.");
    }

    /** The .NET exception type name the service reports as the dead-letter reason. */
    public String reason() {
        return reason;
    }
}
