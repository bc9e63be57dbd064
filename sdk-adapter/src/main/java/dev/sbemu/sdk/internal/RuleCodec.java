package dev.sbemu.sdk.internal;

import com.azure.messaging.servicebus.administration.models.CreateRuleOptions;
import com.azure.messaging.servicebus.administration.models.RuleProperties;
import com.azure.messaging.servicebus.implementation.ManagementConstants;
import com.azure.messaging.servicebus.implementation.MessageUtils;
import dev.sbemu.core.RuleDescription;
import dev.sbemu.wire.AmqpMessages;
import dev.sbemu.wire.AmqpRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.qpid.proton.Proton;
import org.apache.qpid.proton.amqp.DescribedType;
import org.apache.qpid.proton.amqp.messaging.AmqpValue;
import org.apache.qpid.proton.message.Message;

/**
 * Rules at the {@code $management} wire, both ways, with the SDK's own code at the client end:
 * <ul>
 *   <li>add-rule: {@code CreateRuleOptions} → the SDK's {@code MessageUtils.encodeRuleOptionToMap}
 *       (which also refuses what the SDK refuses) → AMQP bytes → core filter and action
 *       ({@link AmqpRules#fromWire});
 *   <li>enumerate-rules: core rules → the service's answer ({@link AmqpRules#toWire}) → AMQP bytes →
 *       the SDK's {@code MessageUtils.decodeRuleDescribedType} → {@link RuleProperties}, exactly as the
 *       SDK builds them (a rule without action has a null action; true and false filters come back as
 *       {@code TrueRuleFilter} and {@code FalseRuleFilter}).
 * </ul>
 */
final class RuleCodec {
    private RuleCodec() {}

    /** The core rule for what the SDK sends to add {@code options} as {@code ruleName}. */
    static RuleDescription toCore(String ruleName, CreateRuleOptions options) {
        return AmqpRules.fromWire(ruleName, roundTrip(MessageUtils.encodeRuleOptionToMap(ruleName, options)));
    }

    /** The SDK's view of the rules, as it decodes the service's enumerate-rules answer. */
    @SuppressWarnings("unchecked")
    static List<RuleProperties> toSdk(List<RuleDescription> rules) {
        Map<String, Object> body = roundTrip(AmqpRules.toWire(rules));
        List<RuleProperties> result = new ArrayList<>(rules.size());
        for (Map<String, Object> entry : (List<Map<String, Object>>) body.get(ManagementConstants.RULES)) {
            result.add(MessageUtils.decodeRuleDescribedType(
                    (DescribedType) entry.get(ManagementConstants.RULE_DESCRIPTION)));
        }
        return result;
    }

    /** Encodes {@code value} as an AMQP value body and decodes it again, as the link does. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> roundTrip(Map<String, Object> value) {
        Message message = Proton.message();
        message.setBody(new AmqpValue(value));
        return (Map<String, Object>)
                ((AmqpValue) AmqpMessages.roundTrip(message).getBody()).getValue();
    }
}
