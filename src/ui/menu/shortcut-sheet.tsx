// The `?` sheet (issue 13 item 8): every keyboard shortcut of shortcuts.ts in one dialog that
// `?`, Esc, its close button or a click outside closes. Mouse gestures that have no menu item
// are listed too, since nothing else on screen tells of them.
import { useEffect, useRef } from 'react';
import { SHORTCUTS } from './shortcuts';
import './notices.css';

const GESTURES: readonly { readonly what: string; readonly action: string }[] = [
  { what: 'Drag across a chart', action: 'Zoom the time window to the dragged span' },
  { what: 'Click a legend entry', action: 'Hide or show that series' },
  { what: 'Double-click (or Shift-click) a legend entry', action: 'Show only that series' },
  { what: 'Hover a chart', action: 'Crosshair in every chart, values at the nearest sample' },
  { what: 'Drop files or folders anywhere', action: 'Open PCP archives (one source per host) and pmchart views' },
];

export function ShortcutSheet({ onClose }: { onClose: () => void }) {
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    panel.current?.focus();
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Escape') {
        e.preventDefault();
        onClose();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div className="sheet-backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div className="sheet" role="dialog" aria-modal="true" aria-labelledby="shortcut-sheet-title" data-testid="shortcut-sheet" tabIndex={-1} ref={panel}>
        <div className="sheet-head">
          <h2 id="shortcut-sheet-title">Keyboard shortcuts</h2>
          <button type="button" aria-label="Close" data-testid="shortcut-sheet-close" onClick={onClose}>✕</button>
        </div>
        <table className="sheet-keys">
          <tbody>
            {SHORTCUTS.map((s) => (
              <tr key={s.action} data-testid="shortcut">
                <td>{s.keys.map((k, i) => <span key={i}>{i > 0 && ' + '}<kbd>{k}</kbd></span>)}</td>
                <td>{s.action}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <h3>Mouse</h3>
        <table className="sheet-keys">
          <tbody>
            {GESTURES.map((g) => (
              <tr key={g.what}>
                <td>{g.what}</td>
                <td>{g.action}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="sheet-note">Keys act on the time bar unless the cursor is in a text field.</p>
      </div>
    </div>
  );
}
