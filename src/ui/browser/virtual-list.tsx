// A virtualized list of fixed-height rows: only the rows in view (plus a margin) are in the
// DOM, so the PMNS of thousands of metrics scrolls and filters without lag.
import { useState, type ReactNode } from 'react';

interface Props<T> {
  readonly items: readonly T[];
  readonly rowHeight: number;
  readonly height: number;
  readonly render: (item: T, index: number) => ReactNode;
  readonly testid?: string;
}

export function VirtualList<T>({ items, rowHeight, height, render, testid }: Props<T>) {
  const [top, setTop] = useState(0);
  const first = Math.max(0, Math.floor(top / rowHeight) - 10);
  const last = Math.min(items.length, Math.ceil((top + height) / rowHeight) + 10);
  return (
    <div className="vlist" style={{ height, overflowY: 'auto' }} onScroll={(e) => setTop(e.currentTarget.scrollTop)} data-testid={testid} role="tree">
      <div style={{ height: items.length * rowHeight, position: 'relative' }}>
        {items.slice(first, last).map((item, k) => (
          <div key={first + k} style={{ position: 'absolute', top: (first + k) * rowHeight, height: rowHeight, left: 0, right: 0 }}>
            {render(item, first + k)}
          </div>
        ))}
      </div>
    </div>
  );
}
