import { describe, expect, it } from 'vitest';
import { optFlag, optList, optString, parseArgs, UsageError, type OptionSpec } from './args';

const specs: OptionSpec[] = [
  { short: 'a', long: 'archive', value: true, repeat: true, help: '' },
  { short: 't', long: 'interval', value: true, help: '' },
  { short: 'd', help: '', key: 'desc' },
  { short: 'T', help: '', key: 'text' },
  { long: 'json', help: '' },
];

describe('parseArgs', () => {
  it('reads short, bundled, attached and long options', () => {
    const args = parseArgs(['-a', 'x', '-ay', '-dT', '--interval=2', '--json', 'kernel'], specs);
    expect(optList(args, 'archive')).toEqual(['x', 'y']);
    expect(optString(args, 'interval')).toBe('2');
    expect(optFlag(args, 'desc') && optFlag(args, 'text') && optFlag(args, 'json')).toBe(true);
    expect(args.positionals).toEqual(['kernel']);
  });

  it('stops at --', () => {
    expect(parseArgs(['--', '-d'], specs).positionals).toEqual(['-d']);
  });

  it.each([
    [['-x'], "invalid option -- 'x'"],
    [['-t'], "option requires an argument -- 't'"],
    [['--nope'], "unrecognized option '--nope'"],
    [['--json=1'], "option '--json' doesn't allow an argument"],
  ])('rejects %j', (argv, message) => {
    expect(() => parseArgs(argv, specs)).toThrow(new UsageError(message));
  });
});
