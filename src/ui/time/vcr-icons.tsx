// VCR button glyphs as inline SVG: font-independent, so every machine (and every screenshot
// baseline) draws the same shapes.
const P = {
  play: 'M4 2 L13 8 L4 14 Z',
  reverse: 'M12 2 L3 8 L12 14 Z',
  stop: 'M3.5 3.5 H12.5 V12.5 H3.5 Z',
  stepForward: 'M3 2 L10 8 L3 14 Z M11 2 H13 V14 H11 Z',
  stepBack: 'M13 2 L6 8 L13 14 Z M3 2 H5 V14 H3 Z',
  fastForward: 'M1 2 L8 8 L1 14 Z M8 2 L15 8 L8 14 Z',
  rewind: 'M15 2 L8 8 L15 14 Z M8 2 L1 8 L8 14 Z',
} as const;

export type VcrIconName = keyof typeof P;

export function VcrIcon({ name }: { name: VcrIconName }) {
  return (
    <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true">
      <path d={P[name]} fill="currentColor" />
    </svg>
  );
}
