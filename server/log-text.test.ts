import { describe, expect, it } from 'vitest';
import { escapeLogText, truncateUtf8 } from './log-text';

describe('escapeLogText', () => {
  it('shows every control character as an escape and doubles the backslash', () => {
    expect(escapeLogText('a\r\nb\0c\x1b[2J\td\x7f\u0085\u2028e\\x0a')).toBe('a\\r\\nb\\x00c\\x1b[2J\\td\\x7f\\x85\\u2028e\\\\x0a');
    expect(escapeLogText('bridge: connect #1 from 127.0.0.1:5 → localhost:44321 é')).toBe('bridge: connect #1 from 127.0.0.1:5 → localhost:44321 é');
  });
});

describe('truncateUtf8', () => {
  it('cuts to a byte limit without splitting a character', () => {
    expect(truncateUtf8('abc', 123)).toBe('abc');
    expect(Buffer.byteLength(truncateUtf8('é'.repeat(100), 123))).toBe(122);
    expect(truncateUtf8('ab€', 4)).toBe('ab');
  });
});
