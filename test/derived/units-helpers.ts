// Small constructors for test fixtures.
import { NO_UNITS, indom as makeInDom } from '../../src/pcp-core/types';
import type { InDom, Units } from '../../src/pcp-core/types';

export function makeUnits(u: Partial<Units>): Units {
  return { ...NO_UNITS, ...u };
}

export function indom(domain: number, serial: number): InDom {
  return makeInDom(domain, serial);
}
