import { describe, expect, it } from 'vitest';
import { ECONNREFUSED, PM_ERR_IPC, type PmError } from '../errors';
import { openWebSocketTransport, type WebSocketLike } from './websocket-transport';

class FakeSocket implements WebSocketLike {
  binaryType = 'blob';
  readyState = 0;
  sent: Uint8Array[] = [];
  closedWith: [number | undefined, string | undefined] | undefined;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { readonly data: unknown }) => void) | null = null;
  onclose: ((event: { readonly code: number; readonly reason: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  send(data: Uint8Array): void {
    this.sent.push(data);
  }
  close(code?: number, reason?: string): void {
    this.closedWith = [code, reason];
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
}

describe('WebSocket transport', () => {
  it('asks for binary frames and moves bytes both ways', async () => {
    const s = new FakeSocket();
    const opening = openWebSocketTransport('ws://h/pmcd', { create: () => s });
    s.open();
    const t = await opening;
    expect(s.binaryType).toBe('arraybuffer');
    const got: number[] = [];
    t.onData((c) => got.push(...c));
    s.onmessage?.({ data: new Uint8Array([1, 2, 3]).buffer });
    t.send(new Uint8Array([9]));
    expect([got, s.sent]).toEqual([[1, 2, 3], [new Uint8Array([9])]]);
  });

  it('turns a refused upgrade and a close with a reason into PmErrors', async () => {
    const s = new FakeSocket();
    const opening = openWebSocketTransport('ws://h/pmcd', { create: () => s });
    s.onerror?.({ message: 'Unexpected server response: 403' });
    s.onclose?.({ code: 1006, reason: '' });
    await expect(opening).rejects.toMatchObject({ code: ECONNREFUSED, message: 'the bridge refused the connection: Unexpected server response: 403' });

    const s2 = new FakeSocket();
    const opening2 = openWebSocketTransport('ws://h/pmcd', { create: () => s2 });
    s2.open();
    const t = await opening2;
    const closed = new Promise<PmError | undefined>((r) => t.onClose(r));
    s2.onclose?.({ code: 1008, reason: 'store (RESULT) PDUs are not allowed by this bridge' });
    expect((await closed)?.message).toBe('IPC protocol failure: the bridge closed the connection (code 1008: store (RESULT) PDUs are not allowed by this bridge)');
  });

  it('refuses text messages', async () => {
    const s = new FakeSocket();
    const opening = openWebSocketTransport('ws://h/pmcd', { create: () => s });
    s.open();
    const t = await opening;
    const closed = new Promise<PmError | undefined>((r) => t.onClose(r));
    s.onmessage?.({ data: 'hello' });
    expect((await closed)?.code).toBe(PM_ERR_IPC);
    expect(s.closedWith).toEqual([1003, 'binary only']);
  });

  it('times out a socket that never opens', async () => {
    const s = new FakeSocket();
    await expect(openWebSocketTransport('ws://h/pmcd', { create: () => s, connectTimeoutMs: 20 })).rejects.toThrow(/did not open within 20 ms/);
  });
});
