// Derived-metric configuration files as pmLoadDerivedConfig reads them (PCP 6.0.3,
// derived-units-conversion.md §2.7): `name = expr` lines, `name(oneline|helptext) = value`
// attribute lines with quoted values that may span lines, `#` comments in the first column,
// and libpcp's diagnostics word for word. File access is injected (DerivedConfigFs), so the
// core only sees text; path lists (`a:b`) and directories are walked as libpcp walks them.
//
// The reader copies libpcp's character loop, quirks included, because the line numbers and
// texts of its messages depend on them: a last line without a newline is ignored, a trailing
// backslash does not continue a line (that came in 6.2.2), after a multi-line value the line
// numbers lag by one, and the first character after a multi-line value's closing quote is
// never checked for extra text.
import { formatConfigSyntaxError } from './messages';
import type { DerivedRegistry } from './registry';

/** The file system as pmLoadDerivedConfig uses it. Errors are negative errno values. */
export interface DerivedConfigFs {
  stat(path: string): 'file' | 'directory' | 'other' | number;
  readFile(path: string): string | number;
  /** Entries in the directory's own order (readdir), without `.` and `..`. */
  readDir(path: string): readonly string[] | number;
}

export interface ConfigLoad {
  /** Metrics registered, or a negative errno for a path that could not be read. */
  readonly status: number;
  /** Everything libpcp would print (pmprintf), in order. */
  readonly messages: string;
}

const isSpace = (c: string | undefined): boolean => c !== undefined && c !== '' && (c === ' ' || (c >= '\t' && c <= '\r'));

/**
 * libpcp's check on configuration names: components separated by '.', each a letter then
 * letters, digits or '_' (an empty last component, as in `a.b.`, passes as in libpcp).
 */
export function isLegalDerivedName(name: string): boolean {
  let first = true;
  for (const c of name) {
    const alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (first) {
      if (!alpha) return false;
      first = false;
    } else if (c === '.') first = true;
    else if (!alpha && !(c >= '0' && c <= '9') && c !== '_') return false;
  }
  return true;
}

function trimEnd(s: string): string {
  let e = s.length;
  while (e > 0 && isSpace(s[e - 1])) e--;
  return s.slice(0, e);
}
function trimStart(s: string): string {
  let b = 0;
  while (b < s.length && isSpace(s[b])) b++;
  return s.slice(b);
}

