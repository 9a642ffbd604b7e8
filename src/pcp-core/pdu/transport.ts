// The Transport: the only thing the PDU client needs from the platform. It moves bytes and
// nothing else: WebSocket in the browser and worker (websocket-transport.ts), TCP in Node
// (src/node/tcp-transport.ts), optionally behind pmproxy's relay handshake (pmproxy-relay.ts).
// Chunks are arbitrary: PDUs may be split or merged (pdu-protocol.md §1.1).
import type { PmError } from '../errors';

export interface Transport {
  /** The other end, for errors and logs ("localhost:44321", "ws://host/pmcd?target=..."). */
  readonly peer: string;
  /** Queues bytes for sending; throws PmError once closed. */
  send(bytes: Uint8Array): void;
  /** Sets the handler for received chunks. Chunks that arrived earlier are delivered now. */
  onData(handler: (chunk: Uint8Array) => void): void;
  /**
   * Sets the handler called once when the stream ends: `error` says why (the peer closed,
   * a network error), undefined after a local close().
   */
  onClose(handler: (error: PmError | undefined) => void): void;
  /** Closes the stream; the close handler runs with no error. Idempotent. */
  close(): void;
}

/** Opens a fresh Transport to the same place each time (connect and reconnect). */
export type Connector = () => Promise<Transport>;

/**
 * Bookkeeping shared by Transport implementations: holds data and the close event until
 * handlers are set, so nothing is lost between "connected" and "handlers attached".
 */
export class TransportEvents {
  private dataHandler: ((chunk: Uint8Array) => void) | undefined;
  private closeHandler: ((error: PmError | undefined) => void) | undefined;
  private early: Uint8Array[] = [];
  private closedWith: { error: PmError | undefined } | undefined;
  private closeDelivered = false;

  get closed(): boolean {
    return this.closedWith !== undefined;
  }

  setData(handler: (chunk: Uint8Array) => void): void {
    this.dataHandler = handler;
    const early = this.early;
    this.early = [];
    for (const chunk of early) handler(chunk);
    if (this.closedWith) this.deliverClose();
  }

  setClose(handler: (error: PmError | undefined) => void): void {
    this.closeHandler = handler;
    if (this.closedWith && !this.closeDelivered && this.early.length === 0) this.deliverClose();
  }

  data(chunk: Uint8Array): void {
    if (this.closedWith) return;
    if (this.dataHandler) this.dataHandler(chunk);
    else this.early.push(chunk);
  }

  /** Records the end of the stream; only the first call counts. */
  close(error: PmError | undefined): void {
    if (this.closedWith) return;
    this.closedWith = { error };
    if (this.closeHandler && this.early.length === 0) this.deliverClose();
  }

  private deliverClose(): void {
    if (this.closeDelivered || !this.closedWith || !this.closeHandler) return;
    this.closeDelivered = true;
    this.closeHandler(this.closedWith.error);
  }
}
