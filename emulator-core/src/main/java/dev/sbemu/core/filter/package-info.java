/**
 * The Service Bus rule filter language: SQL filters, SQL rule actions and correlation filters
 * (SPEC RUL-2, RUL-3, RUL-4, RUL-6, RUL-7).
 *
 * <p>{@link dev.sbemu.core.filter.SqlFilter#parse(String)} and
 * {@link dev.sbemu.core.filter.SqlRuleAction#parse(String)} validate a rule when it is created and
 * throw {@link dev.sbemu.core.filter.FilterSyntaxException} with the position of the error; the parsed
 * objects are immutable and thread-safe. Filters read, and actions write, a message through
 * {@link dev.sbemu.core.filter.FilterMessage}. Evaluating a filter never throws.
 */
package dev.sbemu.core.filter;
