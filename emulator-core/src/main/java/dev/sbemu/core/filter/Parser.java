package dev.sbemu.core.filter;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A recursive-descent parser for SQL filters and SQL rule actions (SPEC RUL-2, RUL-4, RUL-7).
 *
 * <pre>
 * filter     := or END
 * action     := statement ((';' [','] | ',') statement)* [';'] END
 * statement  := SET property '=' additive | REMOVE property
 * or         := and (OR and)*
 * and        := not (AND not)*
 * not        := NOT* predicate
 * predicate  := EXISTS '(' property ')'
 *             | additive [ compare additive | IS [NOT] NULL | [NOT] IN '(' additive (',' additive)* ')'
 *                        | [NOT] LIKE additive [ESCAPE additive] ]
 * additive   := multiplicative (('+' | '-') multiplicative)*
 * multiplicative := unary (('*' | '/' | '%') unary)*
 * unary      := ('+' | '-')* primary
 * primary    := constant | @parameter | function '(' args ')' | property | '(' or ')'  (at most 64 levels deep)
 * property   := [(sys | user) '.'] name
 * </pre>
 */
final class Parser {

    static final int MAX_LENGTH = 1024;
    static final int MAX_STATEMENTS = 32;
    static final int MAX_NESTING = 64;

    /** Words of the language: never a bare property name. */
    private static final Set<String> KEYWORDS = Set.of(
            "AND", "OR", "NOT", "IS", "NULL", "IN", "LIKE", "ESCAPE", "EXISTS", "TRUE", "FALSE", "SET", "REMOVE");

    /** T-SQL words the service reserves: a property so named must be written [name] or "name". */
    private static final Set<String> RESERVED = Set.of(
            "BETWEEN",
            "BEGIN",
            "CASE",
            "CAST",
            "COALESCE",
            "CONVERT",
            "DECLARE",
            "ELSE",
            "END",
            "IF",
            "NULLIF",
            "THEN",
            "WHEN",
            "WHILE");

    private final List<Token> tokens;
    private final Map<String, Object> parameters;
    private int index;
    private int depth;

    private Parser(String text, Map<String, Object> parameters) {
        this.tokens = Lexer.tokenize(text);
        this.parameters = parameters;
    }

    /** Parses a filter condition; {@code @name} stands for {@code parameters.get("@name")}. */
    static Expr parseFilter(String text, Map<String, Object> parameters) {
        checkText(text, "filter");
        Parser parser = new Parser(text, parameters);
        Token start = parser.peek();
        Expr condition = parser.parseOr();
        parser.expectEnd("expected end of expression");
        parser.requirePredicate(condition, start);
        return condition;
    }

    /** Parses the statements of an action; {@code @name} stands for {@code parameters.get("@name")}. */
    static List<Statement> parseAction(String text, Map<String, Object> parameters) {
        checkText(text, "action");
        Parser parser = new Parser(text, parameters);
        List<Statement> statements = new ArrayList<>();
        while (true) {
            Token start = parser.peek();
            if (statements.size() == MAX_STATEMENTS) {
                throw error("too many statements: an action has at most " + MAX_STATEMENTS, start);
            }
            statements.add(parser.parseStatement());
            boolean separated = false;
            if (parser.peek().is(Token.Type.SEMICOLON)) {
                parser.next();
                separated = true;
            }
            if (parser.peek().is(Token.Type.COMMA)) {
                parser.next();
                separated = true;
            } else if (parser.peek().is(Token.Type.END)) {
                return statements;
            }
            // RUL-12: the service also takes statements separated by white space only ("SET a = 1 SET b = 2")
            if (!separated && !parser.peek().isKeyword("SET") && !parser.peek().isKeyword("REMOVE")) {
                throw error("expected ',' or ';' between statements", parser.peek());
            }
        }
    }

    private static void checkText(String text, String what) {
        if (text == null || text.isBlank()) {
            throw new FilterSyntaxException("the " + what + " is empty", 0, "");
        }
        if (text.length() > MAX_LENGTH) {
            throw new FilterSyntaxException(
                    "the " + what + " is longer than " + MAX_LENGTH + " characters",
                    MAX_LENGTH,
                    text.substring(MAX_LENGTH, Math.min(text.length(), MAX_LENGTH + 20)));
        }
    }

