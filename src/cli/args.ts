// Command-line parsing in the style of the PCP tools: short options with values (`-a ARCH`,
// `-aARCH`), bundled short flags (`-dT`), long options (`--json`, `--port N`, `--port=N`),
// repeatable options and positional arguments. Errors name the option, as getopt does.

export interface OptionSpec {
  /** Single letter, e.g. 'a' for -a. */
  readonly short?: string;
  /** Long name without dashes, e.g. 'archive'. */
  readonly long?: string;
  /** Key in the parsed result; defaults to long, then short. */
  readonly key?: string;
  /** Takes a value. */
  readonly value?: boolean;
  /** May be given more than once; values are collected in order. */
  readonly repeat?: boolean;
  /** Shown by --help: the value's placeholder and what the option does. */
  readonly arg?: string;
  readonly help: string;
}

export interface ParsedArgs {
  /** Flags are `true`; valued options are strings, or string arrays when repeatable. */
  readonly options: Readonly<Record<string, string | string[] | true>>;
  readonly positionals: readonly string[];
}

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

function keyOf(spec: OptionSpec): string {
  return spec.key ?? spec.long ?? spec.short ?? '?';
}

export function parseArgs(argv: readonly string[], specs: readonly OptionSpec[]): ParsedArgs {
  const options: Record<string, string | string[] | true> = {};
  const positionals: string[] = [];
  const byShort = new Map(specs.filter((s) => s.short).map((s) => [s.short as string, s]));
  const byLong = new Map(specs.filter((s) => s.long).map((s) => [s.long as string, s]));

  const store = (spec: OptionSpec, value: string | true): void => {
    const key = keyOf(spec);
    if (spec.repeat) {
      // A repeated flag (-XX) keeps one '' per occurrence: optCount counts them.
      const prev = options[key];
      const v = value === true ? '' : value;
      options[key] = Array.isArray(prev) ? [...prev, v] : [v];
    } else {
      options[key] = value;
    }
  };

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = arg.slice(2, eq < 0 ? undefined : eq);
      const spec = byLong.get(name);
      if (!spec) throw new UsageError(`unrecognized option '--${name}'`);
      if (spec.value) {
        const value: string | undefined = eq < 0 ? argv[++i] : arg.slice(eq + 1);
        if (value === undefined) throw new UsageError(`option '--${name}' requires an argument`);
        store(spec, value);
      } else {
        if (eq >= 0) throw new UsageError(`option '--${name}' doesn't allow an argument`);
        store(spec, true);
      }
      continue;
    }
    if (arg.startsWith('-') && arg.length > 1) {
      for (let j = 1; j < arg.length; j++) {
        const letter = arg[j];
        const spec = byShort.get(letter);
        if (!spec) throw new UsageError(`invalid option -- '${letter}'`);
        if (spec.value) {
          const rest = arg.slice(j + 1);
          const value = rest !== '' ? rest : argv[++i];
          if (value === undefined) throw new UsageError(`option requires an argument -- '${letter}'`);
          store(spec, value);
          break;
        }
        store(spec, true);
      }
      continue;
    }
    positionals.push(arg);
  }
  return { options, positionals };
}

/** The value of a non-repeatable valued option. */
export function optString(args: ParsedArgs, key: string): string | undefined {
  const v = args.options[key];
  if (v === undefined || v === true) return undefined;
  return Array.isArray(v) ? v[v.length - 1] : v;
}

/** Every value of a repeatable option, in order. */
export function optList(args: ParsedArgs, key: string): string[] {
  const v = args.options[key];
  if (v === undefined || v === true) return [];
  return Array.isArray(v) ? v : [v];
}

/** How many times a repeatable flag was given (-XX: 2). */
export function optCount(args: ParsedArgs, key: string): number {
  const v = args.options[key];
  return v === undefined ? 0 : Array.isArray(v) ? v.length : 1;
}

export function optFlag(args: ParsedArgs, key: string): boolean {
  return args.options[key] !== undefined;
}

/** Option help lines, aligned, for --help. */
export function formatOptions(specs: readonly OptionSpec[]): string {
  const rows = specs.map((s) => {
    const names = [s.short ? `-${s.short}` : '', s.long ? `--${s.long}` : ''].filter(Boolean).join(', ');
    return [`${names}${s.value ? ` ${s.arg ?? 'VALUE'}` : ''}`, s.help] as const;
  });
  const width = Math.max(0, ...rows.map(([l]) => l.length));
  return rows.map(([l, h]) => `  ${l.padEnd(width)}  ${h}`).join('\n');
}
