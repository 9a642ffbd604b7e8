// Validates a derived-metric expression as the user types it in the chart editor: libpcp's
// syntax errors (reason and caret position) from the core's parser, then every operand name
// looked up in the source so an unknown metric is pointed at too. Semantic checks (units,
// types) join here when the core's binder is available to the worker.
import type { Context } from '../pcp-core/context/context';
import { parseExpression } from '../pcp-core/derived/parser';
import { pmErrStr } from '../pcp-core/errors';
import type { ExpressionCheck } from './engine-types';

interface NamedOperand {
  readonly name: string;
  readonly start: number;
}

/** Every metric operand in the tree, in text order. */
function operands(node: unknown, out: NamedOperand[] = []): NamedOperand[] {
  if (Array.isArray(node)) {
    for (const n of node) operands(n, out);
  } else if (typeof node === 'object' && node !== null) {
    const rec = node as { kind?: unknown; name?: unknown; span?: { start?: unknown } };
    if (rec.kind === 'metric' && typeof rec.name === 'string') out.push({ name: rec.name, start: typeof rec.span?.start === 'number' ? rec.span.start : 0 });
    for (const v of Object.values(node)) if (typeof v === 'object') operands(v, out);
  }
  return out;
}

export async function checkExpression(ctx: Context, text: string): Promise<ExpressionCheck> {
  const parsed = parseExpression(text);
  if (!parsed.ok) return { ok: false, message: parsed.error.message ?? 'Syntax error', caret: Math.max(0, parsed.error.position) };
  const names = operands(parsed.expr).sort((a, b) => a.start - b.start);
  if (names.length > 0) {
    const ids = await ctx.lookupNames(names.map((n) => n.name));
    for (const [i, id] of ids.entries()) {
      const n = names[i];
      if (n && id < 0) return { ok: false, message: `${n.name}: ${pmErrStr(id)}`, caret: n.start };
    }
  }
  return { ok: true, units: '', sem: '', type: '' };
}
