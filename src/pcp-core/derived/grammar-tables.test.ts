// The parser uses precomputed tables (grammar-tables.ts) so that no table construction runs
// when pmdash starts; this test proves they are exactly what lalr.ts builds from grammar.ts.
// After changing the grammar: PMDASH_REGENERATE_TABLES=1 npx vitest run --project unit grammar-tables
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GRAMMAR } from './grammar';
import { DERIVED_TABLES } from './grammar-tables';
import { buildTables, encodeTables } from './lalr';

describe('precomputed parser tables', () => {
  it('equal the tables built from the grammar', () => {
    const built = buildTables(GRAMMAR);
    expect(built.unresolvedConflicts).toBe(0);
    const encoded = encodeTables(built);
    if (process.env.PMDASH_REGENERATE_TABLES) {
      const text = [
        '// Generated from grammar.ts by lalr.ts (see grammar-tables.test.ts): the LALR(1) tables of the',
        '// derived-metric parser, so that none are built at run time. Do not edit by hand.',
        "import type { EncodedTables } from './lalr';",
        '',
        `export const DERIVED_TABLES: EncodedTables = ${JSON.stringify(encoded)};`,
        '',
      ].join('\n');
      writeFileSync(join(import.meta.dirname, 'grammar-tables.ts'), text);
    }
    expect(encoded).toEqual(DERIVED_TABLES);
    expect(built.states.length).toBe(DERIVED_TABLES.states.length);
  });
});
