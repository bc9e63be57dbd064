package dev.sbemu.wire;

import com.azure.messaging.servicebus.implementation.ManagementConstants;
import com.azure.messaging.servicebus.implementation.ServiceBusConstants;
import dev.sbemu.core.RuleDescription;
import dev.sbemu.core.filter.CorrelationFilter;
import dev.sbemu.core.filter.FalseFilter;
import dev.sbemu.core.filter.RuleFilter;
import dev.sbemu.core.filter.SqlFilter;
import dev.sbemu.core.filter.SqlRuleAction;
import dev.sbemu.core.filter.TrueFilter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.qpid.proton.amqp.DescribedType;
import org.apache.qpid.proton.amqp.UnknownDescribedType;

/**
 * Rules at the {@code $management} wire, both ways: the {@code rule-description} map a client sends with
 * add-rule, and the {@code com.microsoft:rule-description:list} described types the service answers
 * enumerate-rules with. Shared by the in-process rule manager ({@code internal.RuleCodec}, which adds the
 * SDK's encoder and decoder at the client end) and the AMQP endpoint. Not a user API.
 *
 * <p>The SQL texts {@code 1=1} and {@code 1=0} (what the SDK sends for its true and false filters) become
 * the core's true and false filters: on the wire the SDK's {@code TrueRuleFilter} is indistinguishable
 * from {@code new SqlRuleFilter("1=1")}.
 */
public final class AmqpRules {
    private AmqpRules() {}

    /**
     * The core rule for the {@code rule-description} map of an add-rule request, parsed as the service
     * parses it (a syntax error throws the core's {@code FilterSyntaxException}).
     *
     * @throws IllegalArgumentException when the map has neither a SQL nor a correlation filter
     */
    public static RuleDescription fromWire(String ruleName, Map<String, Object> wire) {
        return new RuleDescription(ruleName, filter(wire), action(wire));
    }

    @SuppressWarnings("unchecked")
    private static RuleFilter filter(Map<String, Object> wire) {
        Object sql = wire.get(ManagementConstants.SQL_RULE_FILTER);
        if (sql instanceof Map<?, ?> map) {
            String expression = (String) map.get(ManagementConstants.EXPRESSION);
            if (TrueFilter.EXPRESSION.equals(expression)) {
                return new TrueFilter();
            }
            if ("1=0".equals(expression)) {
                return new FalseFilter();
            }
            return SqlFilter.parse(expression);
        }
        if (!(wire.get(ManagementConstants.CORRELATION_FILTER) instanceof Map<?, ?>)) {
            throw new IllegalArgumentException("The rule description has neither a '"
                    + ManagementConstants.SQL_RULE_FILTER + "' nor a '" + ManagementConstants.CORRELATION_FILTER
                    + "' filter.");
        }
        Map<String, Object> c = (Map<String, Object>) wire.get(ManagementConstants.CORRELATION_FILTER);
        Map<String, Object> properties = (Map<String, Object>) c.get(ManagementConstants.CORRELATION_FILTER_PROPERTIES);
        return new CorrelationFilter(
                (String) c.get(ManagementConstants.CORRELATION_ID),
                (String) c.get(ManagementConstants.MESSAGE_ID),
                (String) c.get(ManagementConstants.TO),
                (String) c.get(ManagementConstants.REPLY_TO),
                (String) c.get(ManagementConstants.LABEL),
                (String) c.get(ManagementConstants.SESSION_ID),
                (String) c.get(ManagementConstants.REPLY_TO_SESSION_ID),
                (String) c.get(ManagementConstants.CONTENT_TYPE),
                properties == null ? Map.of() : properties);
    }

    private static SqlRuleAction action(Map<String, Object> wire) {
        Object action = wire.get(ManagementConstants.SQL_RULE_ACTION);
        if (action instanceof Map<?, ?> map) {
            return SqlRuleAction.parse((String) map.get(ManagementConstants.EXPRESSION));
        }
        return null;
    }

    /** The body of the service's enumerate-rules answer for {@code rules}. */
    public static Map<String, Object> toWire(List<RuleDescription> rules) {
        List<Map<String, Object>> entries = new ArrayList<>(rules.size());
        for (RuleDescription rule : rules) {
            entries.add(Map.of(ManagementConstants.RULE_DESCRIPTION, describe(rule)));
        }
        return Map.of(ManagementConstants.RULES, entries);
    }

    private static DescribedType describe(RuleDescription rule) {
        DescribedType action = rule.action() == null
                ? new UnknownDescribedType(ServiceBusConstants.EMPTY_RULE_ACTION_NAME, List.of())
                : new UnknownDescribedType(
                        ServiceBusConstants.SQL_RULE_ACTION_NAME,
                        List.of(rule.action().expression()));
        return new UnknownDescribedType(
                ServiceBusConstants.RULE_DESCRIPTION_NAME, List.of(describe(rule.filter()), action, rule.name()));
    }

    private static DescribedType describe(RuleFilter filter) {
        if (filter instanceof TrueFilter) {
            return new UnknownDescribedType(ServiceBusConstants.TRUE_FILTER_NAME, List.of(TrueFilter.EXPRESSION));
        }
        if (filter instanceof FalseFilter) {
            return new UnknownDescribedType(ServiceBusConstants.FALSE_FILTER_NAME, List.of("1=0"));
        }
        if (filter instanceof SqlFilter sql) {
            return new UnknownDescribedType(ServiceBusConstants.SQL_FILTER_NAME, List.of(sql.expression()));
        }
        CorrelationFilter c = (CorrelationFilter) filter;
        List<Object> fields = new ArrayList<>(9);
        fields.add(c.correlationId());
        fields.add(c.messageId());
        fields.add(c.to());
        fields.add(c.replyTo());
        fields.add(c.subject());
        fields.add(c.sessionId());
        fields.add(c.replyToSessionId());
        fields.add(c.contentType());
        fields.add(new LinkedHashMap<>(c.properties()));
        return new UnknownDescribedType(ServiceBusConstants.CORRELATION_FILTER_NAME, fields);
    }
}