    private Statement parseStatement() {
        Token verb = next();
        if (verb.isKeyword("SET")) {
            Expr.Property target = parseProperty(next());
            requireWritable(target);
            expect(Token.Type.EQ, "expected '='");
            return new Statement.Set(target, parseAdditive());
        }
        if (verb.isKeyword("REMOVE")) {
            Expr.Property target = parseProperty(next());
            requireWritable(target);
            return new Statement.Remove(target);
        }
        throw error("expected SET or REMOVE", verb);
    }

    private void requireWritable(Expr.Property target) {
        if (target.system() != null && !target.system().settable()) {
            throw error(
                    "system property sys." + target.system().filterName() + " cannot be changed by an action",
                    tokens.get(index - 1));
        }
    }

    // ---- conditions ----

    private Expr parseOr() {
        Token start = peek();
        Expr left = parseAnd();
        while (peek().isKeyword("OR")) {
            next();
            Token rightStart = peek();
            Expr right = parseAnd();
            requirePredicate(left, start);
            requirePredicate(right, rightStart);
            left = new Expr.Or(left, right);
        }
        return left;
    }

    private Expr parseAnd() {
        Token start = peek();
        Expr left = parseNot();
        while (peek().isKeyword("AND")) {
            next();
            Token rightStart = peek();
            Expr right = parseNot();
            requirePredicate(left, start);
            requirePredicate(right, rightStart);
            left = new Expr.And(left, right);
        }
        return left;
    }

    /** {@code NOT NOT ... p}: a chain is read in a loop and folded, so its length costs no stack. */
    private Expr parseNot() {
        int nots = 0;
        while (acceptKeyword("NOT")) {
            nots++;
        }
        if (nots == 0) {
            return parsePredicate();
        }
        Token start = peek();
        Expr operand = parsePredicate();
        requirePredicate(operand, start);
        Expr not = new Expr.Not(operand);
        return nots % 2 == 1 ? not : new Expr.Not(not);
    }

    private Expr parsePredicate() {
        if (peek().isKeyword("EXISTS")) {
            next();
            expect(Token.Type.LPAREN, "expected '(' after EXISTS");
            Expr.Property property = parseProperty(next());
            expect(Token.Type.RPAREN, "expected ')'");
            return new Expr.Exists(property);
        }
        Expr left = parseAdditive();
        Token token = peek();
        Values.Comparison comparison = comparison(token);
        if (comparison != null) {
            next();
            return new Expr.Comparison(comparison, left, parseAdditive());
        }
        if (token.isKeyword("IS")) {
            next();
            boolean negated = acceptKeyword("NOT");
            if (!acceptKeyword("NULL")) {
                throw error(negated ? "expected NULL" : "expected NULL or NOT NULL", peek());
            }
            return new Expr.IsNull(left, negated);
        }
        boolean negated = false;
        if (token.isKeyword("NOT")) {
            next();
            negated = true;
            if (!peek().isKeyword("IN") && !peek().isKeyword("LIKE")) {
                throw error("expected IN or LIKE after NOT", peek());
            }
        }
        if (acceptKeyword("IN")) {
            return parseIn(left, negated);
        }
        if (acceptKeyword("LIKE")) {
            return parseLike(left, negated);
        }
        return left;
    }

    private Expr parseIn(Expr left, boolean negated) {
        expect(Token.Type.LPAREN, "expected '(' after IN");
        List<Expr> candidates = new ArrayList<>();
        do {
            candidates.add(parseAdditive());
        } while (accept(Token.Type.COMMA));
        expect(Token.Type.RPAREN, "expected ',' or ')'");
        return new Expr.In(left, candidates, negated);
    }

