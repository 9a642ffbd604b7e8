// An in-memory pmcd for tests of the client, the live context and the bridge: it speaks the
// protocol of pdu-protocol.md over a Transport pair (or a TCP socket in Node tests), built
// from the same codecs, over a small table of metrics. Tests steer it: queue state-change
// flags, refuse a profile or stores, go silent, send a stray PDU, or drop every session
// ("restart"). Stores are recorded.
// It is deliberately simple: one PMNS level per metric-name component, values from callbacks.
import { PM_ERR_INDOM, PM_ERR_INST, PM_ERR_IPC, PM_ERR_NAME, PM_ERR_NOAGENT, PM_ERR_NONLEAF, PM_ERR_PMID, PM_ERR_TEXT, PmError } from '../errors';
import { PM_ID_NULL, PM_INDOM_NULL, PM_IN_NULL, type AtomValue, type Desc, type InDom, type PmId, type Result } from '../types';
import {
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
  PM_PROFILE_INCLUDE,
  PM_TEXT_HELP,
} from './constants';
import { decodeDescIds, decodeDescReq, encodeDesc, encodeDescs } from './desc-pdu';
import { encodeError, encodeHello } from './error-pdu';
import { decodeFetch } from './fetch-pdu';
import { decodeInstanceReq, encodeInstance } from './instance-pdu';
import { decodeLabelReq, encodeLabel } from './label-pdu';
import type { Pdu } from './pdu-buffer';
import { decodeNameList, decodePmnsIds, decodePmnsNodeRequest, encodeNameList, encodePmnsIds } from './pmns-pdu';
import { decodeProfile, type Profile } from './profile-pdu';
import { PduReassembler } from './reassembler';
import { decodeResult, encodeResult } from './result-pdu';
import { decodeTextReq, encodeText } from './text-pdu';
import { TransportEvents, type Transport } from './transport';

export interface FakeMetric {
  readonly name: string;
  readonly desc: Desc;
  /** Instance ids and names of the metric's indom (none for a singular metric). */
  readonly instances?: ReadonlyArray<readonly [number, string]>;
  /** The value of each instance at fetch time (or the one value of a singular metric). */
  readonly value: (inst: number) => AtomValue;
  readonly oneline?: string;
  readonly help?: string;
}

/** Steering knobs a test may set at any time. */
export interface FakeBehaviour {
  /** Features in the hello. */
  features: number;
  /** Refuse connections with this (modern) code in the hello. */
  refuse?: number;
  /** State-change flags to send ahead of the next fetch reply (then cleared). */
  pendingFlags: number;
  /** Answer the next PROFILE with this error code. */
  failProfile?: number;
  /** Stop answering anything. */
  silent: boolean;
  /** Send this PDU instead of the next reply. */
  strayReply?: Uint8Array;
  /** Answer stores with this error code (else they are accepted: ERROR code 0). */
  refuseStore?: number;
}

interface Session {
  readonly events: TransportEvents;
  readonly reassembler: PduReassembler;
  sawCreds: boolean;
  profile?: Profile;
  closed: boolean;
}

export class FakePmcd {
  readonly behaviour: FakeBehaviour;
  /** Every PDU received, oldest first, for assertions. */
  readonly received: Pdu[] = [];
  /** Every store accepted, oldest first. */
  readonly stores: Result[] = [];
  private readonly sessions = new Set<Session>();
  private readonly byName = new Map<string, FakeMetric>();
  private readonly byPmid = new Map<PmId, FakeMetric>();
  connections = 0;

  constructor(
    private metrics: FakeMetric[],
    features = 0x0e44,
  ) {
    this.behaviour = { features, pendingFlags: 0, silent: false };
    this.index();
  }

  private index(): void {
    this.byName.clear();
    this.byPmid.clear();
    for (const m of this.metrics) {
      this.byName.set(m.name, m);
      this.byPmid.set(m.desc.pmid, m);
    }
  }

  /** Replaces the metric table (e.g. to simulate a PMDA going away). */
  setMetrics(metrics: FakeMetric[]): void {
    this.metrics = metrics;
    this.index();
  }

  get openSessions(): number {
    return this.sessions.size;
  }

