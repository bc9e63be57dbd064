package dev.sbemu.wire.internal.admin;

import dev.sbemu.core.AuthorizationRule;
import dev.sbemu.core.AuthorizationRule.AccessRight;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.w3c.dom.Element;

/** A queue's or topic's {@code AuthorizationRules}: shared access rules, stored and returned (LIM-4). */
final class AuthorizationRulesXml {
    static final String ELEMENT = "AuthorizationRules";
    private static final String RULE = "AuthorizationRule";
    private static final String TYPE = "SharedAccessAuthorizationRule";
    private static final Set<String> FIELDS =
            Set.of("KeyName", "PrimaryKey", "SecondaryKey", "Rights", "CreatedTime", "ModifiedTime");
    /** Always SharedAccessKey and None for a shared access rule: reported, not stored. */
    private static final Set<String> FIXED = Set.of("ClaimType", "ClaimValue");

    private AuthorizationRulesXml() {}

    /** The rules of the element, or none when it is absent. */
    static List<AuthorizationRule> read(Element list) {
        List<AuthorizationRule> rules = new ArrayList<>();
        if (list == null) {
            return rules;
        }
        for (Element rule : Xml.children(list)) {
            if (!Xml.is(rule, Xml.SB, RULE)) {
                throw ManagementException.badRequest("Unknown element " + Xml.name(rule) + " in " + ELEMENT + ".");
            }
            String type = Xml.xsiType(rule);
            if (type != null && !TYPE.equals(type)) {
                throw ManagementException.badRequest(
                        "Unknown authorization rule type '" + type + "'; expected " + TYPE + ".");
            }
            rules.add(rule(Fields.of(rule, FIELDS, FIXED)));
        }
        return rules;
    }

    private static AuthorizationRule rule(Fields f) {
        String[] v = new String[5];
        f.text("KeyName", t -> v[0] = t);
        f.text("PrimaryKey", t -> v[1] = t);
        f.text("SecondaryKey", t -> v[2] = t);
        f.text("CreatedTime", t -> v[3] = t);
        f.text("ModifiedTime", t -> v[4] = t);
        Set<AccessRight> rights = EnumSet.noneOf(AccessRight.class);
        Element list = f.element("Rights");
        if (list != null) {
            for (Element right : Xml.children(list)) {
                if (!Xml.is(right, Xml.SB, "AccessRights")) {
                    throw ManagementException.badRequest("Unknown element " + Xml.name(right) + " in Rights.");
                }
                rights.add(right(right.getTextContent().trim()));
            }
        }
        return new AuthorizationRule(v[0] == null ? "" : v[0], v[1], v[2], rights, instant(v[3]), instant(v[4]));
    }

    private static AccessRight right(String text) {
        try {
            return AccessRight.valueOf(text.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw ManagementException.badRequest(
                    "Unknown access right '" + text + "'; expected Manage, Send or" + " Listen.");
        }
    }

    private static Instant instant(String text) {
        try {
            return text == null ? null : OffsetDateTime.parse(text.trim()).toInstant();
        } catch (DateTimeParseException e) {
            throw ManagementException.badRequest("'" + text + "' is not a valid date and time.");
        }
    }

    static void write(XmlOut out, List<AuthorizationRule> rules) {
        out.start(ELEMENT);
        for (AuthorizationRule rule : rules) {
            out.start(RULE).xsiType(TYPE);
            out.element("ClaimType", "SharedAccessKey");
            out.element("ClaimValue", "None");
            out.start("Rights");
            for (AccessRight right : rule.rights()) {
                String name = right.name();
                out.element("AccessRights", name.charAt(0) + name.substring(1).toLowerCase(Locale.ROOT));
            }
            out.end();
            out.element("CreatedTime", rule.createdAt());
            out.element("ModifiedTime", rule.modifiedAt());
            out.element("KeyName", rule.keyName());
            out.element("PrimaryKey", rule.primaryKey());
            out.element("SecondaryKey", rule.secondaryKey());
            out.end();
        }
        out.end();
    }
}