    private Expr parseLike(Expr left, boolean negated) {
        Token patternToken = peek();
        Expr pattern = parseAdditive();
        Expr escape = null;
        Token escapeToken = null;
        if (acceptKeyword("ESCAPE")) {
            escapeToken = peek();
            escape = parseAdditive();
        }
        LikePattern compiled = null;
        boolean constantPattern = pattern instanceof Expr.Literal && ((Expr.Literal) pattern).value() instanceof String;
        boolean constantEscape =
                escape == null || escape instanceof Expr.Literal && ((Expr.Literal) escape).value() instanceof String;
        Character escapeChar = null;
        if (escape != null && constantEscape) {
            String value = (String) ((Expr.Literal) escape).value();
            if (value.length() != 1) {
                throw error("the escape character must be a single character", escapeToken);
            }
            escapeChar = value.charAt(0);
        }
        if (constantPattern && constantEscape) {
            compiled = LikePattern.compile((String) ((Expr.Literal) pattern).value(), escapeChar);
            if (compiled == null) {
                throw error("the pattern ends with the escape character", patternToken);
            }
        }
        return new Expr.Like(left, pattern, escape, negated, compiled);
    }

    private static Values.Comparison comparison(Token token) {
        switch (token.type()) {
            case EQ:
                return Values.Comparison.EQ;
            case NE:
                return Values.Comparison.NE;
            case LT:
                return Values.Comparison.LT;
            case LE:
                return Values.Comparison.LE;
            case GT:
                return Values.Comparison.GT;
            case GE:
                return Values.Comparison.GE;
            default:
                return null;
        }
    }

    // ---- expressions ----

    private Expr parseAdditive() {
        Expr left = parseMultiplicative();
        while (true) {
            if (accept(Token.Type.PLUS)) {
                left = new Expr.Arithmetic(Values.Arithmetic.ADD, left, parseMultiplicative());
            } else if (accept(Token.Type.MINUS)) {
                left = new Expr.Arithmetic(Values.Arithmetic.SUBTRACT, left, parseMultiplicative());
            } else {
                return left;
            }
        }
    }

    private Expr parseMultiplicative() {
        Expr left = parseUnary();
        while (true) {
            if (accept(Token.Type.STAR)) {
                left = new Expr.Arithmetic(Values.Arithmetic.MULTIPLY, left, parseUnary());
            } else if (accept(Token.Type.SLASH)) {
                left = new Expr.Arithmetic(Values.Arithmetic.DIVIDE, left, parseUnary());
            } else if (accept(Token.Type.PERCENT)) {
                left = new Expr.Arithmetic(Values.Arithmetic.MODULO, left, parseUnary());
            } else {
                return left;
            }
        }
    }

    /** {@code - + - x}: signs are read in a loop and folded into one, so their number costs no stack. */
    private Expr parseUnary() {
        int signs = 0;
        boolean negative = false;
        while (peek().is(Token.Type.PLUS) || peek().is(Token.Type.MINUS)) {
            negative ^= next().is(Token.Type.MINUS);
            signs++;
        }
        if (signs == 0) {
            return parsePrimary();
        }
        Token operand = peek();
        if (negative
                && operand.is(Token.Type.INTEGER)
                && operand.value() == null
                && operand.text().equals("9223372036854775808")) {
            next();
            return new Expr.Literal(Long.MIN_VALUE);
        }
        return new Expr.Sign(negative, parsePrimary());
    }

    private Expr parsePrimary() {
        Token token = next();
        switch (token.type()) {
            case INTEGER:
                if (token.value() == null) {
                    throw error("integer constant out of range", token);
                }
                return new Expr.Literal(token.value());
            case DECIMAL:
            case STRING:
                return new Expr.Literal(token.value());
            case PARAMETER:
                if (!parameters.containsKey(token.text())) {
                    throw error(
                            "the parameter " + token.text() + " has no value; the rule's parameters are "
                                    + parameters.keySet(),
                            token);
                }
                return new Expr.Literal(parameters.get(token.text()));
            case LPAREN:
                enterNesting(token);
                Expr inner = parseOr();
                expect(Token.Type.RPAREN, "expected ')'");
                depth--;
                return inner;
            case QUOTED_IDENTIFIER:
            case DELIMITED_IDENTIFIER:
                return parseProperty(token);
            case IDENTIFIER:
                if (token.isKeyword("TRUE") || token.isKeyword("FALSE")) {
                    return new Expr.Literal(token.isKeyword("TRUE"));
                }
                if (token.isKeyword("NULL")) {
                    return new Expr.Literal(null);
                }
                if (KEYWORDS.contains(token.upperText())) {
                    throw error("expected an expression", token);
                }
                if (peek().is(Token.Type.LPAREN)) {
                    return parseFunction(token);
                }
                return parseProperty(token);
            default:
                throw error("expected an expression", token);
        }
    }

