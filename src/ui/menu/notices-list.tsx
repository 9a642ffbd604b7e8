// The notices under the header (notices.ts): each with its text, dismissible by keyboard.
import { dismiss, useNotices } from './notices';

export function NoticesList() {
  const list = useNotices();
  if (list.length === 0) return null;
  return (
    <ul className="notices" data-testid="notices" aria-live="polite">
      {list.map((n) => (
        <li key={n.id} className={`notice ${n.kind}`} data-testid="notice" data-kind={n.kind}>
          <pre>{n.text}</pre>
          <button type="button" aria-label="Dismiss" onClick={() => dismiss(n.id)}>✕</button>
        </li>
      ))}
    </ul>
  );
}