/** Loads one file's text (libpcp's __dminit_configfile); returns the number registered. */
export function loadDerivedConfigText(registry: DerivedRegistry, file: string, text: string): { readonly registered: number; readonly messages: string } {
  let pos = 0;
  const getc = (): string | undefined => (pos < text.length ? text[pos++] : undefined);
  let out = '';
  let registered = 0;
  let lineno = 1;

  for (;;) {
    // Gather one line up to its newline; a last line without one is never processed.
    const nl = text.indexOf('\n', pos);
    if (nl < 0) break;
    const buf = text.slice(pos, nl);
    pos = nl + 1;
    const eq = buf.indexOf('=');
    const head = eq < 0 ? buf : buf.slice(0, eq);
    const lp = head.indexOf('(');
    const rp = head.indexOf(')');
    const at = `[${file}:${lineno}]`;

    if (buf === '' || buf.startsWith('#')) {
      // comment or empty line
    } else if (eq < 0) {
      out += `${at} Error: pmLoadDerivedConfig: missing \`\`='' after derived metric name\n${buf}\n`;
    } else {
      const name = trimStart(trimEnd(head.slice(0, lp >= 0 ? lp : eq)));
      if (name === '') out += `${at} Error: pmLoadDerivedConfig: derived metric name missing\n${buf}\n`;
      else if (!isLegalDerivedName(name)) out += `${at} Error: pmLoadDerivedConfig: illegal derived metric name (${name})\n`;
      else if (lp >= 0 && rp < 0) out += `${at} Error: pmLoadDerivedConfig: missing ')' after attribute\n${buf}\n`;
      else if (rp >= 0 && lp < 0) out += `${at} Error: pmLoadDerivedConfig: missing '(' before attribute\n${buf}\n`;
      else if (lp < 0) {
        const rhs = buf.slice(eq + 1);
        const expr = trimStart(rhs);
        if (expr === '') out += `${at} Error: pmLoadDerivedConfig: expression missing\n${buf}\n`;
        else {
          const r = registry.register(name, expr);
          if (r.ok) registered++;
          else out += formatConfigSyntaxError(file, lineno, name, rhs, r.position, r.message);
        }
      } else {
        // name(attr) = value. The attribute is what lies between '(' and ')' (nothing when
        // ')' comes first), white space trimmed.
        const attr = rp > lp ? trimStart(trimEnd(head.slice(lp + 1, rp))) : trimStart(head.slice(lp + 1, rp < lp ? eq : rp));
        let vp = trimStart(buf.slice(eq + 1));
        let delim = '';
        if (vp.startsWith('"') || vp.startsWith("'")) {
          delim = vp.charAt(0);
          vp = vp.slice(1);
        }
        if (attr === '') out += `${at} Error: pmLoadDerivedConfig: attribute name missing\n${buf}\n`;
        else if (vp === '') out += `${at} Error: pmLoadDerivedConfig: attribute value missing\n${buf}\n`;
        else {
          let value: string | null = vp;
          if (delim !== '') {
            // A quoted value: `\x` is x, a backslash before a newline joins lines, and the
            // value may go on over the following lines of the file.
            let v = '';
            let esc = false;
            let extraLines = 0;
            let k = 0;
            let c: string | undefined;
            for (;;) {
              if (k < vp.length) c = vp[k++];
              else if (extraLines === 0) c = '\n';
              else {
                c = getc();
                if (c === undefined) break;
              }
              if (c === '\n') extraLines++;
              if (esc) {
                esc = false;
                if (c !== '\n') v += c;
                continue;
              }
              if (c === '\\') {
                esc = true;
                continue;
              }
              if (c === delim) break;
              v += c;
            }
            if (extraLines > 1) lineno += extraLines - 1;
            const at2 = `[${file}:${lineno}]`;
            if (c === undefined) {
              out += `${at2} Error: pmLoadDerivedConfig: missing termination (${delim}) for value\n`;
              value = null;
            } else {
              const rest = vp.slice(k);
              if (rest !== '') {
                const extra = trimStart(rest);
                if (extra !== '') out += `${at2} Warning: pmLoadDerivedConfig: extra text (${extra}) after attribute value will be ignored\n`;
              } else if (extraLines > 0) {
                // libpcp reads one character, then skips blanks, then reports what is left.
                let d = getc();
                while (d !== undefined && d !== '\n') {
                  d = getc();
                  if (!isSpace(d)) break;
                }
                if (d !== undefined && d !== '\n') {
                  let extra = d;
                  for (let e = getc(); e !== undefined && e !== '\n'; e = getc()) extra += e;
                  out += `${at2} Warning: pmLoadDerivedConfig: extra text (${extra}) after attribute value will be ignored\n`;
                }
              }
              value = v;
            }
          }
          if (value !== null) {
            const at3 = `[${file}:${lineno}]`;
            const r = registry.setAttribute(name, attr, value);
            if (r === 'not-defined') out += `${at3} Error: pmLoadDerivedConfig: cannot set attribute, derived metric (${name}) not defined\n${buf}\n`;
            else if (r === 'unknown-attribute') out += `${at3} Error: pmLoadDerivedConfig: attribute (${attr}) is unknown for metric (${name})\n${buf}\n`;
            else if (r === 'duplicate') out += `${at3} Error: pmLoadDerivedConfig: duplicate value for attribute (${attr}) of metric (${name})\n${buf}\n`;
          }
        }
      }
    }
    lineno++;
  }
  return { registered, messages: out };
}

/**
 * pmLoadDerivedConfig(pathList): each `:`-separated component is a file or a directory
 * (walked recursively in readdir order). Stops at the first component that cannot be read
 * and returns its negative errno; metrics registered before stay registered. With `recover`
 * (how $PCP_DERIVED_CONFIG is read) such failures are ignored.
 */
export function loadDerivedConfig(registry: DerivedRegistry, pathList: string, fs: DerivedConfigFs, recover = false): ConfigLoad {
  registry.initialize();
  let messages = '';
  const component = (path: string): number => {
    const kind = fs.stat(path);
    let sts = 0;
    if (typeof kind === 'number') sts = kind;
    else if (kind === 'file') {
      const text = fs.readFile(path);
      if (typeof text === 'number') sts = text;
      else {
        const r = loadDerivedConfigText(registry, path, text);
        messages += r.messages;
        sts = r.registered;
      }
    } else if (kind === 'directory') {
      const entries = fs.readDir(path);
      if (typeof entries === 'number') sts = entries;
      else {
        for (const e of entries) {
          const s = component(`${path}/${e}`);
          if (s < 0) {
            sts = s;
            break;
          }
          sts += s;
        }
      }
    }
    return recover ? 0 : sts;
  };
  const parts = pathList.split(':');
  const last = parts.pop() as string;
  let total = 0;
  for (const p of parts) {
    const s = component(p);
    if (s < 0) return { status: s, messages };
    total += s;
  }
  if (last !== '') {
    const s = component(last);
    if (s < 0) return { status: s, messages };
    total += s;
  }
  return { status: total, messages };
}
