package dev.sbemu.core.internal.config;

import dev.sbemu.core.config.Origin;
import java.util.Map;

/**
 * An entity declared in a Config.json file at a JSON path such as {@code UserConfig.Namespaces[0].Queues[2]}.
 *
 * @param file the file, as shown to the user
 * @param path the entity's JSON path
 */
record JsonOrigin(String file, String path) implements Origin {
    private static final Map<String, String> KEYS = Map.of(
            "name",
            "Name",
            "queue name",
            "Name",
            "topic name",
            "Name",
            "subscription name",
            "Name",
            "rule name",
            "Name",
            "sql",
            "Properties.SqlFilter.SqlExpression",
            "action",
            "Properties.Action.SqlExpression");

    @Override
    public String describe(String property) {
        return file + ": " + path + (property == null ? "" : "." + keyOf(property));
    }

    private static String keyOf(String property) {
        String key = KEYS.get(property);
        if (key != null) {
            return key;
        }
        return "Properties." + Character.toUpperCase(property.charAt(0)) + property.substring(1);
    }
}
