// The whole store's type: the three slices of docs/design.md "Store". Hover and cursor state
// are deliberately not here (../store.ts keeps them in their own store) so moving the mouse
// never re-renders layout.
import type { ChartsSlice } from './charts-slice';
import type { SourcesSlice } from './sources-slice';
import type { TimeSlice } from './time-slice';

export type DashState = SourcesSlice & ChartsSlice & TimeSlice;
