// Summary of a V8 CPU profile (node --cpu-prof): the functions with the most self time, so a
// benchmark can print where the time that remains goes, next to its ratios.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** A function as the profile names it: name, file (without the bundle chunk's hash) and line. */
function frameName(node: ProfileNode): string {
  const f = node.callFrame;
  const file = f.url.split('/').pop()?.replace(/-[A-Z0-9]{8}\.js$/, '.js') ?? '';
  return `${f.functionName || '(anonymous)'}${file ? ` ${file}:${f.lineNumber + 1}` : ''}`;
}

/** The `top` functions by self time in the profile `file`, one line each with ms and share. */
export function profileSummary(file: string, top: number): string[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, k) => {
    const node = byId.get(id);
    const us = profile.timeDeltas[k] ?? 0;
    total += us;
    if (node) self.set(frameName(node), (self.get(frameName(node)) ?? 0) + us);
  });
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, us]) => `${(us / 1000).toFixed(1).padStart(8)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${name}`);
}
