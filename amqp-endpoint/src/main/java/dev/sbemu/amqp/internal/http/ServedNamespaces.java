package dev.sbemu.amqp.internal.http;

import dev.sbemu.amqp.internal.security.NamespaceKeys;
import dev.sbemu.core.Namespace;
import java.util.List;
import java.util.Map;

/**
 * The namespaces one endpoint serves, as the HTTP side sees them: which one a request's token chooses and its key
 * policy ({@link #keys()}), each one's namespace and control routes, and the control API's create, list and delete
 * (spec NS-1, NS-5). Any thread.
 */
public interface ServedNamespaces {
    /** The key policies, and the namespace a token chooses. */
    NamespaceKeys keys();

    /** The namespace served under {@code name} now, or null when there is none. */
    Namespace namespace(String name);

    /** The control routes of the namespace {@code name} ({@code /__admin/namespaces/{name}/...}), or null. */
    AdminRoutes admin(String name);

    /** What the control API says of the namespace {@code name} (its connection string for a client that reached the
     * endpoint as {@code host}), or null when there is none. */
    Map<String, Object> describe(String name, String host);

    /** Every namespace, the default first, each as {@link #describe} says it. */
    List<Map<String, Object>> list(String host);

    /**
     * Creates the namespace {@code name} with the settings of {@code body} (see the control API's document); false
     * when one of that name exists already.
     *
     * @throws IllegalArgumentException for a bad name or setting
     */
    boolean create(String name, Map<String, Object> body);

    /**
     * Deletes the namespace {@code name}: its entities, messages, clock and faults end; false when there is none.
     *
     * @throws IllegalStateException for the default namespace, which cannot be deleted
     */
    boolean delete(String name);
}
