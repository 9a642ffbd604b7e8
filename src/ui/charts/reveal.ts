// Bringing a chart the user just made into view: a new chart lands at the bottom of its tab,
// often below the fold, and "New chart" would seem to do nothing. Asked for by the one-chart
// actions ("+ Chart", the metric browser's New chart), not by views, which add many at once.
let wanted: string | undefined;

/** Asks that chart `id` be scrolled into view once it is drawn. */
export function revealChart(id: string): void {
  wanted = id;
}

/** True (once) when chart `id` was asked to be revealed. */
export function takeReveal(id: string): boolean {
  if (wanted !== id) return false;
  wanted = undefined;
  return true;
}