    private Expr parseFunction(Token name) {
        String function = name.text().toLowerCase(Locale.ROOT);
        if (!function.equals("newid") && !function.equals("property") && !function.equals("p")) {
            throw error("unknown function '" + name.text() + "': expected newid(), property(name) or p(name)", name);
        }
        next();
        if (function.equals("newid")) {
            expect(Token.Type.RPAREN, "expected ')': newid() takes no argument");
            return new Expr.NewId();
        }
        enterNesting(name);
        Expr argument = parseAdditive();
        expect(Token.Type.RPAREN, "expected ')': " + function + "() takes one argument");
        depth--;
        return new Expr.PropertyByName(argument);
    }

    /** Bounds recursion, so that no text within the length limit can exhaust a thread's stack. */
    private void enterNesting(Token token) {
        if (++depth > MAX_NESTING) {
            throw error("too deeply nested: at most " + MAX_NESTING + " levels of parentheses", token);
        }
    }

    /** Parses a property reference starting at {@code first}, which has been consumed. */
    private Expr.Property parseProperty(Token first) {
        if (first.is(Token.Type.IDENTIFIER) && peek().is(Token.Type.DOT)) {
            boolean system = first.isKeyword("sys");
            if (!system && !first.isKeyword("user")) {
                throw error("unknown scope '" + first.text() + "': expected sys or user", first);
            }
            next();
            Token name = next();
            String propertyName = propertyName(name);
            if (!system) {
                return new Expr.Property(null, propertyName);
            }
            SystemProperty property = SystemProperty.byFilterName(propertyName)
                    .orElseThrow(() -> error("unknown system property 'sys." + propertyName + "'", name));
            return new Expr.Property(property, property.filterName());
        }
        return new Expr.Property(null, propertyName(first));
    }

    private String propertyName(Token token) {
        if (token.is(Token.Type.QUOTED_IDENTIFIER) || token.is(Token.Type.DELIMITED_IDENTIFIER)) {
            return (String) token.value();
        }
        if (token.is(Token.Type.IDENTIFIER)) {
            String upper = token.upperText();
            if (RESERVED.contains(upper)) {
                throw error(
                        "'" + token.text() + "' is a reserved word: write [" + token.text()
                                + "] to use it as a property name",
                        token);
            }
            if (!KEYWORDS.contains(upper)) {
                return token.text();
            }
        }
        throw error("expected a property name", token);
    }

    private void requirePredicate(Expr expr, Token start) {
        if (!expr.isPredicate()) {
            throw error("expected a condition, not a value", start);
        }
    }

    // ---- token stream ----

    private Token peek() {
        return tokens.get(index);
    }

    private Token next() {
        Token token = tokens.get(index);
        if (!token.is(Token.Type.END)) {
            index++;
        }
        return token;
    }

    private boolean accept(Token.Type type) {
        if (peek().is(type)) {
            next();
            return true;
        }
        return false;
    }

    private boolean acceptKeyword(String keyword) {
        if (peek().isKeyword(keyword)) {
            next();
            return true;
        }
        return false;
    }

    private void expect(Token.Type type, String reason) {
        if (!accept(type)) {
            throw error(reason, peek());
        }
    }

    private void expectEnd(String reason) {
        if (!peek().is(Token.Type.END)) {
            throw error(reason, peek());
        }
    }

    private static FilterSyntaxException error(String reason, Token token) {
        return new FilterSyntaxException(reason, token.position(), token.text());
    }
}