  /** A new client connection: the hello is already queued on it. */
  connect(peer = 'fake-pmcd'): Transport {
    this.connections++;
    const session: Session = { events: new TransportEvents(), reassembler: new PduReassembler(peer, PDU_CLIENT_MAX_BYTES), sawCreds: false, closed: false };
    this.sessions.add(session);
    const close = (error: PmError | undefined): void => {
      if (session.closed) return;
      session.closed = true;
      this.sessions.delete(session);
      session.events.close(error);
    };
    const transport: Transport = {
      peer,
      send: (bytes) => {
        if (session.closed) throw new PmError(PM_ERR_IPC, 'send on a closed connection', peer);
        // Deliver asynchronously, as a network would.
        queueMicrotask(() => this.receive(session, bytes, close));
      },
      onData: (h) => session.events.setData(h),
      onClose: (h) => session.events.setClose(h),
      close: () => close(undefined),
    };
    const refuse = this.behaviour.refuse;
    queueMicrotask(() => {
      session.events.data(encodeHello(this.behaviour.features, refuse ?? 0));
      if (refuse !== undefined) close(new PmError(-12368, 'refused', peer));
    });
    return transport;
  }

  /** Drops every session, as a pmcd restart does. */
  dropAll(): void {
    for (const s of [...this.sessions]) {
      s.closed = true;
      this.sessions.delete(s);
      s.events.close(new PmError(-104, 'Connection reset by peer', 'fake-pmcd'));
    }
  }

  private receive(session: Session, bytes: Uint8Array, close: (e: PmError | undefined) => void): void {
    if (session.closed) return;
    let pdus: Pdu[];
    try {
      pdus = session.reassembler.push(bytes);
    } catch {
      close(new PmError(PM_ERR_IPC, 'bad PDU length: pmcd closes silently', 'fake-pmcd'));
      return;
    }
    for (const pdu of pdus) {
      this.received.push(pdu);
      if (this.behaviour.silent) continue;
      if (!session.sawCreds && pdu.type !== PDU_CREDS) {
        close(new PmError(PM_ERR_IPC, 'first PDU was not CREDS', 'fake-pmcd'));
        return;
      }
      const replies = this.answer(session, pdu);
      const stray = this.behaviour.strayReply;
      if (stray && replies.length > 0) {
        this.behaviour.strayReply = undefined;
        session.events.data(stray);
        continue;
      }
      for (const r of replies) session.events.data(r);
    }
  }

  private answer(session: Session, pdu: Pdu): Uint8Array[] {
    const peer = 'fake-pmcd';
    const err = (code: number): Uint8Array[] => [encodeError(code)];
    switch (pdu.type) {
      case PDU_CREDS:
        session.sawCreds = true;
        return [];
      case PDU_PROFILE: {
        const fail = this.behaviour.failProfile;
        if (fail !== undefined) {
          this.behaviour.failProfile = undefined;
          return err(fail);
        }
        session.profile = decodeProfile(pdu, peer).profile;
        return [];
      }
      case PDU_PMNS_NAMES: {
        const names = decodeNameList(pdu, peer).names;
        const ids = names.map((n) => this.byName.get(n)?.desc.pmid ?? PM_ID_NULL);
        if (names.length === 1 && ids[0] === PM_ID_NULL) return err(this.isNonLeaf(names[0] ?? '') ? PM_ERR_NONLEAF : PM_ERR_NAME);
        return [encodePmnsIds(ids, ids.filter((id) => id !== PM_ID_NULL).length)];
      }
      case PDU_PMNS_IDS: {
        const id = decodePmnsIds(pdu, peer).pmids[0] ?? PM_ID_NULL;
        const m = this.byPmid.get(id);
        return m ? [encodeNameList([m.name])] : err(PM_ERR_PMID);
      }
      case PDU_PMNS_CHILD: {
        const { name, subtype } = decodePmnsNodeRequest(pdu, peer);
        const kids = this.children(name);
        if (!kids) return err(PM_ERR_NAME);
        return [encodeNameList(kids.map((k) => k[0]), subtype === 1 ? kids.map((k) => (k[1] ? 0 : 1)) : undefined)];
      }
      case PDU_PMNS_TRAVERSE: {
        const { name } = decodePmnsNodeRequest(pdu, peer);
        const leaves = this.metrics.map((m) => m.name).filter((n) => name === '' || n === name || n.startsWith(`${name}.`));
        return leaves.length > 0 ? [encodeNameList(leaves)] : err(PM_ERR_NAME);
      }
      case PDU_DESC_REQ: {
        const m = this.byPmid.get(decodeDescReq(pdu, peer));
        return m ? [encodeDesc(m.desc)] : err(PM_ERR_PMID);
      }
      case PDU_DESC_IDS: {
        const ids = decodeDescIds(pdu, peer);
        const descs = ids.map((id) => this.byPmid.get(id)?.desc);
        if (ids.length === 1 && !descs[0]) return err(PM_ERR_PMID);
        const failed: Desc = { pmid: PM_ID_NULL, type: 0, indom: 0 as InDom, sem: 0, units: { dimSpace: 0, dimTime: 0, dimCount: 0, scaleSpace: 0, scaleTime: 0, scaleCount: 0 } };
        return [encodeDescs(descs.map((d) => d ?? failed))];
      }
      case PDU_INSTANCE_REQ: {
        const req = decodeInstanceReq(pdu, peer);
        const m = this.metrics.find((x) => x.desc.indom === req.indom && x.desc.indom !== PM_INDOM_NULL);
        if (!m) return err(PM_ERR_INDOM);
        const all = m.instances ?? [];
        const pick = req.inst !== PM_IN_NULL ? all.filter(([i]) => i === req.inst) : req.name ? all.filter(([, n]) => n === req.name) : all;
        if ((req.inst !== PM_IN_NULL || req.name) && pick.length === 0) return err(PM_ERR_INST);
        return [encodeInstance(req.indom, pick.map(([i]) => i), pick.map(([, n]) => n))];
      }
      case PDU_TEXT_REQ: {
        const req = decodeTextReq(pdu, peer);
        const m = this.byPmid.get(req.ident as PmId);
        const text = (req.type & PM_TEXT_HELP) !== 0 ? m?.help : m?.oneline;
        return text === undefined ? err(PM_ERR_TEXT) : [encodeText(req.ident, text)];
      }
      case PDU_LABEL_REQ: {
        const req = decodeLabelReq(pdu, peer);
        const json = req.type === 1 ? '{"hostname":"fake"}' : '';
        const labels = req.type === 1 ? [{ name: 'hostname', value: '"fake"', flags: 1 }] : [];
        return [encodeLabel(req.ident, req.type, [{ inst: PM_IN_NULL, nlabels: labels.length, json, labels }])];
      }
      case PDU_FETCH:
      case PDU_HIGHRES_FETCH:
        return this.fetch(session, pdu);
      case PDU_RESULT: {
        // A store (§3.17): refused before decoding when access rules say so, as pmcd does.
        const refuse = this.behaviour.refuseStore;
        if (refuse !== undefined) return err(refuse);
        this.stores.push(decodeResult(pdu, peer, (id) => this.byPmid.get(id)?.desc.type));
        return err(0);
      }
      default:
        return err(PM_ERR_IPC);
    }
  }

