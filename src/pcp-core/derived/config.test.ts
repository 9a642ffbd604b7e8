// Configuration loader case tables (derived-units-conversion.md §2.7): line format, libpcp's
// diagnostics and quirks, path lists and directories over an in-memory file system. The same
// behaviour is compared with libpcp in config.conformance.test.ts.
import { describe, expect, it } from 'vitest';
import { isLegalDerivedName, loadDerivedConfig, loadDerivedConfigText, type DerivedConfigFs } from './config';
import { DerivedRegistry } from './registry';

function load(text: string): { registered: number; messages: string; registry: DerivedRegistry } {
  const registry = new DerivedRegistry();
  registry.initialize();
  return { ...loadDerivedConfigText(registry, 'f.conf', text), registry };
}

describe('line format', () => {
  it('registers name = expr lines, skips comments and blank lines', () => {
    const r = load('# comment\n\nmy.a = 1\n  my.b   =  hinv.ncpu + 2  \n');
    expect(r.registered).toBe(2);
    expect(r.messages).toBe('');
    expect(r.registry.find('my.b')?.text).toBe('hinv.ncpu + 2  ');
  });
  it('ignores a last line without a newline', () => {
    expect(load('my.a = 1\nmy.b = 2').registered).toBe(1);
  });
  it('reports lines libpcp refuses, with their text', () => {
    const r = load('  # indented\nno equals\n = 1\nbad name = 1\nmy.c =\nmy.d = 1 \\\n');
    expect(r.messages).toBe(
      [
        "[f.conf:1] Error: pmLoadDerivedConfig: missing ``='' after derived metric name",
        '  # indented',
        "[f.conf:2] Error: pmLoadDerivedConfig: missing ``='' after derived metric name",
        'no equals',
        '[f.conf:3] Error: pmLoadDerivedConfig: derived metric name missing',
        ' = 1',
        '[f.conf:4] Error: pmLoadDerivedConfig: illegal derived metric name (bad name)',
        '[f.conf:5] Error: pmLoadDerivedConfig: expression missing',
        'my.c =',
        '[f.conf:6] Error: pmRegisterDerived(my.d, ...) syntax error',
        ' 1 \\',
        '   ^',
        'Illegal character',
        '',
      ].join('\n'),
    );
  });
  it('prints syntax errors in format B, the caret line as long as the expression', () => {
    const r = load('my.a =\t(disk.dev.read + * 3)\n');
    expect(r.messages).toBe('[f.conf:1] Error: pmRegisterDerived(my.a, ...) syntax error\n\t(disk.dev.read + * 3)\n\t                 ^   \nArithmetic expression expected to follow PLUS\n');
  });
  it('refuses a second definition of a name', () => {
    expect(load('my.a = 1\nmy.a = 2\n').messages).toBe('[f.conf:2] Error: pmRegisterDerived(my.a, ...) syntax error\n 2\n ^\nDuplicate global derived metric name\n');
  });
});

