// The display zone every chart and the time bar use: the user's choice, with "archive"
// meaning the zone of the active tab's source (the source its first plot draws from: one tab
// shows one wall clock, even when another host's series are overlaid on it), else of the
// current source, else of the first ready archive.
import { useMemo } from 'react';
import type { SourceEntry } from '../state/model';
import { useDash } from '../store';
import { displayZone, type DisplayZone } from './zone';

export function useZone(): DisplayZone {
  const choice = useDash((s) => s.zone);
  const summary = useDash((s) => {
    const ready = (id: string | undefined): SourceEntry | undefined => s.sources.find((x) => x.id === id && x.status === 'ready');
    const tab = s.tabs.find((t) => t.id === s.activeTabId);
    const tabSource = tab?.chartIds.map((id) => s.charts[id]?.plots[0]?.sourceId).find((id) => ready(id) !== undefined);
    return (ready(tabSource) ?? ready(s.currentSourceId) ?? s.sources.find((x) => x.status === 'ready'))?.summary;
  });
  const zoneinfo = summary?.zoneinfo ?? '';
  const timezone = summary?.timezone ?? '';
  return useMemo(() => displayZone(choice, summary ? { zoneinfo, timezone } : undefined), [choice, zoneinfo, timezone, summary]);
}
