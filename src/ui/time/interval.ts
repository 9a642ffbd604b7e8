// Interval entry as pmtime has it: a number and a unit (milliseconds … weeks).
export const INTERVAL_UNITS: readonly { readonly name: string; readonly ms: number }[] = [
  { name: 'msec', ms: 1 },
  { name: 'sec', ms: 1000 },
  { name: 'min', ms: 60_000 },
  { name: 'hour', ms: 3_600_000 },
  { name: 'day', ms: 86_400_000 },
  { name: 'week', ms: 604_800_000 },
];

/** The largest unit that divides the interval into a whole or "round" number. */
export function splitInterval(ms: number): { value: number; unit: string } {
  for (let i = INTERVAL_UNITS.length - 1; i >= 0; i--) {
    const u = INTERVAL_UNITS[i];
    if (u && ms >= u.ms && Number.isInteger(Math.round((ms / u.ms) * 1000) / 1000)) return { value: ms / u.ms, unit: u.name };
  }
  return { value: ms / 1000, unit: 'sec' };
}

export function unitMs(name: string): number {
  return INTERVAL_UNITS.find((u) => u.name === name)?.ms ?? 1000;
}

/** "10 sec", "1.5 min", "2 hour" for the window length readout. */
export function formatSpan(ms: number): string {
  const { value, unit } = splitInterval(ms);
  return `${Number(value.toPrecision(4))} ${unit}`;
}
