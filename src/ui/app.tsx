// The application shell.
import { useEffect, useState } from 'react';
import { getEngine } from './engine-client';

export function App() {
  const [engine, setEngine] = useState('starting engine…');
  useEffect(() => {
    getEngine()
      .hello()
      .then(setEngine, (e: unknown) => setEngine(`engine failed: ${String(e)}`));
  }, []);
  return (
    <main>
      <h1>pmdash</h1>
      <p data-testid="status">{engine}</p>
    </main>
  );
}