  private fetch(session: Session, pdu: Pdu): Uint8Array[] {
    const req = decodeFetch(pdu, 'fake-pmcd');
    if (!session.profile) return [encodeError(-12381)];
    const out: Uint8Array[] = [];
    if (this.behaviour.pendingFlags) {
      out.push(encodeError(this.behaviour.pendingFlags));
      this.behaviour.pendingFlags = 0;
    }
    const profile = session.profile;
    const included = (indom: InDom, inst: number): boolean => {
      const e = profile.entries.find((x) => x.indom === indom);
      const state = e ? e.state : profile.state;
      const listed = e ? e.instances.includes(inst) : false;
      return state === PM_PROFILE_INCLUDE ? !listed : listed;
    };
    const sets = req.pmids.map((id) => {
      const m = this.byPmid.get(id);
      if (!m) return { pmid: id, numval: PM_ERR_NOAGENT, valfmt: 0, inst: new Int32Array(0), values: [] };
      const insts = m.desc.indom === PM_INDOM_NULL ? [PM_IN_NULL] : (m.instances ?? []).map(([i]) => i).filter((i) => included(m.desc.indom, i));
      return { pmid: id, numval: insts.length, valfmt: 1, inst: Int32Array.from(insts), values: insts.map((i) => m.value(i)) };
    });
    const now = Date.now();
    const timestamp = { sec: Math.floor(now / 1000), nsec: (now % 1000) * 1_000_000 };
    out.push(encodeResult({ timestamp, sets }, req.highres, (id) => this.byPmid.get(id)?.desc.type));
    return out;
  }

  private isNonLeaf(name: string): boolean {
    return this.metrics.some((m) => m.name.startsWith(`${name}.`));
  }

  /** [component, isLeaf] children of a node, or undefined when the node does not exist. */
  private children(name: string): Array<[string, boolean]> | undefined {
    const prefix = name === '' ? '' : `${name}.`;
    if (name !== '' && this.byName.has(name)) return [];
    const kids = new Map<string, boolean>();
    for (const m of this.metrics) {
      if (!m.name.startsWith(prefix)) continue;
      const rest = m.name.slice(prefix.length).split('.');
      kids.set(rest[0] ?? '', rest.length === 1);
    }
    return kids.size > 0 ? [...kids] : undefined;
  }
}
