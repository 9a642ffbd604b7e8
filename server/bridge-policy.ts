// The bridge's rules, separate from its sockets: which targets and Origins are allowed, which
// client PDUs may reach pmcd and which the bridge answers itself (pdu-protocol.md §8.5).
// Everything here is a pure decision over a request or one whole PDU, so each rule is
// testable on its own.
import type { IncomingMessage } from 'node:http';
import { EINVAL, isPmError, PM_ERR_PERMISSION, PmError } from '../src/pcp-core/errors';
import {
  CVERSION,
  PDU_CLIENT_MAX_BYTES,
  PDU_CREDS,
  PDU_DESC_IDS,
  PDU_DESC_REQ,
  PDU_FETCH,
  PDU_HIGHRES_FETCH,
  PDU_INSTANCE_REQ,
  PDU_LABEL_REQ,
  PDU_PMNS_CHILD,
  PDU_PMNS_IDS,
  PDU_PMNS_NAMES,
  PDU_PMNS_TRAVERSE,
  PDU_PROFILE,
  PDU_RESULT,
  PDU_TEXT_REQ,
  PDU_VERSION2,
  pduTypeName,
} from '../src/pcp-core/pdu/constants';
import { decodeCreds } from '../src/pcp-core/pdu/creds-pdu';
import { decodePdu } from '../src/pcp-core/pdu/decode-any';
import type { Pdu } from '../src/pcp-core/pdu/pdu-buffer';
import { BRIDGE_PATH, formatHostPort, formatTargetSpec, parseTargetSpec, type TargetSpec } from '../src/pcp-core/pdu/target-spec';

export interface BridgePolicy {
  /**
   * Allowed targets in canonical form (target-spec.ts), or `*@PROXY:PORT` for any pmcd
   * behind that pmproxy; the first plain target is the default.
   */
  readonly targets: readonly string[];
  /** Origins allowed besides the server's own (scheme://host[:port]). */
  readonly origins: readonly string[];
  /** Forward client-sent RESULT PDUs (stores). Off unless explicitly enabled. */
  readonly allowStore: boolean;
  /** Largest client PDU forwarded (pmcd's own limit, §1.4). */
  readonly maxPduBytes: number;
}

/**
 * `*@PROXY[:PORT]` allows any pmcd that pmproxy relays to: the bridge itself still connects
 * only to that pmproxy, and which hosts pmproxy reaches is pmproxy's own policy.
 */
const ANY_BEHIND = '*@';

/** The canonical allow-list entry for `text`: a target, or `*@PROXY:PORT`. */
export function canonicalEntry(text: string): string {
  const t = text.trim();
  if (!t.startsWith(ANY_BEHIND)) return formatTargetSpec(parseTargetSpec(t));
  const proxy = parseTargetSpec(`any@${t.slice(ANY_BEHIND.length)}`).proxy;
  if (!proxy) throw new PmError(EINVAL, `bad target '${text}' (expected *@PROXY[:PORT])`, text);
  return ANY_BEHIND + formatHostPort(proxy);
}

export function makePolicy(options: { targets?: readonly string[]; origins?: readonly string[]; allowStore?: boolean; maxPduBytes?: number }): BridgePolicy {
  const targets = (options.targets && options.targets.length > 0 ? options.targets : ['localhost:44321']).map(canonicalEntry);
  const origins = (options.origins ?? []).map((o) => new URL(o).origin);
  return { targets: [...new Set(targets)], origins, allowStore: options.allowStore ?? false, maxPduBytes: options.maxPduBytes ?? PDU_CLIENT_MAX_BYTES };
}

/** Whether the canonical target `name` is allowed: listed itself, or behind a `*@` pmproxy. */
function allowed(name: string, policy: BridgePolicy): boolean {
  if (policy.targets.includes(name)) return true;
  const proxy = parseTargetSpec(name).proxy;
  return proxy !== undefined && policy.targets.includes(ANY_BEHIND + formatHostPort(proxy));
}

/** The target used when a request names none: the first entry that is a target itself. */
export function defaultTarget(policy: BridgePolicy): string | undefined {
  return policy.targets.find((t) => !t.startsWith(ANY_BEHIND));
}

/** Why an upgrade is refused: the HTTP status and a short reason (also logged). */
export interface Refusal {
  readonly status: number;
  readonly reason: string;
}

/**
 * The Origin rule. Browsers always send Origin on a WebSocket upgrade; a page of another
 * site must not be able to drive the bridge with the user's network position, so only the
 * server's own origin (same host and port as the request's Host header) and configured
 * origins pass. A missing Origin is refused too: non-browser clients can set one.
 */
export function checkOrigin(req: IncomingMessage, policy: BridgePolicy): Refusal | undefined {
  const origin = req.headers.origin;
  if (!origin) return { status: 403, reason: 'missing Origin header' };
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return { status: 403, reason: `malformed Origin '${origin}'` };
  }
  if (policy.origins.includes(parsed.origin)) return undefined;
  const host = req.headers.host;
  if ((parsed.protocol === 'http:' || parsed.protocol === 'https:') && host !== undefined && parsed.host === host) return undefined;
  return { status: 403, reason: `Origin '${origin}' is not allowed` };
}

