// The colours each chart is drawing, by series, for the chart editor's swatches: the editor
// shows what is on screen (the scheme's colour of an uncoloured plot, each instance's own),
// never a placeholder. Kept outside the store: it follows the drawn data, not the model.
import { useSyncExternalStore } from 'react';

/** One drawn series: its plot, instance ('' for a singular metric) and colour. */
export interface ShownColor {
  readonly plotId: string;
  readonly inst: string;
  readonly color: string;
}

const NONE: readonly ShownColor[] = [];
const shown = new Map<string, readonly ShownColor[]>();
const listeners = new Set<() => void>();

/** A chart view reports what it draws (an unchanged list is not re-announced). */
export function reportShownColors(chartId: string, list: readonly ShownColor[]): void {
  const old = shown.get(chartId) ?? NONE;
  if (old.length === list.length && old.every((o, i) => o.plotId === list[i]?.plotId && o.inst === list[i]?.inst && o.color === list[i]?.color)) return;
  if (list.length === 0) shown.delete(chartId);
  else shown.set(chartId, list);
  for (const fn of listeners) fn();
}

/** The series a chart draws, with their colours. */
export function useShownColors(chartId: string): readonly ShownColor[] {
  return useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    () => shown.get(chartId) ?? NONE,
  );
}
