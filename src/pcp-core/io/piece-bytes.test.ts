// PieceBytes: reads of a decode kept in pieces give the same bytes as one buffer would, as a
// view of the piece when within one, joined when across several.
import { describe, expect, it } from 'vitest';
import { PieceBytes } from './piece-bytes';

describe('PieceBytes', () => {
  const whole = Uint8Array.from({ length: 10 }, (_, k) => 10 + k);
  const pieces = [whole.slice(0, 4), whole.slice(4, 5), whole.slice(5, 10)];
  const starts = [0, 4, 5];
  const bytes = new PieceBytes(pieces, starts, 10);

  it('gives every range as the one buffer would', () => {
    for (let from = 0; from <= 10; from++) for (let to = from; to <= 12; to++) expect(bytes.subarray(from, to)).toEqual(whole.subarray(from, to));
  });

  it('gives a range within one piece as a view of it, one across pieces as a copy', () => {
    expect(bytes.subarray(5, 9).buffer).toBe(pieces[2].buffer);
    expect(bytes.subarray(4, 5).buffer).toBe(pieces[1].buffer);
    const across = bytes.subarray(3, 6);
    expect(across).toEqual(Uint8Array.of(13, 14, 15));
    expect(pieces.some((p) => p.buffer === across.buffer)).toBe(false);
  });

  it('covers only its own length while the lists grow', () => {
    const list = [whole.slice(0, 4)];
    const at = [0];
    const first = new PieceBytes(list, at, 4);
    list.push(whole.slice(4, 10));
    at.push(4);
    expect(first.length).toBe(4);
    expect(first.subarray(2, 8)).toEqual(whole.subarray(2, 4));
    expect(new PieceBytes(list, at, 10).subarray(2, 8)).toEqual(whole.subarray(2, 8));
  });
});