describe('attributes', () => {
  it('sets one-line and help text, quoted values over several lines', () => {
    const r = load('my.a = 1\nmy.a(oneline) = plain text  \nmy.a(helptext) = "first\\\nsecond \\"x\\"\nthird"\nmy.b = 2\n');
    const d = r.registry.find('my.a');
    expect([d?.oneline, d?.helptext]).toEqual(['plain text  ', 'firstsecond "x"\nthird']);
    expect(r.messages).toBe('');
    expect(r.registered).toBe(2);
  });
  it('lags line numbers after a multi-line value, as libpcp does', () => {
    const r = load('my.a = 1\nmy.a(helptext) = "one\ntwo"\nmy.b = 1 +\n');
    expect(r.messages.split('\n')[0]).toBe('[f.conf:3] Error: pmRegisterDerived(my.b, ...) syntax error');
  });
  it('warns about text after a value, skipping the first character after a multi-line one', () => {
    expect(load('my.a = 1\nmy.a(oneline) = "x" junk\n').messages).toBe('[f.conf:2] Warning: pmLoadDerivedConfig: extra text (junk) after attribute value will be ignored\n');
    expect(load('my.a = 1\nmy.a(oneline) = "x\ny"Z\n').messages).toBe('');
    expect(load('my.a = 1\nmy.a(oneline) = "x\ny" junk\n').messages).toBe('[f.conf:2] Warning: pmLoadDerivedConfig: extra text (junk) after attribute value will be ignored\n');
  });
  it('reports attribute errors', () => {
    const r = load('my.a = 1\nmy.z(oneline) = x\nmy.a(colour) = x\nmy.a(oneline) = x\nmy.a(oneline) = y\nmy.a() = x\nmy.a(oneline) = "\nmy.a(oneline = x\nmy.a)x = 1\n');
    expect(r.messages).toBe(
      [
        '[f.conf:2] Error: pmLoadDerivedConfig: cannot set attribute, derived metric (my.z) not defined',
        'my.z(oneline) = x',
        '[f.conf:3] Error: pmLoadDerivedConfig: attribute (colour) is unknown for metric (my.a)',
        'my.a(colour) = x',
        '[f.conf:5] Error: pmLoadDerivedConfig: duplicate value for attribute (oneline) of metric (my.a)',
        'my.a(oneline) = y',
        '[f.conf:6] Error: pmLoadDerivedConfig: attribute name missing',
        'my.a() = x',
        '[f.conf:7] Error: pmLoadDerivedConfig: attribute value missing',
        'my.a(oneline) = "',
        "[f.conf:8] Error: pmLoadDerivedConfig: missing ')' after attribute",
        'my.a(oneline = x',
        // libpcp checks the name first, so ')' alone makes it illegal.
        '[f.conf:9] Error: pmLoadDerivedConfig: illegal derived metric name (my.a)x)',
        '',
      ].join('\n'),
    );
  });
  it('reports a quoted value still open at the end of the file', () => {
    expect(load('my.a = 1\nmy.a(oneline) = "open\nstill\n').messages).toBe('[f.conf:3] Error: pmLoadDerivedConfig: missing termination (") for value\n');
  });
});

describe('names', () => {
  it.each([
    ['a', true], ['a.b_c.d9', true], ['a.', true], ['A.B', true], ['9a', false], ['_a', false], ['a..b', false], ['a.9', false], ['a-b', false], ['a b', false], ['', true],
  ])('%j legal: %s', (name, legal) => {
    expect(isLegalDerivedName(name)).toBe(legal);
  });
});

describe('path lists and directories', () => {
  const files = new Map<string, string>([
    ['/c/one.conf', 'my.one = 1\n'],
    ['/c/d/two.conf', 'my.two = 2\n'],
    ['/c/d/three.conf', 'my.three = 3 +\n'],
    ['/c/four.conf', 'my.four = 4\n'],
  ]);
  const dirs = new Map<string, string[]>([
    ['/c/d', ['two.conf', 'three.conf']],
    ['/c', ['one.conf', 'd']],
  ]);
  const fs: DerivedConfigFs = {
    stat: (p) => (files.has(p) ? 'file' : dirs.has(p) ? 'directory' : -2),
    readFile: (p) => files.get(p) ?? -2,
    readDir: (p) => dirs.get(p) ?? -2,
  };
  it('walks directories in their own order and counts what registered', () => {
    const registry = new DerivedRegistry();
    const r = loadDerivedConfig(registry, '/c', fs);
    expect(r.status).toBe(2);
    expect(registry.definitions.map((d) => d.name)).toEqual(['event.flags', 'event.missed', 'my.one', 'my.two']);
    expect(r.messages).toContain('[/c/d/three.conf:1] Error: pmRegisterDerived(my.three, ...) syntax error');
  });
  it('stops at the first component that cannot be read, keeping what was registered', () => {
    const registry = new DerivedRegistry();
    expect(loadDerivedConfig(registry, '/c/one.conf:/missing:/c/four.conf', fs).status).toBe(-2);
    expect(registry.find('my.one')).toBeDefined();
    expect(registry.find('my.four')).toBeUndefined();
    // An empty component is a path that does not exist.
    expect(loadDerivedConfig(new DerivedRegistry(), ':/c/four.conf', fs).status).toBe(-2);
    expect(loadDerivedConfig(new DerivedRegistry(), '/c/four.conf:', fs).status).toBe(1);
  });
  it('ignores unreadable components when recovering ($PCP_DERIVED_CONFIG)', () => {
    const registry = new DerivedRegistry();
    expect(loadDerivedConfig(registry, '/missing:/c/four.conf', fs, true).status).toBe(0);
    expect(registry.find('my.four')).toBeDefined();
  });
});
