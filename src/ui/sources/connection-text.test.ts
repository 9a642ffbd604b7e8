import { describe, expect, it } from 'vitest';
import { connectionText } from './connection-text';

describe('connectionText', () => {
  it('names the coming attempt (the core counts those made) and the wait, rounded up', () => {
    expect(connectionText({ state: 'reconnecting', retryInMs: 1000, attempts: 0 })).toBe('reconnecting (attempt 1 in 1 s)');
    expect(connectionText({ state: 'reconnecting', retryInMs: 4200, attempts: 3 })).toBe('reconnecting (attempt 4 in 5 s)');
  });
  it('is the bare state otherwise', () => {
    expect(connectionText({ state: 'connected' })).toBe('connected');
    expect(connectionText({ state: 'reconnecting' })).toBe('reconnecting');
  });
});
