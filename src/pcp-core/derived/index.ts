// The derived-metric layer's surface for other folders (derived-units-conversion.md §2–5):
// parse and check expressions, register them globally or per context, load configuration
// files, and put derived metrics over any Context.
export type { Expr } from './ast';
export { metricNames } from './ast';
export type { Span, Token } from './lexer';
export { parseExpression, type ParseResult, type SyntaxError } from './parser';
export { formatAddError, formatConfigSyntaxError, formatRegisterError, formatSemanticError } from './messages';
export { DerivedRegistry, globalDerivedRegistry, isDerivedPmid, type DerivedDefinition, type RegisterResult } from './registry';
export { isLegalDerivedName, loadDerivedConfig, loadDerivedConfigText, type ConfigLoad, type DerivedConfigFs } from './config';
export { DerivedContext, type AddResult, type DerivedContextOptions, type ExpressionCheck, type ExpressionProblem } from './derived-context';
