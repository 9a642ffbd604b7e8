// The PDU client: one connection to pmcd over a Transport. It performs the handshake (hello,
// CREDS; pdu-protocol.md §2.1–§2.6), sends requests (pipelined: pmcd answers in order, §1.7),
// matches each reply to the oldest outstanding request, and fails the whole connection
// loudly — every pending request rejected, the transport closed — on anything that breaks
// the protocol: an unexpected PDU type, a malformed PDU, a reply with nothing outstanding,
// or silence past the request timeout.
//
// PROFILE and CREDS have no reply on success, but their failure arrives as an extra ERROR
// ahead of the next reply (§1.7). To attribute it without guessing, each is followed by a
// "marker" request whose success reply is never an ERROR (PMNS_CHILD of the root): an ERROR
// that arrives while the marker is the oldest request belongs to the silent PDU.
import { PmError, PM_ERR_EOF, PM_ERR_IPC, PM_ERR_NOLABELS, PM_ERR_TIMEOUT, PM_ERR_TOOBIG, pmErrStr, isPmError } from '../errors';
import type { Desc, PmId, Result } from '../types';
import {
  PDU_CLIENT_MAX_BYTES,
  PDU_DESC,
  PDU_DESCS,
  PDU_ERROR,
  PDU_FLAG_DESCS,
  PDU_FLAG_HIGHRES,
  PDU_FLAG_LABELS,
  PDU_HIGHRES_RESULT,
  PDU_INSTANCE,
  PDU_LABEL,
  PDU_PMNS_IDS,
  PDU_PMNS_NAMES,
  PDU_RESULT,
  PDU_SERVER_MAX_BYTES,
  PDU_TEXT,
  pduTypeName,
} from './constants';
import { encodeCreds } from './creds-pdu';
import { decodeDesc, decodeDescs, encodeDescIds, encodeDescReq } from './desc-pdu';
import { decodeError, decodeHello, type Hello } from './error-pdu';
import { encodeFetch } from './fetch-pdu';
import { decodeInstance, encodeInstanceReq, type InstanceReply, type InstanceReq } from './instance-pdu';
import { decodeLabel, encodeLabelReq, type LabelReply } from './label-pdu';
import type { Pdu } from './pdu-buffer';
import { decodeNameList, decodePmnsIds, encodeNameList, encodePmnsChild, encodePmnsIds, encodePmnsTraverse, type NameList, type PmnsIds } from './pmns-pdu';
import { encodeProfile, type Profile } from './profile-pdu';
import { PduReassembler } from './reassembler';
import { decodeResult, encodeResult, type TypeOf } from './result-pdu';
import { decodeText, encodeTextReq } from './text-pdu';
import type { Transport } from './transport';

export interface PduClientOptions {
  /** Longest silence while requests are outstanding (libpcp: PMCD_REQUEST_TIMEOUT, 10 s). */
  readonly requestTimeoutMs?: number;
  /**
   * Longest wait for pmcd's hello (default: requestTimeoutMs). libpcp waits 10 s whatever
   * PMCD_REQUEST_TIMEOUT says: it reads the variable only after the handshake.
   */
  readonly helloTimeoutMs?: number;
  /** Largest PDU accepted from pmcd. */
  readonly maxPduBytes?: number;
}

/** What a fetch returns: the result and the state-change flags that preceded it (§5.1). */
export interface FetchReply {
  readonly result: Result;
  readonly flags: number;
}

interface Pending {
  /** The reply type that completes this request (an ERROR always may). */
  readonly expect: number;
  /** "PMNS_NAMES kernel.all.load": for errors. */
  readonly what: string;
  /** May be preceded by positive ERROR codes (fetches). */
  readonly acceptsFlags: boolean;
  /** Follows a silent PDU: the first negative ERROR belongs to that PDU (see above). */
  readonly marker?: { error?: PmError; readonly silent: string };
  flags: number;
  /** Decodes the reply and settles the caller's promise; throws on a malformed reply. */
  readonly accept: (pdu: Pdu, flags: number) => void;
  readonly reject: (error: PmError) => void;
}

const DEFAULT_TIMEOUT_MS = 10_000;

export class PduClient {
  private readonly queue: Pending[] = [];
  private readonly reassembler: PduReassembler;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private failure: PmError | undefined;
  private readonly closeListeners: Array<(error: PmError | undefined) => void> = [];
  private readonly flagListeners: Array<(flags: number) => void> = [];
  private hello: Hello | undefined;
  private readonly helloPromise: Promise<Hello>;
  private helloWaiter: { resolve: (h: Hello) => void; reject: (e: PmError) => void } | undefined;
  private readonly timeoutMs: number;
  private readonly helloTimeoutMs: number;

