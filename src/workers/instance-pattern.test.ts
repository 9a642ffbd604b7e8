import { describe, expect, it } from 'vitest';
import { instancePatternError, instancePredicate } from './instance-pattern';

describe('instancePredicate', () => {
  it('matches anywhere in the name, case-sensitively, as pmchart does', () => {
    const keep = instancePredicate({ kind: 'matching', pattern: 'd[ab]' });
    expect(['sda', 'sdb', 'sdc', 'SDA'].filter(keep)).toEqual(['sda', 'sdb']);
    const drop = instancePredicate({ kind: 'not-matching', pattern: '/dev/shm|/dev$' });
    expect(['/', '/dev', '/dev/shm', '/home'].filter(drop)).toEqual(['/', '/home']);
  });

  it('answers ReDoS-shaped patterns on long names chosen by others', () => {
    const long = `/proc/${'x'.repeat(200_000)}`;
    expect(instancePredicate({ kind: 'matching', pattern: '^(.*)*Q$' })(long)).toBe(false);
    expect(instancePredicate({ kind: 'matching', pattern: '^(.|.)*Q$' })(`${long}Q`)).toBe(true);
    expect(instancePredicate({ kind: 'not-matching', pattern: '(x+x+)+y' })(long)).toBe(true);
  });

  it('refuses a bad pattern with a SyntaxError naming it', () => {
    expect(() => instancePredicate({ kind: 'matching', pattern: '(' })).toThrow(/Invalid regular expression: \/\(\/: missing closing parenthesis/);
    expect(instancePatternError('a(?=b)')).toMatch(/not supported/);
    expect(instancePatternError('^(sd|vd)')).toBeUndefined();
  });
});
