// The shape every slice creator has, without importing zustand (only ../store.ts does): a
// slice is a function of the store's set/get returning its state and its actions.
import type { DashState } from './dash-state';

export type SetDash = (partial: Partial<DashState> | ((s: DashState) => Partial<DashState>)) => void;
export type GetDash = () => DashState;
export type SliceCreator<T> = (set: SetDash, get: GetDash) => T;