  private constructor(
    private readonly transport: Transport,
    options: PduClientOptions,
  ) {
    this.timeoutMs = options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.helloTimeoutMs = options.helloTimeoutMs ?? this.timeoutMs;
    this.reassembler = new PduReassembler(transport.peer, options.maxPduBytes ?? PDU_SERVER_MAX_BYTES);
    // The hello may already be waiting in the transport: expect it before attaching.
    this.helloPromise = new Promise<Hello>((resolve, reject) => {
      this.helloWaiter = { resolve, reject };
    });
    this.armTimer();
    transport.onData((chunk) => this.receive(chunk));
    transport.onClose((error) => this.fail(error ?? new PmError(PM_ERR_EOF, pmErrStr(PM_ERR_EOF), transport.peer), false));
  }

  /**
   * Runs the handshake on a fresh transport: waits for pmcd's hello, refuses a negative
   * code, sends CREDS (version 2, no flags) and confirms pmcd accepted it.
   */
  static async connect(transport: Transport, options: PduClientOptions = {}): Promise<PduClient> {
    const client = new PduClient(transport, options);
    try {
      const hello = await client.helloPromise;
      if (hello.code < 0) throw new PmError(hello.code, pmErrStr(hello.code), `${transport.peer}: connection refused by pmcd`);
      client.hello = hello;
      await client.silentThenMarker(encodeCreds(0), 'CREDS');
      return client;
    } catch (e) {
      const error = isPmError(e) ? e : new PmError(PM_ERR_IPC, String(e), transport.peer);
      client.fail(error);
      throw error;
    }
  }

  get peer(): string {
    return this.transport.peer;
  }

  /** The hello's feature word (§2.3). */
  get features(): number {
    return this.hello?.features ?? 0;
  }

  get version(): number {
    return this.hello?.version ?? 0;
  }

  get closed(): boolean {
    return this.failure !== undefined;
  }

  /** Called once when the connection ends; `error` is undefined after close(). */
  onClose(listener: (error: PmError | undefined) => void): void {
    this.closeListeners.push(listener);
  }

  /** Called with every non-zero state-change mask pmcd sends ahead of a fetch reply. */
  onStateChange(listener: (flags: number) => void): void {
    this.flagListeners.push(listener);
  }

  /** Closes the connection; outstanding requests reject with PM_ERR_EOF. */
  close(): void {
    this.fail(undefined);
  }

  // --- requests -------------------------------------------------------------------------

  /** PMNS_NAMES → PMNS_IDS (§3.2). The caller keeps the request under 64 KiB. */
  lookupNames(names: readonly string[]): Promise<PmnsIds> {
    const what = `PMNS_NAMES ${names.length === 1 ? names[0] : `(${names.length} names)`}`;
    return this.request(encodeNameList(names), PDU_PMNS_IDS, what, (pdu) => {
      const reply = decodePmnsIds(pdu, this.peer);
      if (reply.pmids.length !== names.length) this.violation(`PMNS_IDS has ${reply.pmids.length} PMIDs for ${names.length} names`);
      return reply;
    });
  }

  /** PMNS_IDS → PMNS_NAMES: every name of one PMID (§3.3). */
  nameAll(id: PmId): Promise<string[]> {
    return this.request(encodePmnsIds([id], 0), PDU_PMNS_NAMES, `PMNS_IDS ${id}`, (pdu) => decodeNameList(pdu, this.peer).names);
  }

  /** PMNS_CHILD (§3.4): last components, with leaf (0) / non-leaf (1) status if asked. */
  children(name: string, withStatus: boolean): Promise<NameList> {
    return this.request(encodePmnsChild(name, withStatus), PDU_PMNS_NAMES, `PMNS_CHILD '${name}'`, (pdu) => {
      const list = decodeNameList(pdu, this.peer);
      if (withStatus && list.names.length > 0 && !list.statuses) this.violation(`PMNS_CHILD '${name}' with status answered without status`);
      return list;
    });
  }

  /** PMNS_TRAVERSE (§3.5): full names of every leaf at or below `name`. */
  traverse(name: string): Promise<string[]> {
    return this.request(encodePmnsTraverse(name), PDU_PMNS_NAMES, `PMNS_TRAVERSE '${name}'`, (pdu) => decodeNameList(pdu, this.peer).names);
  }

  /** DESC_REQ → DESC (§3.7). */
  desc(id: PmId): Promise<Desc> {
    return this.request(encodeDescReq(id), PDU_DESC, `DESC_REQ ${id}`, (pdu) => decodeDesc(pdu, this.peer));
  }

