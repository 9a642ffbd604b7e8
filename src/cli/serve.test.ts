import { describe, expect, it } from 'vitest';
import { UsageError } from './args';
import { bridgeTargets } from './serve';

describe('pmdash serve --pmcd', () => {
  it('takes the flags, else $PMDASH_PMCD, else the local pmcd, in canonical form', () => {
    expect(bridgeTargets(['db1', 'db2:4000@gw'], 'ignored')).toEqual(['db1:44321', 'db2:4000@gw:44322']);
    expect(bridgeTargets([], ' localhost , 10.0.0.7@localhost ')).toEqual(['localhost:44321', '10.0.0.7:44321@localhost:44322']);
    expect(bridgeTargets([], undefined)).toEqual(['localhost:44321']);
    expect(bridgeTargets([], '')).toEqual(['localhost:44321']);
  });

  it('refuses a malformed target as a usage error', () => {
    expect(() => bridgeTargets(['db1:notaport'], undefined)).toThrow(UsageError);
  });
});
