package dev.sbemu.wire.internal.admin;

import dev.sbemu.core.RuleDescription;
import dev.sbemu.core.filter.CorrelationFilter;
import dev.sbemu.core.filter.FalseFilter;
import dev.sbemu.core.filter.RuleFilter;
import dev.sbemu.core.filter.SqlFilter;
import dev.sbemu.core.filter.SqlRuleAction;
import dev.sbemu.core.filter.TrueFilter;
import java.util.Map;
import java.util.Set;
import org.w3c.dom.Element;

/** {@code RuleDescription} (also a subscription's {@code DefaultRuleDescription}) to and from the core's rules. */
final class RuleXml {
    static final String ELEMENT = "RuleDescription";
    /** The compatibility level the service reports for SQL expressions. */
    private static final int COMPATIBILITY_LEVEL = 20;

    private static final Set<String> RULE = Set.of("Filter", "Action", "Name");
    private static final Set<String> RULE_READ_ONLY = Set.of("CreatedAt");
    private static final Set<String> SQL = Set.of("SqlExpression", "Parameters");
    private static final Set<String> SQL_IGNORED = Set.of("CompatibilityLevel", "RequiresPreprocessing");

    private RuleXml() {}

    /**
     * Reads a rule.
     *
     * @param nameFromPath the rule name in the URL, or null for a subscription's default rule
     */
    static RuleDescription read(Element description, String nameFromPath) {
        Fields f = Fields.of(description, RULE, RULE_READ_ONLY);
        String[] name = {nameFromPath};
        f.text("Name", n -> {
            if (nameFromPath != null && n != null && !n.equals(nameFromPath)) {
                throw ManagementException.badRequest(
                        "The rule's Name '" + n + "' differs from the name in the" + " URL '" + nameFromPath + "'.");
            }
            name[0] = n != null ? n : nameFromPath;
        });
        if (name[0] == null) {
            name[0] = RuleDescription.DEFAULT_RULE_NAME;
        }
        Element filter = f.element("Filter");
        if (filter == null) {
            throw ManagementException.badRequest("The rule '" + name[0] + "' has no Filter.");
        }
        Element action = f.element("Action");
        return new RuleDescription(name[0], filter(filter), action == null ? null : action(action));
    }

    private static RuleFilter filter(Element filter) {
        String type = Xml.xsiType(filter);
        if (type == null) {
            throw ManagementException.badRequest("The rule's Filter has no xsi:type (SqlFilter, CorrelationFilter,"
                    + " TrueFilter or FalseFilter).");
        }
        return switch (type) {
            case "SqlFilter" -> {
                Fields f = Fields.of(filter, SQL, SQL_IGNORED);
                yield SqlFilter.parse(sqlExpression(f, "SqlFilter"), parameters(f, "SqlFilter"));
            }
            case "TrueFilter" -> {
                Fields.of(filter, SQL, SQL_IGNORED);
                yield new TrueFilter();
            }
            case "FalseFilter" -> {
                Fields.of(filter, SQL, SQL_IGNORED);
                yield new FalseFilter();
            }
            case "CorrelationFilter" -> CorrelationXml.read(filter);
            default ->
                throw ManagementException.badRequest("Unknown filter type '" + type + "'; expected SqlFilter,"
                        + " CorrelationFilter, TrueFilter or FalseFilter.");
        };
    }

    private static SqlRuleAction action(Element action) {
        String type = Xml.xsiType(action);
        if ("EmptyRuleAction".equals(type)) {
            Fields.of(action, Set.of(), Set.of());
            return null;
        }
        if ("SqlRuleAction".equals(type)) {
            Fields f = Fields.of(action, SQL, SQL_IGNORED);
            return SqlRuleAction.parse(sqlExpression(f, "SqlRuleAction"), parameters(f, "SqlRuleAction"));
        }
        throw ManagementException.badRequest(
                "Unknown action type '" + type + "'; expected SqlRuleAction or" + " EmptyRuleAction.");
    }

    /** RUL-9: the values of the {@code @name} parameters. */
    private static Map<String, Object> parameters(Fields f, String type) {
        return KeyValueXml.read(f.element("Parameters"), type + ".Parameters");
    }

    private static String sqlExpression(Fields f, String type) {
        String[] text = {null};
        f.text("SqlExpression", t -> text[0] = t);
        if (text[0] == null || text[0].isBlank()) {
            throw ManagementException.badRequest("The " + type + " has an empty SqlExpression.");
        }
        return text[0];
    }

    /** Writes the rule as a document element or inside an entry. */
    static void write(XmlOut out, RuleDescription rule) {
        out.startIn(Xml.SB, ELEMENT);
        out.start("Filter");
        RuleFilter filter = rule.filter();
        if (filter instanceof SqlFilter sql) {
            out.xsiType("SqlFilter");
            sql(out, sql.expression(), sql.parameters());
        } else if (filter instanceof TrueFilter) {
            out.xsiType("TrueFilter");
            sql(out, TrueFilter.EXPRESSION, Map.of());
        } else if (filter instanceof FalseFilter) {
            out.xsiType("FalseFilter");
            sql(out, FalseFilter.EXPRESSION, Map.of());
        } else if (filter instanceof CorrelationFilter correlation) {
            out.xsiType("CorrelationFilter");
            CorrelationXml.write(out, correlation);
        }
        out.end();
        out.start("Action");
        if (rule.action() == null) {
            out.xsiType("EmptyRuleAction");
        } else {
            out.xsiType("SqlRuleAction");
            sql(out, rule.action().expression(), rule.action().parameters());
        }
        out.end();
        out.element("Name", rule.name());
        out.end();
    }

    private static void sql(XmlOut out, String expression, Map<String, Object> parameters) {
        out.element("SqlExpression", expression);
        if (!parameters.isEmpty()) {
            KeyValueXml.write(out, "Parameters", parameters);
        }
        out.element("CompatibilityLevel", COMPATIBILITY_LEVEL);
    }
}