  /** DESC_IDS → DESCS (§3.8); only when the hello advertised DESCS. */
  descs(ids: readonly PmId[]): Promise<Desc[]> {
    if ((this.features & PDU_FLAG_DESCS) === 0) return Promise.reject(new PmError(PM_ERR_IPC, 'pmcd does not support DESC_IDS', this.peer));
    return this.request(encodeDescIds(ids), PDU_DESCS, `DESC_IDS (${ids.length} PMIDs)`, (pdu) => {
      const descs = decodeDescs(pdu, this.peer);
      if (descs.length !== ids.length) this.violation(`DESCS has ${descs.length} descriptors for ${ids.length} PMIDs`);
      return descs;
    });
  }

  /** INSTANCE_REQ → INSTANCE (§3.9). */
  instances(req: InstanceReq): Promise<InstanceReply> {
    return this.request(encodeInstanceReq(req), PDU_INSTANCE, `INSTANCE_REQ ${req.indom}`, (pdu) => decodeInstance(pdu, this.peer));
  }

  /** PROFILE (§3.10), confirmed by a marker; rejects with pmcd's error if it refused it. */
  profile(profile: Profile, ctxid = 0): Promise<void> {
    return this.silentThenMarker(encodeProfile(profile, ctxid), 'PROFILE');
  }

  /**
   * HIGHRES_FETCH (or FETCH when pmcd lacks HIGHRES) → the result, decoded with `typeOf`,
   * and any state-change flags pmcd sent first (§3.11, §5.1).
   */
  fetch(ids: readonly PmId[], typeOf: TypeOf, ctxid = 0): Promise<FetchReply> {
    const highres = (this.features & PDU_FLAG_HIGHRES) !== 0;
    const what = `${highres ? 'HIGHRES_FETCH' : 'FETCH'} (${ids.length} PMIDs)`;
    return this.request(
      encodeFetch(ids, highres, ctxid),
      highres ? PDU_HIGHRES_RESULT : PDU_RESULT,
      what,
      (pdu, flags) => {
        const result = decodeResult(pdu, this.peer, typeOf);
        if (result.sets.length !== ids.length) this.violation(`${what} answered with ${result.sets.length} value sets`);
        return { result, flags };
      },
      true,
    );
  }

  /**
   * A store (§3.17): `sets` go to pmcd as a client-sent RESULT with a zero timestamp, values
   * encoded as `typeOf` says; pmcd answers ERROR with code 0 when it stored them, else the
   * reason (PM_ERR_PERMISSION where access rules deny stores, PM_ERR_BADSTORE, …). Only
   * pmstore-like tools send this; a dashboard never does.
   */
  store(sets: Result['sets'], typeOf: TypeOf): Promise<void> {
    const bytes = encodeResult({ timestamp: { sec: 0, nsec: 0 }, sets }, false, typeOf);
    return this.request(bytes, PDU_ERROR, `store (RESULT, ${sets.length} value sets)`, () => undefined);
  }

  /** TEXT_REQ → TEXT (§3.15). `type` combines PM_TEXT_ONELINE/HELP with PM_TEXT_PMID/INDOM. */
  text(ident: number, type: number): Promise<string> {
    return this.request(encodeTextReq(ident, type), PDU_TEXT, `TEXT_REQ ${ident}`, (pdu) => decodeText(pdu, this.peer));
  }

  /** LABEL_REQ → LABEL (§3.16); the reply must echo ident and type. */
  labels(ident: number, type: number): Promise<LabelReply> {
    if ((this.features & PDU_FLAG_LABELS) === 0) return Promise.reject(new PmError(PM_ERR_NOLABELS, pmErrStr(PM_ERR_NOLABELS), this.peer));
    return this.request(encodeLabelReq(ident, type), PDU_LABEL, `LABEL_REQ ${ident} type ${type}`, (pdu) => {
      const reply = decodeLabel(pdu, this.peer);
      if (reply.ident !== ident >>> 0 || reply.type !== type) this.violation(`LABEL reply for ${reply.ident} type ${reply.type}, asked ${ident} type ${type}`);
      return reply;
    });
  }

  // --- machinery ------------------------------------------------------------------------

