// Which pmcd reply answers which client request, so the bridge can answer a request itself —
// a refused store — at exactly the place in the reply stream where pmcd's answer would have
// been (pdu-protocol.md §1.7, §3.17). Answering at once would be wrong whenever the client
// has requests outstanding: it would take the bridge's ERROR as the answer to its oldest one.
//
// pmcd answers the requests of one connection in order, one final reply each; a fetch reply
// may be preceded by a positive ERROR carrying state-change flags (§5.1), which is not final.
// CREDS and PROFILE are "silent": pmcd answers them only when they fail. To learn whether a
// silent PDU failed without guessing, the bridge follows each with a marker request of its
// own whose success reply is never an ERROR (PMNS_CHILD of the root, as the client does) and
// swallows the marker's reply: an ERROR arriving before it is the silent PDU's. (The marker
// fails only when the connection may not fetch at all; a PROFILE then fails too.)
//
// Data path: bridge.ts hands every client PDU it forwards to `forwarded`, every request it
// answers itself to `answered`, and every whole PDU from pmcd to `fromPmcd`; each returns
// the PDUs to write onwards, in order.
import { PDU_CREDS, PDU_ERROR, PDU_PROFILE } from '../src/pcp-core/pdu/constants';
import { encodeError } from '../src/pcp-core/pdu/error-pdu';
import type { Pdu } from '../src/pcp-core/pdu/pdu-buffer';
import { encodePmnsChild } from '../src/pcp-core/pdu/pmns-pdu';

type Entry =
  /** A forwarded request: exactly one final reply. */
  | { readonly kind: 'request' }
  /** A forwarded CREDS or PROFILE: an ERROR only if it failed. */
  | { readonly kind: 'silent' }
  /** The bridge's own marker after a silent PDU: its reply goes nowhere. */
  | { readonly kind: 'marker' }
  /** A request the bridge answered itself: these bytes go out in pmcd's reply's place. */
  | { readonly kind: 'answer'; readonly bytes: Uint8Array };

const MARKER = encodePmnsChild('', false);

export class ReplyTracker {
  /** Outstanding entries from `head` on; the array is compacted now and then. */
  private entries: Entry[] = [];
  private head = 0;
  private helloSeen = false;
  /** Whether the last `fromPmcd` call swallowed or inserted anything. */
  modified = false;

  /** Entries still waiting for pmcd (markers and bridge answers included). */
  get outstanding(): number {
    return this.entries.length - this.head;
  }

  /** A client PDU about to be forwarded: the PDUs to write to pmcd. */
  forwarded(pdu: Pdu): Uint8Array[] {
    if (pdu.type === PDU_CREDS || pdu.type === PDU_PROFILE) {
      this.entries.push({ kind: 'silent' }, { kind: 'marker' });
      return [pdu.bytes, MARKER];
    }
    this.entries.push({ kind: 'request' });
    return [pdu.bytes];
  }

  /**
   * A client request answered by the bridge with ERROR(`error`): the PDUs to send the client
   * now — the answer itself when nothing is outstanding, else nothing yet (it goes out from
   * `fromPmcd` once every earlier request has its reply).
   */
  answered(error: number): Uint8Array[] {
    const bytes = encodeError(error);
    if (this.outstanding === 0) return [bytes];
    this.entries.push({ kind: 'answer', bytes });
    return [];
  }

  /** A whole PDU from pmcd: the PDUs to send the client, in order. */
  fromPmcd(pdu: Pdu): Uint8Array[] {
    this.modified = false;
    const out: Uint8Array[] = [];
    // The hello answers no request (§2.2).
    if (!this.helloSeen) {
      this.helloSeen = true;
      out.push(pdu.bytes);
      return out;
    }
    const code = errorCode(pdu);
    // State-change flags ahead of a fetch reply: not the reply itself.
    if (code !== undefined && code > 0) {
      out.push(pdu.bytes);
      return out;
    }
    for (;;) {
      const entry = this.entries[this.head];
      if (entry === undefined) {
        // Nothing outstanding: the client's own reply matching finds the violation.
        out.push(pdu.bytes);
        return out;
      }
      this.shift();
      if (entry.kind === 'silent') {
        // An ERROR is the silent PDU's failure; any other reply means it succeeded and
        // belongs to the next entry.
        if (code === undefined) continue;
        out.push(pdu.bytes);
      } else if (entry.kind === 'marker') {
        this.modified = true;
      } else if (entry.kind === 'request') {
        out.push(pdu.bytes);
      } else {
        // Unreachable: answers are drained as soon as they reach the head.
        out.push(entry.bytes);
        continue;
      }
      this.drainAnswers(out);
      return out;
    }
  }

  private drainAnswers(out: Uint8Array[]): void {
    for (let e = this.entries[this.head]; e?.kind === 'answer'; e = this.entries[this.head]) {
      out.push(e.bytes);
      this.modified = true;
      this.shift();
    }
  }

  private shift(): void {
    this.head++;
    if (this.head === this.entries.length) {
      this.entries = [];
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }
}

/** The code of an ERROR PDU (16 or 20 bytes); undefined for any other PDU. */
function errorCode(pdu: Pdu): number | undefined {
  if (pdu.type !== PDU_ERROR || pdu.bytes.length < 16) return undefined;
  return new DataView(pdu.bytes.buffer, pdu.bytes.byteOffset, pdu.bytes.byteLength).getInt32(12);
}
