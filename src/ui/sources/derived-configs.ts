// A user's own derived metrics in the app: configuration files in pmLoadDerivedConfig's format
// (`name = expr`, `name(oneline) = "…"`), dropped with archives or picked from the Views menu.
// The engine loads each into its global derived set, so every source, open now or later, has
// the metrics, as libpcp gives every context those of $PCP_DERIVED_CONFIG. Problems are shown
// in libpcp's words with file:line. Each loaded file is remembered in this browser and loaded
// again on the next visit; there is no unloading a definition (libpcp has none either), so
// forgetting takes effect on the next visit.
import { asEngineError, describeError, getEngine } from '../engine-client';
import { notify } from '../menu/notices';
import { dash } from '../store';

const STORAGE_KEY = 'pmdash.derivedConfigs';
/** Larger files are loaded but not remembered: localStorage is a few MB for the whole app. */
const REMEMBER_LIMIT = 256 * 1024;

interface Remembered {
  readonly file: string;
  readonly text: string;
}

function isRemembered(v: unknown): v is Remembered {
  return typeof v === 'object' && v !== null && typeof (v as Remembered).file === 'string' && typeof (v as Remembered).text === 'string';
}

/** The configurations remembered in this browser, oldest first. */
export function rememberedDerivedConfigs(): Remembered[] {
  let raw: string | null;
  try {
    raw = localStorage.getItem(STORAGE_KEY);
  } catch {
    return []; // storage disabled (private mode): nothing was remembered
  }
  if (raw === null) return [];
  try {
    const list: unknown = JSON.parse(raw);
    return Array.isArray(list) ? list.filter(isRemembered) : [];
  } catch {
    notify('warning', 'The derived-metric configurations remembered in this browser could not be read; they were forgotten.');
    localStorage.removeItem(STORAGE_KEY);
    return [];
  }
}

function remember(entry: Remembered): void {
  const list = rememberedDerivedConfigs().filter((r) => r.file !== entry.file);
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify([...list, entry]));
  } catch (e) {
    notify('warning', `${entry.file}: loaded, but this browser could not remember it for the next visit (${e instanceof Error ? e.message : String(e)})`);
  }
}

/** Forgets every remembered configuration; its metrics stay until the page is reloaded. */
export function forgetDerivedConfigs(): void {
  try {
    localStorage.removeItem(STORAGE_KEY);
  } catch {
    // storage disabled: nothing to forget
  }
  notify('info', 'Derived-metric configurations forgotten: they are gone on the next visit (loaded metrics stay until then).');
}

/**
 * Loads one configuration into the engine and says what happened: the metrics added, and
 * libpcp's diagnostics when there are any. `remembered` loads (at start-up) stay quiet
 * unless nothing loads.
 */
export async function loadDerivedConfig(file: string, text: string, how: 'user' | 'remembered' = 'user'): Promise<void> {
  if (how === 'user' && dash().derivedConfigs.includes(file) && rememberedDerivedConfigs().some((r) => r.file === file && r.text === text)) {
    notify('info', `${file}: already loaded`);
    return;
  }
  let names: readonly string[];
  let messages: string;
  try {
    ({ names, messages } = await getEngine().loadDerivedConfig(file, text));
  } catch (e) {
    notify('error', describeError(asEngineError(e, file)));
    return;
  }
  dash().loadedDerivedConfig(file);
  const diagnostics = messages.trimEnd();
  // The first diagnostic in libpcp's words ("[FILE:LINE] Error: …") on the notice's line, all of them under "details".
  const first = diagnostics.split('\n')[0] ?? '';
  if (names.length === 0) {
    notify('error', diagnostics === '' ? `${file}: no derived metric definitions in it (lines "name = expression")` : `${file}: no derived metrics loaded: ${first}`, diagnostics || undefined);
    return;
  }
  if (how === 'user') {
    if (text.length <= REMEMBER_LIMIT) remember({ file, text });
    else notify('warning', `${file}: loaded, but too large (over ${REMEMBER_LIMIT / 1024} KiB) to remember for the next visit`);
  }
  const shown = names.length <= 4 ? names.join(', ') : `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;
  const loaded = `${file}: ${names.length} derived metric${names.length === 1 ? '' : 's'} loaded (${shown})`;
  // A remembered file's problems were shown when the user loaded it: not again on every visit.
  if (how === 'remembered') return;
  if (diagnostics !== '') notify('warning', `${loaded}; problems: ${first}`, diagnostics);
  else notify('info', loaded);
}

/** Start-up: the configurations remembered from earlier visits, in the order first loaded. */
export async function restoreDerivedConfigs(): Promise<void> {
  for (const r of rememberedDerivedConfigs()) await loadDerivedConfig(r.file, r.text, 'remembered');
}