  /**
   * Sends one request PDU. Its reply of type `expect` is decoded on arrival by `decode`; a
   * decoding failure fails the connection (the stream can no longer be trusted).
   */
  private request<T>(bytes: Uint8Array, expect: number, what: string, decode: (pdu: Pdu, flags: number) => T, acceptsFlags = false): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.failure) {
        reject(this.failure);
        return;
      }
      if (bytes.length > PDU_CLIENT_MAX_BYTES) {
        reject(new PmError(PM_ERR_TOOBIG, `${what}: request of ${bytes.length} bytes exceeds pmcd's ${PDU_CLIENT_MAX_BYTES}-byte limit`, this.peer));
        return;
      }
      this.enqueue({ expect, what, acceptsFlags, flags: 0, accept: (pdu, flags) => resolve(decode(pdu, flags)), reject });
      this.transport.send(bytes);
    });
  }

  /** Sends a PDU pmcd does not answer on success, then the marker (see the file comment). */
  private silentThenMarker(bytes: Uint8Array, silent: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (this.failure) {
        reject(this.failure);
        return;
      }
      const marker: { error?: PmError; readonly silent: string } = { silent };
      this.enqueue({
        expect: PDU_PMNS_NAMES,
        what: `${silent} (confirmed by PMNS_CHILD '')`,
        acceptsFlags: false,
        marker,
        flags: 0,
        accept: () => (marker.error ? reject(marker.error) : resolve()),
        reject,
      });
      this.transport.send(bytes);
      this.transport.send(encodePmnsChild('', false));
    });
  }

  private enqueue(p: Pending): void {
    this.queue.push(p);
    if (this.queue.length === 1) this.armTimer();
  }

  private armTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    const ms = this.hello === undefined && this.queue.length === 0 ? this.helloTimeoutMs : this.timeoutMs;
    this.timer = setTimeout(() => {
      const waiting = this.queue[0]?.what ?? 'the hello';
      this.fail(new PmError(PM_ERR_TIMEOUT, `${pmErrStr(PM_ERR_TIMEOUT)} (no reply to ${waiting} within ${ms} ms)`, this.peer));
    }, ms);
  }

  private disarmTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private receive(chunk: Uint8Array): void {
    if (this.failure) return;
    try {
      for (const pdu of this.reassembler.push(chunk)) {
        this.dispatch(pdu);
        if (this.failure) return;
      }
    } catch (e) {
      this.fail(isPmError(e) ? e : new PmError(PM_ERR_IPC, String(e), this.peer));
    }
  }

  private dispatch(pdu: Pdu): void {
    if (this.helloWaiter) {
      const waiter = this.helloWaiter;
      this.helloWaiter = undefined;
      this.disarmTimer();
      waiter.resolve(decodeHello(pdu, this.peer));
      return;
    }
    const head = this.queue[0];
    if (!head) this.violation(`unsolicited ${pduTypeName(pdu.type)} PDU with no request outstanding`);
    this.armTimer();
    if (pdu.type === PDU_ERROR) {
      const { code } = decodeError(pdu, this.peer);
      if (code > 0) {
        if (!head.acceptsFlags) this.violation(`state-change flags ${code} ahead of the reply to ${head.what}`);
        head.flags |= code;
        for (const l of this.flagListeners) l(code);
        return;
      }
      if (code === 0) {
        // Success of a store (the one request whose reply is an ERROR PDU).
        if (head.expect !== PDU_ERROR) this.violation(`ERROR with code 0 in reply to ${head.what}`);
        this.complete();
        head.accept(pdu, head.flags);
        return;
      }
      if (head.marker && !head.marker.error) {
        head.marker.error = new PmError(code, pmErrStr(code), `${this.peer}: ${head.marker.silent}`);
        return;
      }
      this.complete();
      head.reject(new PmError(code, pmErrStr(code), `${this.peer}: ${head.what}`));
      return;
    }
    if (pdu.type !== head.expect) {
      this.violation(`${pduTypeName(pdu.type)} PDU in reply to ${head.what} (expected ${pduTypeName(head.expect)})`);
    }
    this.complete();
    try {
      head.accept(pdu, head.flags);
    } catch (e) {
      // A malformed reply: the caller learns why, and the connection ends (see receive()).
      const error = isPmError(e) ? e : new PmError(PM_ERR_IPC, String(e), this.peer);
      head.reject(error);
      throw error;
    }
  }

  private complete(): void {
    this.queue.shift();
    if (this.queue.length === 0) this.disarmTimer();
  }

  private violation(detail: string): never {
    const error = new PmError(PM_ERR_IPC, `${pmErrStr(PM_ERR_IPC)}: ${detail}`, this.peer);
    this.fail(error);
    throw error;
  }

  /** Ends the connection once: rejects everything outstanding, closes the transport. */
  private fail(error: PmError | undefined, closeTransport = true): void {
    if (this.failure) return;
    this.failure = error ?? new PmError(PM_ERR_EOF, `${pmErrStr(PM_ERR_EOF)} (connection closed by this client)`, this.peer);
    this.disarmTimer();
    const pending = this.queue.splice(0);
    this.helloWaiter?.reject(this.failure);
    this.helloWaiter = undefined;
    for (const p of pending) p.reject(this.failure);
    if (closeTransport) this.transport.close();
    for (const l of this.closeListeners) l(error);
  }
}

