// pmchart's default colour scheme "#-cycle" (docs/pmchart-reference.md §1a "Colours", D11):
// yellow, blue, red, green, violet, brown, grey, lime, purple, khaki, handed out in turn per
// chart. The hues are pmchart's; yellow, lime and khaki are darkened a little because our
// plot background is light, where pmchart's is steel blue.
export const CYCLE: readonly string[] = ['#e6c700', '#0000ff', '#ff0000', '#008000', '#ee82ee', '#a52a2a', '#808080', '#32cd32', '#800080', '#bdb76b'];

/** The colour of the n-th series of a chart that did not choose one. */
export function cycleColor(n: number): string {
  return CYCLE[((n % CYCLE.length) + CYCLE.length) % CYCLE.length] ?? '#000000';
}