/** The target a request names (or the default), if it is on the allow-list. */
export function chooseTarget(req: IncomingMessage, policy: BridgePolicy): { target: TargetSpec; name: string } | Refusal {
  const url = new URL(req.url ?? '/', 'http://bridge');
  if (url.pathname !== BRIDGE_PATH) return { status: 404, reason: `no WebSocket endpoint at ${url.pathname}` };
  // `target` is the documented parameter; `host` (the -h vocabulary) is accepted as an alias.
  // Anything else is refused rather than ignored, so a misspelt parameter cannot silently
  // land the client on the default target.
  for (const key of url.searchParams.keys()) {
    if (key !== 'target' && key !== 'host') return { status: 400, reason: `unknown parameter '${key}' (use target=HOST:PORT)` };
  }
  const given = [...url.searchParams.getAll('target'), ...url.searchParams.getAll('host')];
  if (given.length > 1) return { status: 400, reason: 'give one target' };
  const asked = given[0] ?? null;
  const name = asked === null ? defaultTarget(policy) : canonical(asked);
  if (name === undefined) return { status: 400, reason: asked === null ? 'give a target (the bridge has no default)' : `bad target '${asked}'` };
  if (!allowed(name, policy)) return { status: 403, reason: `target '${name}' is not on the bridge's list` };
  return { target: parseTargetSpec(name), name };
}

function canonical(text: string): string | undefined {
  try {
    return formatTargetSpec(parseTargetSpec(text));
  } catch (e) {
    if (isPmError(e)) return undefined;
    throw e;
  }
}

/** Client PDU types a read-only client needs (§8.5); CREDS only as the first PDU. */
const READ_TYPES = new Set([
  PDU_PROFILE,
  PDU_FETCH,
  PDU_HIGHRES_FETCH,
  PDU_DESC_REQ,
  PDU_DESC_IDS,
  PDU_INSTANCE_REQ,
  PDU_TEXT_REQ,
  PDU_LABEL_REQ,
  PDU_PMNS_NAMES,
  PDU_PMNS_IDS,
  PDU_PMNS_CHILD,
  PDU_PMNS_TRAVERSE,
]);

/**
 * A verdict on one client PDU: forward it to pmcd; answer it in pmcd's place with an ERROR
 * PDU carrying `error` and keep the connection (a refused store); or close the connection
 * with the WebSocket close code `code`.
 */
export type PduVerdict =
  | { readonly action: 'forward' }
  | { readonly action: 'answer'; readonly error: number; readonly reason: string }
  | { readonly action: 'close'; readonly code: number; readonly reason: string };

/** WebSocket close codes used for refusals (RFC 6455 §7.4.1). */
export const CLOSE_POLICY = 1008;
export const CLOSE_TOO_BIG = 1009;
export const CLOSE_UPSTREAM = 1011;
/** The server is overloaded (its output buffers across clients are full). */
export const CLOSE_TRY_AGAIN = 1013;

/**
 * Checks one whole client PDU. `first` is true for the first PDU of the connection, which
 * must be a plain CREDS (version 2, no feature flags: no TLS, SASL or container exchange
 * can run through the bridge, and pmcd closes a connection whose first PDU is not CREDS).
 */
export function checkClientPdu(pdu: Pdu, first: boolean, policy: BridgePolicy): PduVerdict {
  const deny = (reason: string): PduVerdict => ({ action: 'close', code: CLOSE_POLICY, reason });
  const forward: PduVerdict = { action: 'forward' };
  if (first) {
    if (pdu.type !== PDU_CREDS) return deny(`the first PDU must be CREDS, not ${pduTypeName(pdu.type)}`);
    try {
      const creds = decodeCreds(pdu, 'client');
      const ok = creds.length === 1 && creds[0]?.type === CVERSION && creds[0].version === PDU_VERSION2 && creds[0].flags === 0;
      return ok ? forward : deny('CREDS must name protocol version 2 and request no features');
    } catch (e) {
      if (isPmError(e)) return deny(`malformed CREDS: ${e.describe()}`);
      throw e;
    }
  }
  if (pdu.type === PDU_RESULT) {
    // A refused store gets what pmcd itself answers when its access rules deny the store
    // (checked before decoding, as pmcd does): ERROR(PM_ERR_PERMISSION). The connection
    // stays usable, as it does with pmcd.
    if (!policy.allowStore) return { action: 'answer', error: PM_ERR_PERMISSION, reason: 'stores are not enabled on this bridge (pmdash serve --allow-store)' };
  } else if (!READ_TYPES.has(pdu.type)) {
    return deny(`${pduTypeName(pdu.type)} PDUs are not allowed by this bridge`);
  }
  try {
    decodePdu(pdu, 'client');
  } catch (e) {
    if (isPmError(e)) return deny(`malformed ${pduTypeName(pdu.type)}: ${e.describe()}`);
    throw e;
  }
  return forward;
}
