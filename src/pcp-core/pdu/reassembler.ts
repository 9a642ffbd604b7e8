// Turns a byte stream cut into arbitrary chunks (TCP reads, WebSocket messages) into whole
// PDUs, delimited only by their length word (pdu-protocol.md §1.1, §1.4). A length below the
// header size or above the configured cap is a protocol error: the stream cannot be resynced,
// so the reassembler refuses all further input.
import { DecodeError, PM_ERR_IPC, PM_ERR_TOOBIG } from '../errors';
import { PDU_HEADER_BYTES } from './constants';
import type { Pdu } from './pdu-buffer';

export class PduReassembler {
  /** Bytes of an incomplete PDU (or header), in arrival order. */
  private chunks: Uint8Array[] = [];
  private buffered = 0;
  /** Length of the PDU being assembled, once its length word has arrived. */
  private want = -1;
  /** Total bytes consumed, for error offsets. */
  private streamOffset = 0;
  private failed: DecodeError | undefined;

  /**
   * @param peer names the other end in errors ("localhost:44321")
   * @param maxBytes largest acceptable PDU length
   */
  constructor(
    private readonly peer: string,
    private readonly maxBytes: number,
  ) {}

  /** Bytes received but not yet returned as a PDU. */
  get pending(): number {
    return this.buffered;
  }

  /**
   * Adds a chunk and returns every PDU it completes, in order. Each returned PDU owns its
   * bytes (a copy when it spanned chunks, a view of `chunk` otherwise). Throws DecodeError on
   * a bad length word; after that every call throws the same error.
   */
  push(chunk: Uint8Array): Pdu[] {
    if (this.failed) throw this.failed;
    const out: Pdu[] = [];
    let pos = 0;
    while (pos < chunk.length) {
      // Fast path: nothing buffered and a whole PDU sits in the chunk.
      if (this.buffered === 0 && chunk.length - pos >= PDU_HEADER_BYTES) {
        const view = new DataView(chunk.buffer, chunk.byteOffset + pos, chunk.length - pos);
        const len = this.checkLength(view.getInt32(0));
        if (chunk.length - pos >= len) {
          out.push(makePdu(chunk.subarray(pos, pos + len)));
          pos += len;
          this.streamOffset += len;
          continue;
        }
      }
      const need = this.want < 0 ? PDU_HEADER_BYTES - this.buffered : this.want - this.buffered;
      const take = Math.min(need, chunk.length - pos);
      this.chunks.push(chunk.subarray(pos, pos + take));
      this.buffered += take;
      pos += take;
      if (this.want < 0 && this.buffered === PDU_HEADER_BYTES) {
        const head = this.concat();
        this.want = this.checkLength(new DataView(head.buffer, head.byteOffset, 4).getInt32(0));
        this.chunks = [head];
      }
      if (this.want >= 0 && this.buffered === this.want) {
        out.push(makePdu(this.concat()));
        this.streamOffset += this.want;
        this.chunks = [];
        this.buffered = 0;
        this.want = -1;
      }
    }
    return out;
  }

  private checkLength(len: number): number {
    if (len < PDU_HEADER_BYTES || len > this.maxBytes) {
      const code = len > this.maxBytes ? PM_ERR_TOOBIG : PM_ERR_IPC;
      const detail = len > this.maxBytes ? `PDU length ${len} exceeds the ${this.maxBytes}-byte limit` : `PDU length ${len} is below the ${PDU_HEADER_BYTES}-byte header`;
      this.failed = new DecodeError(code, this.peer, this.streamOffset, 'PDU header', detail);
      throw this.failed;
    }
    return len;
  }

  private concat(): Uint8Array {
    const only = this.chunks.length === 1 ? this.chunks[0] : undefined;
    if (only) return only.slice();
    const out = new Uint8Array(this.buffered);
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }
}

function makePdu(bytes: Uint8Array): Pdu {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { type: view.getInt32(4), from: view.getInt32(8), bytes };
}
