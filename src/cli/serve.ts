// `pmdash serve`: serves the built app and the pmcd WebSocket bridge on one port and prints
// the URL to open. The bridge forwards only to the pmcd (or pmproxy-relayed) targets given
// with --pmcd or PMDASH_PMCD (default localhost:44321); see server/bridge.ts. With --pmproxy
// (or PMDASH_PMPROXY) it also passes that pmproxy's read endpoints through at /pmproxy/…
// (server/pmproxy-proxy.ts).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { optFlag, optList, optString, parseArgs, UsageError, type OptionSpec } from './args';
import type { Command } from './command';
import { canonicalEntry } from '../../server/bridge-policy';
import { parsePublicHost } from '../../server/host-check';
import { parsePmproxyUrl } from '../../server/pmproxy-proxy';
import { serveWithBridge } from '../../server/serve';
import { isPmError } from '../pcp-core/errors';

const options: readonly OptionSpec[] = [
  { short: 'p', long: 'port', value: true, arg: 'N', help: 'port to listen on (default 8044; 0 picks a free one)' },
  { long: 'host', value: true, arg: 'ADDR', help: 'address to listen on (default localhost)' },
  {
    long: 'pmcd',
    value: true,
    repeat: true,
    arg: 'HOST[:PORT][@PROXY[:PORT]]',
    help: 'a pmcd the bridge may reach, directly or through pmproxy; *@PROXY[:PORT] admits any pmcd behind that pmproxy (repeatable; the first plain target is the default; else $PMDASH_PMCD, comma-separated, else localhost:44321)',
  },
  { long: 'origin', value: true, repeat: true, arg: 'URL', help: 'another page origin allowed to use the bridge (repeatable; the server’s own origin always is)' },
  {
    long: 'public-host',
    value: true,
    repeat: true,
    arg: 'NAME[:PORT]',
    help: 'another name the server answers to, such as the one a reverse proxy forwards in Host (repeatable; else $PMDASH_PUBLIC_HOST, comma-separated); requests naming any other host are refused',
  },
  {
    long: 'pmproxy',
    value: true,
    arg: 'URL',
    help: 'a pmproxy whose read endpoints (/series, /pmapi) are served at /pmproxy/… on this origin (http://HOST[:PORT], default port 44322; else $PMDASH_PMPROXY)',
  },
  { long: 'allow-store', help: 'let bridge clients store metric values (pmstore); off by default' },
  { long: 'max-connections', value: true, arg: 'N', help: 'most simultaneous bridge connections (default 64)' },
  { long: 'idle-timeout', value: true, arg: 'SECONDS', help: 'close bridge connections idle this long (default 600)' },
];

function positiveInt(text: string | undefined, what: string, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`bad ${what} '${text}'`);
  return n;
}

/** The flags, else the comma-separated environment variable. */
function flagsOrEnv(flags: readonly string[], env: string | undefined): readonly string[] {
  return flags.length > 0 ? flags : (env ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
}

/** The bridge's targets from --pmcd, else $PMDASH_PMCD, else the local pmcd; canonical (`*@PROXY:PORT` too). */
export function bridgeTargets(flags: readonly string[], env: string | undefined): string[] {
  const given = flagsOrEnv(flags, env);
  const list = given.length > 0 ? given : ['localhost:44321'];
  return list.map((t) => {
    try {
      return canonicalEntry(t);
    } catch (e) {
      if (isPmError(e)) throw new UsageError(e.message);
      throw e;
    }
  });
}

/** The pmproxy to proxy, from --pmproxy, else $PMDASH_PMPROXY; undefined when neither is set. */
export function pmproxyUrl(flag: string | undefined, env: string | undefined): URL | undefined {
  const text = flag ?? (env !== undefined && env.trim() !== '' ? env : undefined);
  if (text === undefined) return undefined;
  try {
    return parsePmproxyUrl(text);
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
}

/** The extra names the server answers to, from --public-host, else $PMDASH_PUBLIC_HOST. */
export function publicHosts(flags: readonly string[], env: string | undefined): string[] {
  return flagsOrEnv(flags, env).map((h) => {
    try {
      parsePublicHost(h);
    } catch (e) {
      throw new UsageError(e instanceof Error ? e.message : String(e));
    }
    return h.trim();
  });
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'serve the dashboard and the pmcd bridge on one port',
  usage: '[--port N] [--host ADDR] [--pmcd HOST:PORT ...] [--origin URL ...] [--public-host NAME[:PORT] ...] [--pmproxy URL] [--allow-store]',
  options,
  async run(argv, io) {
    const args = parseArgs(argv, options);
    const portText = optString(args, 'port') ?? process.env.PMDASH_PORT ?? '8044';
    const port = Number(portText);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`bad port '${portText}'`);
    const host = optString(args, 'host') ?? 'localhost';
    const targets = bridgeTargets(optList(args, 'pmcd'), process.env.PMDASH_PMCD);
    const origins = optList(args, 'origin');
    for (const o of origins) {
      if (!URL.canParse(o)) throw new UsageError(`bad origin '${o}'`);
    }
    const hosts = publicHosts(optList(args, 'public-host'), process.env.PMDASH_PUBLIC_HOST);
    const maxConnections = positiveInt(optString(args, 'max-connections'), 'connection limit', 64);
    const idleTimeoutMs = positiveInt(optString(args, 'idle-timeout'), 'idle timeout', 600) * 1000;
    const allowStore = optFlag(args, 'allow-store');
    const pmproxy = pmproxyUrl(optString(args, 'pmproxy'), process.env.PMDASH_PMPROXY);
    // dist/node/cli.js or, code-split, dist/node/chunks/serve-*.js: the app is dist/app.
    const root = [new URL('../app', import.meta.url), new URL('../../app', import.meta.url)].map((u) => fileURLToPath(u)).find((p) => existsSync(p)) ?? fileURLToPath(new URL('../../app', import.meta.url));
    if (!existsSync(root)) {
      io.stderr(`pmdash serve: ${root} is missing; run 'npm run build' first\n`);
      return 1;
    }
    const { server } = await serveWithBridge({
      port,
      host,
      root,
      log: (line) => io.stderr(`${new Date().toISOString()} ${line}\n`),
      bridge: { targets, origins, publicHosts: hosts, allowStore, maxConnections, idleTimeoutMs },
      pmproxy: pmproxy ? { pmproxy } : undefined,
    });
    const address = server.address();
    const actual = typeof address === 'object' && address ? address.port : port;
    io.stdout(
      `pmdash is serving ${root}\n` +
        `Open http://${host}:${actual}/ in a browser (Ctrl-C stops).\n` +
        `pmcd bridge: ws://${host}:${actual}/pmcd?target=HOST:PORT for ${targets.join(', ')}${allowStore ? ' (stores allowed)' : ''}\n` +
        (pmproxy ? `pmproxy: http://${host}:${actual}/pmproxy/series/… and /pmproxy/pmapi/… (reads only) from ${pmproxy.href}\n` : ''),
    );
    await new Promise<void>((resolve) => {
      const stop = (): void => {
        server.close(() => resolve());
        server.closeAllConnections();
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    return 0;
  },
};
