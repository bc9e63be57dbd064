package dev.sbemu.sdk.internal;

import com.azure.messaging.servicebus.administration.models.CreateRuleOptions;
import com.azure.messaging.servicebus.administration.models.RuleProperties;
import com.azure.messaging.servicebus.implementation.ManagementConstants;
import com.azure.messaging.servicebus.implementation.MessageUtils;
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
import org.apache.qpid.proton.Proton;
import org.apache.qpid.proton.amqp.DescribedType;
import org.apache.qpid.proton.amqp.UnknownDescribedType;
import org.apache.qpid.proton.amqp.messaging.AmqpValue;

/**
 * Rules at the {@code $management} wire, both ways, with the SDK's own code at the client end:
 * <ul>
 *   <li>add-rule: {@code CreateRuleOptions} → the SDK's {@code MessageUtils.encodeRuleOptionToMap}
 *       (which also refuses what the SDK refuses) → AMQP bytes → core filter and action, parsed as the
 *       service parses them (a syntax error throws the core's {@code FilterSyntaxException});
 *   <li>enumerate-rules: core rule → the {@code com.microsoft:rule-description:list} described type
 *       the service sends → AMQP bytes → the SDK's {@code MessageUtils.decodeRuleDescribedType} →
 *       {@link RuleProperties}, exactly as the SDK builds them (a rule without action has a null action;
 *       true and false filters come back as {@code TrueRuleFilter} and {@code FalseRuleFilter}).
 * </ul>
 * The SQL texts {@code 1=1} and {@code 1=0} (what the SDK sends for its true and false filters) become
 * the core's true and false filters: on the wire the SDK's {@code TrueRuleFilter} is indistinguishable
 * from {@code new SqlRuleFilter("1=1")}.
 */
final class RuleCodec {
    private RuleCodec() {
    }

    /** The core rule for what the SDK sends to add {@code options} as {@code ruleName}. */
    static RuleDescription toCore(String ruleName, CreateRuleOptions options) {
        Map<String, Object> wire = roundTrip(MessageUtils.encodeRuleOptionToMap(ruleName, options));
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
        Map<String, Object> c = (Map<String, Object>) wire.get(ManagementConstants.CORRELATION_FILTER);
        Map<String, Object> properties = (Map<String, Object>) c.get(ManagementConstants.CORRELATION_FILTER_PROPERTIES);
        return new CorrelationFilter((String) c.get(ManagementConstants.CORRELATION_ID),
                (String) c.get(ManagementConstants.MESSAGE_ID), (String) c.get(ManagementConstants.TO),
                (String) c.get(ManagementConstants.REPLY_TO), (String) c.get(ManagementConstants.LABEL),
                (String) c.get(ManagementConstants.SESSION_ID), (String) c.get(ManagementConstants.REPLY_TO_SESSION_ID),
                (String) c.get(ManagementConstants.CONTENT_TYPE), properties);
    }

    private static SqlRuleAction action(Map<String, Object> wire) {
        Object action = wire.get(ManagementConstants.SQL_RULE_ACTION);
        if (action instanceof Map<?, ?> map) {
            return SqlRuleAction.parse((String) map.get(ManagementConstants.EXPRESSION));
        }
        return null;
    }

    /** The SDK's view of the rules, as it decodes the service's enumerate-rules answer. */
    @SuppressWarnings("unchecked")
    static List<RuleProperties> toSdk(List<RuleDescription> rules) {
        List<Map<String, Object>> entries = new ArrayList<>(rules.size());
        for (RuleDescription rule : rules) {
            entries.add(Map.of(ManagementConstants.RULE_DESCRIPTION, describe(rule)));
        }
        Map<String, Object> body = roundTrip(Map.of(ManagementConstants.RULES, entries));
        List<RuleProperties> result = new ArrayList<>(rules.size());
        for (Map<String, Object> entry : (List<Map<String, Object>>) body.get(ManagementConstants.RULES)) {
            result.add(MessageUtils.decodeRuleDescribedType(
                    (DescribedType) entry.get(ManagementConstants.RULE_DESCRIPTION)));
        }
        return result;
    }

    private static DescribedType describe(RuleDescription rule) {
        DescribedType action = rule.action() == null
                ? new UnknownDescribedType(ServiceBusConstants.EMPTY_RULE_ACTION_NAME, List.of())
                : new UnknownDescribedType(ServiceBusConstants.SQL_RULE_ACTION_NAME,
                List.of(rule.action().expression()));
        return new UnknownDescribedType(ServiceBusConstants.RULE_DESCRIPTION_NAME,
                List.of(describe(rule.filter()), action, rule.name()));
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

    /** Encodes {@code value} as an AMQP value body and decodes it again, as the link does. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> roundTrip(Map<String, Object> value) {
        org.apache.qpid.proton.message.Message message = Proton.message();
        message.setBody(new AmqpValue(value));
        return (Map<String, Object>) ((AmqpValue) WireCodec.roundTrip(message).getBody()).getValue();
    }
}
