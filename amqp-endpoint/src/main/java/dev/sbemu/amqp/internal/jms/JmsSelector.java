package dev.sbemu.amqp.internal.jms;

import java.util.Map;

/**
 * A JMS message selector as a Service Bus SQL filter expression: the JMS header names that have a Service Bus
 * system property are replaced by it ({@code JMSMessageID} → {@code sys.MessageId}, {@code JMSCorrelationID} →
 * {@code sys.CorrelationId}, {@code JMSType} → {@code sys.Label}, {@code JMSReplyTo} → {@code sys.ReplyTo},
 * {@code JMSDestination} → {@code sys.To}); everything else (property names, literals, operators) is left as it is,
 * and the SQL filter grammar reads it (JMS-20). JMS identifiers are case-sensitive, so only the exact header names
 * are replaced; text in string literals and quoted identifiers is never touched.
 */
final class JmsSelector {
    private static final Map<String, String> HEADERS = Map.of(
            "JMSMessageID", "sys.MessageId",
            "JMSCorrelationID", "sys.CorrelationId",
            "JMSType", "sys.Label",
            "JMSReplyTo", "sys.ReplyTo",
            "JMSDestination", "sys.To");

    private JmsSelector() {}

    /** {@code selector} with its JMS header names replaced by the system properties they stand for. */
    static String toSqlFilter(String selector) {
        StringBuilder out = new StringBuilder(selector.length() + 16);
        int i = 0;
        int n = selector.length();
        while (i < n) {
            char c = selector.charAt(i);
            if (c == '\'' || c == '"' || c == '[') {
                char close = c == '[' ? ']' : c;
                int end = i + 1;
                while (end < n) {
                    if (selector.charAt(end) == close) {
                        if (close != ']' && end + 1 < n && selector.charAt(end + 1) == close) {
                            end += 2; // a doubled quote inside the literal
                            continue;
                        }
                        break;
                    }
                    end++;
                }
                end = Math.min(end + 1, n);
                out.append(selector, i, end);
                i = end;
            } else if (Character.isJavaIdentifierStart(c)) {
                int end = i + 1;
                while (end < n
                        && (Character.isJavaIdentifierPart(selector.charAt(end)) || selector.charAt(end) == '.')) {
                    end++;
                }
                String word = selector.substring(i, end);
                out.append(HEADERS.getOrDefault(word, word));
                i = end;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }
}
