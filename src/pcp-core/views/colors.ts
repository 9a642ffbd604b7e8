// Colour specifications of pmchart view files: `#rgb`, `#rrggbb`, `#aarrggbb`,
// `#rrrgggbbb`, `#rrrrggggbbbb`, `rgbi:r/g/b` (intensities 0..1), SVG and X11 colour names
// (docs/pmchart-reference.md §1c "View file grammar", item 3). The parser keeps a colour as
// written; these functions resolve it to 8-bit RGB for drawing and tell whether pmchart 6.0.3
// itself would accept the spelling, so the serializer can fall back to #rrggbb when not.
import { strtod } from '../c-numeric';
import { SVG_COLORS, X11_COLORS } from './color-names';

/** 8-bit red, green, blue. */
export type Rgb = readonly [number, number, number];

/** The default palette's reserved name: "next colour of the chart's scheme". */
export const CYCLE_COLOR = '#-cycle';

function decodeTable(table: string): Map<string, Rgb> {
  const map = new Map<string, Rgb>();
  for (const entry of table.split(' ')) {
    const [name, hex] = entry.split(':');
    if (name && hex) map.set(name, hexTriple(hex, 2) ?? [0, 0, 0]);
  }
  return map;
}

let svg: Map<string, Rgb> | undefined;
let x11: Map<string, Rgb> | undefined;
const svgTable = (): Map<string, Rgb> => (svg ??= decodeTable(SVG_COLORS));
const x11Table = (): Map<string, Rgb> => (x11 ??= decodeTable(X11_COLORS));

/** Names compare as Qt and X11 compare them: case-insensitive, blanks ignored. */
function foldName(name: string): string {
  return name.toLowerCase().replace(/[ \t]/g, '');
}

/** Three components of `width` hex digits each, scaled to 8 bits as Qt does (top bits). */
function hexTriple(digits: string, width: number): Rgb | undefined {
  if (!/^[0-9a-fA-F]+$/.test(digits) || digits.length !== 3 * width) return undefined;
  const part = (i: number): number => {
    const v = parseInt(digits.slice(i * width, (i + 1) * width), 16);
    // 1 digit: 0xF → 0xFF; 3 and 4 digits keep their top 8 bits.
    return width === 1 ? v * 17 : width === 2 ? v : v >> (4 * width - 8);
  };
  return [part(0), part(1), part(2)];
}

function parseHex(spec: string): Rgb | undefined {
  const digits = spec.slice(1);
  switch (digits.length) {
    case 3: return hexTriple(digits, 1);
    case 6: return hexTriple(digits, 2);
    // #aarrggbb: Qt reads the alpha first; the colour is the last six digits.
    case 8: return /^[0-9a-fA-F]{2}$/.test(digits.slice(0, 2)) ? hexTriple(digits.slice(2), 2) : undefined;
    case 9: return hexTriple(digits, 3);
    case 12: return hexTriple(digits, 4);
    default: return undefined;
  }
}

/** The three intensities of `rgbi:r/g/b` as sscanf("%f/%f/%f") reads them, or undefined. */
function rgbiIntensities(spec: string): [number, number, number] | undefined {
  const text = spec.slice(5);
  const out: number[] = [];
  let i = 0;
  for (let k = 0; k < 3; k++) {
    if (k > 0) {
      if (text[i] !== '/') return undefined;
      i++;
    }
    const r = strtod(text, i);
    if (r.end === i) return undefined;
    out.push(r.value);
    i = r.end;
  }
  // sscanf ignores anything after the third conversion.
  return [out[0] ?? 0, out[1] ?? 0, out[2] ?? 0];
}

/**
 * The RGB a colour specification stands for, or undefined when it is not a colour (a scheme
 * name or `#-cycle` are resolved by the chart, not here). rgbi intensities map 0..1 to 0..255
 * as X11 defines them; pmchart 6.0.3's own mapping is off by one (see isPmchartColor).
 */
export function resolveColor(spec: string): Rgb | undefined {
  if (spec.startsWith('#')) return parseHex(spec);
  if (spec.startsWith('rgbi:')) {
    const f = rgbiIntensities(spec);
    if (!f || f.some((x) => !(x >= 0 && x <= 1))) return undefined;
    return [Math.round(f[0] * 255), Math.round(f[1] * 255), Math.round(f[2] * 255)];
  }
  const name = foldName(spec);
  if (name === '') return undefined;
  return svgTable().get(name) ?? x11Table().get(name);
}

/**
 * Whether pmchart 6.0.3 accepts this colour in a plot clause: Qt's hex forms, SVG names and
 * "transparent", and rgbi: whose intensities pmchart's (int)(0.5 + f·256) keeps within 0..255
 * (so `rgbi:1.0/…` is refused there, although X11 defines it as full intensity).
 */
export function isPmchartColor(spec: string): boolean {
  if (spec.startsWith('#')) return parseHex(spec) !== undefined;
  if (spec.startsWith('rgbi:')) {
    const f = rgbiIntensities(spec);
    return f !== undefined && f.every((x) => {
      const level = Math.trunc(0.5 + x * 256);
      return level >= 0 && level < 256;
    });
  }
  const name = foldName(spec);
  return name === 'transparent' || svgTable().has(name);
}

/** Whether a specification is a colour at all: any resolvable one, or "transparent". */
export function isColor(spec: string): boolean {
  return resolveColor(spec) !== undefined || foldName(spec) === 'transparent';
}

/** `#rrggbb` for an RGB triple (how pmchart saves every colour). */
export function formatHexColor(rgb: Rgb): string {
  return '#' + rgb.map((c) => c.toString(16).padStart(2, '0')).join('');
}
