// The display zone every chart and the time bar use: the user's choice, with "archive"
// meaning the zone of the current source (or the first ready archive).
import { useMemo } from 'react';
import { useDash } from '../store';
import { displayZone, type DisplayZone } from './zone';

export function useZone(): DisplayZone {
  const choice = useDash((s) => s.zone);
  const summary = useDash((s) => (s.sources.find((x) => x.id === s.currentSourceId && x.status === 'ready') ?? s.sources.find((x) => x.status === 'ready'))?.summary);
  const zoneinfo = summary?.zoneinfo ?? '';
  const timezone = summary?.timezone ?? '';
  return useMemo(() => displayZone(choice, summary ? { zoneinfo, timezone } : undefined), [choice, zoneinfo, timezone, summary]);
}
