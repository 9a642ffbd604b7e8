// The only module that imports zustand. It builds the dashboard store from its three slices
// (sources, charts, time) and a separate hover store, so pointer movement never re-renders
// layout (docs/design.md "Store"; Excalidraw's UIAppState split). Components read through
// narrow selectors; everything else calls actions on `dash()`.
import { create, type StoreApi, type UseBoundStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { createChartsSlice } from './state/charts-slice';
import type { DashState } from './state/dash-state';
import { createSourcesSlice } from './state/sources-slice';
import { createTimeSlice } from './state/time-slice';

export type { DashState } from './state/dash-state';

/** Builds a fresh dashboard store (the app has one; tests make their own). */
export function createDashStore(): UseBoundStore<StoreApi<DashState>> {
  return create<DashState>()((set, get) => ({
    ...createSourcesSlice(set, get),
    ...createChartsSlice(set, get),
    ...createTimeSlice(set, get),
  }));
}

export const useDash = createDashStore();

/** Current state and actions, outside React. */
export function dash(): DashState {
  return useDash.getState();
}

/** A selector returning an object or array compared shallowly (avoids needless renders). */
export function useDashShallow<T>(selector: (s: DashState) => T): T {
  return useDash(useShallow(selector));
}

/** Subscribes outside React (playback loop, series cache); returns the unsubscribe. */
export function watchDash(listener: (s: DashState, prev: DashState) => void): () => void {
  return useDash.subscribe(listener);
}

/** Where the pointer is over the charts: the time under it, or undefined. */
export interface HoverState {
  readonly timeMs: number | undefined;
  /** The chart the pointer is in (its tooltip is the one shown). */
  readonly chartId: string | undefined;
}

export const useHover = create<HoverState>()(() => ({ timeMs: undefined, chartId: undefined }));

export function setHover(h: HoverState): void {
  useHover.setState(h);
}
