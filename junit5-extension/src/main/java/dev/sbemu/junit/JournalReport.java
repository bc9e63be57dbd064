package dev.sbemu.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.sbemu.core.Namespace;
import org.apiguardian.api.API;

/**
 * Attached to a failed test's exception as a suppressed exception: its message is the namespace's journal, so
 * that the failure report shows what happened on the bus. It has no stack trace of its own. The extension attaches it
 * to every failed test under {@link ServiceBusEmulator}; other test frameworks' integrations (sbemu's Spring support)
 * call {@link #attach} themselves.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class JournalReport extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private JournalReport(String message) {
        super(message, null, false, false);
    }

    /** Adds the journal of {@code namespace} to {@code failure}, unless it carries one already. */
    public static void attach(Throwable failure, Namespace namespace, String testName) {
        attach(failure, namespace, testName, null);
    }

    /**
     * As {@link #attach(Throwable, Namespace, String)}, naming the console's URL ({@code
     * <server.httpUrl()>/__admin/console/}) under the journal when {@code consoleUrl} is not null: the namespace's
     * endpoint serves it while it runs.
     */
    public static void attach(Throwable failure, Namespace namespace, String testName, String consoleUrl) {
        for (Throwable suppressed : failure.getSuppressed()) {
            if (suppressed instanceof JournalReport) {
                return;
            }
        }
        String events = namespace.journal().format();
        failure.addSuppressed(new JournalReport("Service Bus journal of " + testName + " (virtual time now "
                + namespace.clock().instant() + "):\n" + (events.isEmpty() ? "(no events)\n" : events)
                + (consoleUrl == null ? "" : "Console (while the endpoint runs): " + consoleUrl + "\n")));
    }

    @Override
    public String toString() {
        return getMessage();
    }
}
