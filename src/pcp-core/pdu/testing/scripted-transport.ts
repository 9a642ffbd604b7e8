// A Transport driven by the test: `deliver` plays bytes from "pmcd", `sent` records what the
// client wrote, `end` closes the stream from the far side.
import { PmError } from '../../errors';
import { TransportEvents, type Transport } from '../transport';

export class ScriptedTransport implements Transport {
  readonly peer = 'scripted';
  readonly sent: Uint8Array[] = [];
  private readonly events = new TransportEvents();
  /** Called on every send, so a test can answer requests. */
  onSend: ((bytes: Uint8Array) => void) | undefined;

  send(bytes: Uint8Array): void {
    if (this.events.closed) throw new PmError(-12366, 'send on a closed connection', this.peer);
    this.sent.push(bytes);
    this.onSend?.(bytes);
  }
  onData(h: (chunk: Uint8Array) => void): void {
    this.events.setData(h);
  }
  onClose(h: (error: PmError | undefined) => void): void {
    this.events.setClose(h);
  }
  close(): void {
    this.events.close(undefined);
  }
  deliver(bytes: Uint8Array): void {
    this.events.data(bytes);
  }
  end(error: PmError): void {
    this.events.close(error);
  }
  get closed(): boolean {
    return this.events.closed;
  }
}
