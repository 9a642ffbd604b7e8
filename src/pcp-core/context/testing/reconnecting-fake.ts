// For tests of rates across a reconnect: a fake pmcd serving one U64 counter that grows by
// 100 per fetch, and a "restart" that makes the counter jump by a million and drops every
// connection, as a pmcd restart does; a LiveContext on it reconnects after 10 ms.
import { FakePmcd } from '../../pdu/fake-pmcd';
import { decodeUnits, pmid, PM_INDOM_NULL, PM_SEM_COUNTER, PM_TYPE_U64 } from '../../types';
import { LiveContext } from '../live-context';

export interface ReconnectingFake {
  readonly fake: FakePmcd;
  /** A LiveContext on the fake, reconnecting 10 ms after a drop. */
  open(): Promise<LiveContext>;
  /** Counter jump, every connection dropped; resolves once `ctx` is connected again. */
  restart(ctx: LiveContext): Promise<void>;
}

export function reconnectingFake(): ReconnectingFake {
  let counter = 1000n;
  const fake = new FakePmcd([
    {
      name: 'sample.counter',
      desc: { pmid: pmid(29, 0, 1), type: PM_TYPE_U64, indom: PM_INDOM_NULL, sem: PM_SEM_COUNTER, units: decodeUnits(0) },
      value: () => (counter += 100n),
    },
  ]);
  return {
    fake,
    open: () => LiveContext.open({ target: 'fake:44321', connect: () => Promise.resolve(fake.connect()), reconnectDelaysMs: [10] }),
    restart: (ctx) =>
      new Promise((resolve) => {
        const off = ctx.on('connection', (e) => {
          if (e.state !== 'connected') return;
          off();
          resolve();
        });
        counter += 1_000_000n;
        fake.dropAll();
      }),
  };
}
