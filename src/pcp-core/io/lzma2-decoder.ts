// An LZMA2 decoder (the filter of every .xz block pmlogger and pmlogcompress write) that
// decodes straight into the block's output buffer, which is also its dictionary, and can stop
// and resume: `decodeTo(n)` decodes until at least n bytes are out. A read of a volume's first
// records then decodes only up to them, and a whole 100 MB volume is decoded without the
// copies of a separate dictionary. Long matches are one copyWithin (or fill for a run of one
// byte): pmlogger's volumes compress about 100:1, so most output comes from them.
//
// Format facts (the .xz file format 1.0.4 §5.3.1 and the LZMA specification, as liblzma and
// xz-embedded read them): LZMA2 is a sequence of chunks, each starting with a control byte:
// 0x00 ends the data; 0x01 / 0x02 an uncompressed chunk with / without a dictionary reset;
// 0x80-0xFF an LZMA chunk whose bits 5-6 say what is reset (0 nothing, 1 state, 2 state and new
// properties, 3 everything and the dictionary) and bits 0-4 are bits 16-20 of its uncompressed
// size - 1, followed by 16 more bits of that, its compressed size - 1 (16 bits) and, when new,
// the properties byte ((pb * 5 + lp) * 9 + lc, lc + lp <= 4). Each LZMA chunk starts a new
// range coder (5 bytes, the first 0) that must end exactly at its compressed size with code 0.

/** Why LZMA2 data did not decode, in xz's words (the caller names the file and block). */
export class Lzma2DataError extends Error {}

const STATES = 12;
const POS_STATES_MAX = 16;
const LITERAL_STATES = 7;
const MATCH_LEN_MIN = 2;
const DIST_STATES = 4;
const DIST_SLOT_BITS = 6;
const END_POS_MODEL_INDEX = 14;
const FULL_DISTANCES = 128;
const ALIGN_BITS = 4;
const LEN_LOW_BITS = 3;
const LEN_MID_BITS = 3;
const LEN_HIGH_BITS = 8;
const LEN_LOW = 1 << LEN_LOW_BITS;
const LEN_MID = 1 << LEN_MID_BITS;

// Offsets of each probability table in one Uint16Array.
const IS_MATCH = 0;
const IS_REP = IS_MATCH + STATES * POS_STATES_MAX;
const IS_REP0 = IS_REP + STATES;
const IS_REP1 = IS_REP0 + STATES;
const IS_REP2 = IS_REP1 + STATES;
const IS_REP0_LONG = IS_REP2 + STATES;
const DIST_SLOT = IS_REP0_LONG + STATES * POS_STATES_MAX;
const DIST_SPECIAL = DIST_SLOT + DIST_STATES * (1 << DIST_SLOT_BITS);
const DIST_ALIGN = DIST_SPECIAL + FULL_DISTANCES - END_POS_MODEL_INDEX;
// A length coder: choice, choice2, low[16][8], mid[16][8], high[256].
const LEN_CHOICE = 0;
const LEN_CHOICE2 = 1;
const LEN_LOW_AT = 2;
const LEN_MID_AT = LEN_LOW_AT + POS_STATES_MAX * LEN_LOW;
const LEN_HIGH_AT = LEN_MID_AT + POS_STATES_MAX * LEN_MID;
const LEN_SIZE = LEN_HIGH_AT + (1 << LEN_HIGH_BITS);
const MATCH_LEN = DIST_ALIGN + (1 << ALIGN_BITS);
const REP_LEN = MATCH_LEN + LEN_SIZE;
const LITERAL = REP_LEN + LEN_SIZE;
const LITERAL_SIZE = 0x300;
const PROBS = LITERAL + LITERAL_SIZE * 16;

/** Bytes the last symbol of a prefix decode may write past the prefix (the longest match). */
export const LZMA2_OVERRUN = 273;

const PROB_INIT = 1024;
/** A probability's update after a 0 bit, without a branch: p - ((p + this) >> 5) (31 - 2048). */
const PROB_ZERO_BIAS = -2017;
/** Flips int32 bits to compare them as unsigned. */
const SIGN = 0x80000000 | 0;

/**
 * Decodes the LZMA2 data `input` (a block's compressed data, exactly) of `size` uncompressed
 * bytes into `out`: all of them (out.length === size), or a prefix (decodeTo(want) with
 * out.length >= min(size, want + LZMA2_OVERRUN): the last symbol may write past `want`). Corrupt or cut
 * data throws Lzma2DataError.
 */
export class Lzma2Decoder {
  private readonly probs = new Uint16Array(PROBS);
  /** Next input byte. */
  private inPos = 0;
  /** Bytes out so far. */
  private outPos = 0;
  /** Where the current chunk's input and output end (0: between chunks). */
  private chunkInEnd = 0;
  private chunkOutEnd = 0;
  /** Whether the current chunk is an LZMA one (false: stored bytes). */
  private lzmaChunk = false;
  /** Output position of the last dictionary reset (matches reach no further back). */
  private dictStart = 0;
  private readonly dictSize: number;
  private needDictReset = true;
  private needProps = true;
  private lc = 0;
  private lp = 0;
  private pb = 0;
  private range = 0;
  private code = 0;
  private state = 0;
  private rep0 = 0;
  private rep1 = 0;
  private rep2 = 0;
  private rep3 = 0;
  private ended = false;

  /** `dictSize`: the filter's dictionary size (its properties byte, dictionarySize()). */
  private readonly input: Uint8Array;

  constructor(
    input: Uint8Array,
    readonly out: Uint8Array,
    private readonly size: number,
    dictSize: number,
  ) {
    // A plain Uint8Array view whatever it came as (Node's Buffer is a subclass with another
    // map): optimized code meeting a second kind of array would be deoptimized.
    this.input = new Uint8Array(input.buffer, input.byteOffset, input.length);
    this.dictSize = dictSize;
  }

  /** Bytes decoded so far (out[0, decoded) is final). */
  get decoded(): number {
    return this.outPos;
  }

  /** Whether all of `out` is decoded and the data's end was found where it must be. */
  get done(): boolean {
    return this.ended;
  }

  /** Input bytes read so far (the whole input once done). */
  get consumed(): number {
    return this.inPos;
  }

  /** Decodes until at least `want` bytes are out (all of them once the end is reached). */
  decodeTo(want: number): void {
    const target = Math.min(want, this.size);
    // Room for the last symbol's overrun, which never goes past the whole output.
    if (Math.min(this.size, target + LZMA2_OVERRUN) > this.out.length) throw new RangeError(`Lzma2Decoder: ${target} bytes wanted in ${this.out.length}`);
    while (!this.ended && this.outPos < target) {
      if (this.outPos === this.chunkOutEnd && this.chunkInEnd !== 0) this.endChunk();
      if (this.chunkInEnd === 0) {
        this.startChunk();
        continue;
      }
      if (this.lzmaChunk) this.decodeLzma(target);
      else this.copyStored(target);
    }
    // The end marker right after the last byte: read it now, so `done` means verified.
    if (!this.ended && this.outPos === this.size && target === this.size) {
      if (this.chunkInEnd !== 0) this.endChunk();
      this.startChunk();
      if (!this.ended) throw new Lzma2DataError('more data than its index says');
    }
  }

  private byte(): number {
    if (this.inPos >= this.input.length) throw new Lzma2DataError('data cut short');
    return this.input[this.inPos++];
  }

  /** Reads a chunk header (or the end marker). */
  private startChunk(): void {
    const control = this.byte();
    if (control === 0x00) {
      if (this.outPos !== this.size) throw new Lzma2DataError(this.outPos < this.size ? 'data cut short' : 'more data than its index says');
      if (this.inPos !== this.input.length) throw new Lzma2DataError('corrupt data');
      this.ended = true;
      return;
    }
    if (control >= 0xe0 || control === 0x01) {
      this.needProps = true;
      this.needDictReset = false;
      this.dictStart = this.outPos;
    } else if (this.needDictReset) throw new Lzma2DataError('corrupt data');
    let size: number;
    if (control >= 0x80) {
      size = ((control & 0x1f) << 16) + (this.byte() << 8) + this.byte() + 1;
      const packed = (this.byte() << 8) + this.byte() + 1;
      if (control >= 0xc0) {
        this.needProps = false;
        this.properties(this.byte());
      } else if (this.needProps) throw new Lzma2DataError('corrupt data');
      else if (control >= 0xa0) this.resetState();
      this.lzmaChunk = true;
      this.chunkInEnd = this.inPos + packed;
      if (this.chunkInEnd > this.input.length) throw new Lzma2DataError('data cut short');
      if (packed < 5 || this.byte() !== 0) throw new Lzma2DataError('corrupt data');
      this.code = (this.byte() << 24) | (this.byte() << 16) | (this.byte() << 8) | this.byte();
      this.range = -1;
    } else {
      if (control > 0x02) throw new Lzma2DataError('corrupt data');
      size = (this.byte() << 8) + this.byte() + 1;
      this.lzmaChunk = false;
      this.chunkInEnd = this.inPos + size;
      if (this.chunkInEnd > this.input.length) throw new Lzma2DataError('data cut short');
    }
    this.chunkOutEnd = this.outPos + size;
    if (this.chunkOutEnd > this.size) throw new Lzma2DataError('more data than its index says');
  }

  /** The current chunk is all out: its input must be used up exactly (and the coder at 0). */
  private endChunk(): void {
    if (this.inPos !== this.chunkInEnd || (this.lzmaChunk && this.code !== 0)) throw new Lzma2DataError('corrupt data');
    this.chunkInEnd = 0;
  }

  private properties(props: number): void {
    if (props >= 9 * 5 * 5) throw new Lzma2DataError('unsupported options');
    this.lc = props % 9;
    props = Math.floor(props / 9);
    this.lp = props % 5;
    this.pb = Math.floor(props / 5);
    if (this.lc + this.lp > 4) throw new Lzma2DataError('unsupported options');
    this.resetState();
  }

  private resetState(): void {
    this.probs.fill(PROB_INIT);
    this.state = 0;
    this.rep0 = this.rep1 = this.rep2 = this.rep3 = 0;
  }

  private copyStored(target: number): void {
    const n = Math.min(this.chunkOutEnd, Math.max(target, this.outPos)) - this.outPos;
    this.out.set(this.input.subarray(this.inPos, this.inPos + n), this.outPos);
    this.inPos += n;
    this.outPos += n;
  }

  /**
   * LZMA symbols of the current chunk until it ends or `target` bytes are out. The coder's
   * state lives in locals here and every bit is decoded in line (no calls, no closures): the
   * code is then fast from its first run, before the JIT has optimized it, which in a fresh
   * pool worker on a busy machine is most of a first chart's decode. It goes back to the
   * fields when it stops.
   */
  private decodeLzma(target: number): void {
    const probs = this.probs;
    const input = this.input;
    const out = this.out;
    const chunkOutEnd = this.chunkOutEnd;
    const stop = Math.min(chunkOutEnd, target);
    const dictStart = this.dictStart;
    const dictSize = this.dictSize;
    const lc = this.lc;
    const literalPosMask = (1 << this.lp) - 1;
    const posMask = (1 << this.pb) - 1;
    let inPos = this.inPos;
    let pos = this.outPos;
    // The range coder's unsigned 32-bit values as int32 bits (compared through SIGN), so the
    // optimized code keeps them in machine words and never deoptimizes on overflow.
    let range = this.range;
    let code = this.code;
    let state = this.state;
    let rep0 = this.rep0;
    let rep1 = this.rep1;
    let rep2 = this.rep2;
    let rep3 = this.rep3;
    let p: number;
    let bound: number;
    let b: number;
    let mask: number;

    for (;;) {
      // Normalized at each symbol's start (its first bit would do it), so also on the way out,
      // as xz-embedded leaves it: at a chunk's end that reads its last byte. Here rather than
      // after the loop: code after it gets no type feedback until the loop first ends, and
      // the decoder, optimized during the warm-up, was deoptimized there by every first run.
      if (range >>> 24 === 0) {
        range <<= 8;
        code = (code << 8) | input[inPos++];
      }
      if (pos >= stop) break;
      const posState = (pos - dictStart) & posMask;
      {
        const i = IS_MATCH + (state << 4) + posState;
        if (range >>> 24 === 0) {
          range <<= 8;
          code = (code << 8) | input[inPos++];
        }
        p = probs[i];
        bound = Math.imul(range >>> 11, p);
        if ((code ^ SIGN) < (bound ^ SIGN)) {
          range = bound;
          probs[i] = p + ((2048 - p) >>> 5);
          b = 0;
        } else {
          range = (range - bound) | 0;
          code = (code - bound) | 0;
          probs[i] = p - (p >>> 5);
          b = 1;
        }
      }
      if (b === 0) {
        const prev = pos > dictStart ? out[pos - 1] : 0;
        const base = LITERAL + LITERAL_SIZE * ((((pos - dictStart) & literalPosMask) << lc) + (prev >> (8 - lc)));
        let sym = 1;
        if (state < LITERAL_STATES) {
          while (sym < 0x100) {
            const i = base + sym;
            if (range >>> 24 === 0) {
              range <<= 8;
              code = (code << 8) | input[inPos++];
            }
            p = probs[i];
            bound = Math.imul(range >>> 11, p);
            // A literal's bits are a coin toss to the processor: decoded without a branch
            // (a mispredicted one costs more than these few operations).
            b = +((code ^ SIGN) >= (bound ^ SIGN));
            mask = -b;
            range = bound ^ ((bound ^ ((range - bound) | 0)) & mask);
            code = (code - (bound & mask)) | 0;
            // p + (2048 - p) >> 5 for a 0, p - p >> 5 for a 1: (2048 - p) >> 5 = 64 - ((p + 31) >> 5).
            probs[i] = p - ((p + ((b - 1) & PROB_ZERO_BIAS)) >> 5);
            sym = (sym << 1) | b;
          }
        } else {
          if (rep0 >= pos - dictStart) throw new Lzma2DataError('corrupt data');
          let matchByte = out[pos - rep0 - 1];
          let offset = 0x100;
          while (sym < 0x100) {
            matchByte <<= 1;
            const matchBit = matchByte & offset;
            const i = base + offset + matchBit + sym;
            if (range >>> 24 === 0) {
              range <<= 8;
              code = (code << 8) | input[inPos++];
            }
            p = probs[i];
            bound = Math.imul(range >>> 11, p);
            b = +((code ^ SIGN) >= (bound ^ SIGN));
            mask = -b;
            range = bound ^ ((bound ^ ((range - bound) | 0)) & mask);
            code = (code - (bound & mask)) | 0;
            probs[i] = p - ((p + ((b - 1) & PROB_ZERO_BIAS)) >> 5);
            sym = (sym << 1) | b;
            // Still following the match byte while the bits agree: offset stays, else 0.
            offset &= matchBit ^ (b - 1);
          }
        }
        out[pos++] = sym;
        state = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
        continue;
      }
      // A match: which length coder, and the distance (rep0) first.
      let lenBase: number;
      {
        const i = IS_REP + state;
        if (range >>> 24 === 0) {
          range <<= 8;
          code = (code << 8) | input[inPos++];
        }
        p = probs[i];
        bound = Math.imul(range >>> 11, p);
        if ((code ^ SIGN) < (bound ^ SIGN)) {
          range = bound;
          probs[i] = p + ((2048 - p) >>> 5);
          b = 0;
        } else {
          range = (range - bound) | 0;
          code = (code - bound) | 0;
          probs[i] = p - (p >>> 5);
          b = 1;
        }
      }
      if (b === 0) {
        // A new distance, decoded after the length (its slot coder depends on it).
        state = state < LITERAL_STATES ? 7 : 10;
        rep3 = rep2;
        rep2 = rep1;
        rep1 = rep0;
        lenBase = MATCH_LEN;
      } else {
        {
          const i = IS_REP0 + state;
          if (range >>> 24 === 0) {
            range <<= 8;
            code = (code << 8) | input[inPos++];
          }
          p = probs[i];
          bound = Math.imul(range >>> 11, p);
          if ((code ^ SIGN) < (bound ^ SIGN)) {
            range = bound;
            probs[i] = p + ((2048 - p) >>> 5);
            b = 0;
          } else {
            range = (range - bound) | 0;
            code = (code - bound) | 0;
            probs[i] = p - (p >>> 5);
            b = 1;
          }
        }
        if (b === 0) {
          {
            const i = IS_REP0_LONG + (state << 4) + posState;
            if (range >>> 24 === 0) {
              range <<= 8;
              code = (code << 8) | input[inPos++];
            }
            p = probs[i];
            bound = Math.imul(range >>> 11, p);
            if ((code ^ SIGN) < (bound ^ SIGN)) {
              range = bound;
              probs[i] = p + ((2048 - p) >>> 5);
              b = 0;
            } else {
              range = (range - bound) | 0;
              code = (code - bound) | 0;
              probs[i] = p - (p >>> 5);
              b = 1;
            }
          }
          if (b === 0) {
            // One byte from rep0.
            if (rep0 >= pos - dictStart) throw new Lzma2DataError('corrupt data');
            state = state < LITERAL_STATES ? 9 : 11;
            out[pos] = out[pos - rep0 - 1];
            pos++;
            continue;
          }
        } else {
          let dist: number;
          {
            const i = IS_REP1 + state;
            if (range >>> 24 === 0) {
              range <<= 8;
              code = (code << 8) | input[inPos++];
            }
            p = probs[i];
            bound = Math.imul(range >>> 11, p);
            if ((code ^ SIGN) < (bound ^ SIGN)) {
              range = bound;
              probs[i] = p + ((2048 - p) >>> 5);
              b = 0;
            } else {
              range = (range - bound) | 0;
              code = (code - bound) | 0;
              probs[i] = p - (p >>> 5);
              b = 1;
            }
          }
          if (b === 0) dist = rep1;
          else {
            {
              const i = IS_REP2 + state;
              if (range >>> 24 === 0) {
                range <<= 8;
                code = (code << 8) | input[inPos++];
              }
              p = probs[i];
              bound = Math.imul(range >>> 11, p);
              if ((code ^ SIGN) < (bound ^ SIGN)) {
                range = bound;
                probs[i] = p + ((2048 - p) >>> 5);
                b = 0;
              } else {
                range = (range - bound) | 0;
                code = (code - bound) | 0;
                probs[i] = p - (p >>> 5);
                b = 1;
              }
            }
            if (b === 0) dist = rep2;
            else {
              dist = rep3;
              rep3 = rep2;
            }
            rep2 = rep1;
          }
          rep1 = rep0;
          rep0 = dist;
        }
        state = state < LITERAL_STATES ? 8 : 11;
        lenBase = REP_LEN;
      }
      // The length: choice bits, then a 3- or 8-bit tree.
      let treeBase: number;
      let treeBits: number;
      let len: number;
      {
        const i = lenBase + LEN_CHOICE;
        if (range >>> 24 === 0) {
          range <<= 8;
          code = (code << 8) | input[inPos++];
        }
        p = probs[i];
        bound = Math.imul(range >>> 11, p);
        if ((code ^ SIGN) < (bound ^ SIGN)) {
          range = bound;
          probs[i] = p + ((2048 - p) >>> 5);
          b = 0;
        } else {
          range = (range - bound) | 0;
          code = (code - bound) | 0;
          probs[i] = p - (p >>> 5);
          b = 1;
        }
      }
      if (b === 0) {
        treeBase = lenBase + LEN_LOW_AT + posState * LEN_LOW;
        treeBits = LEN_LOW_BITS;
        len = MATCH_LEN_MIN;
      } else {
        {
          const i = lenBase + LEN_CHOICE2;
          if (range >>> 24 === 0) {
            range <<= 8;
            code = (code << 8) | input[inPos++];
          }
          p = probs[i];
          bound = Math.imul(range >>> 11, p);
          if ((code ^ SIGN) < (bound ^ SIGN)) {
            range = bound;
            probs[i] = p + ((2048 - p) >>> 5);
            b = 0;
          } else {
            range = (range - bound) | 0;
            code = (code - bound) | 0;
            probs[i] = p - (p >>> 5);
            b = 1;
          }
        }
        if (b === 0) {
          treeBase = lenBase + LEN_MID_AT + posState * LEN_MID;
          treeBits = LEN_MID_BITS;
          len = MATCH_LEN_MIN + LEN_LOW;
        } else {
          treeBase = lenBase + LEN_HIGH_AT;
          treeBits = LEN_HIGH_BITS;
          len = MATCH_LEN_MIN + LEN_LOW + LEN_MID;
        }
      }
      let m = 1;
      for (let k = 0; k < treeBits; k++) {
        const i = treeBase + m;
        if (range >>> 24 === 0) {
          range <<= 8;
          code = (code << 8) | input[inPos++];
        }
        p = probs[i];
        bound = Math.imul(range >>> 11, p);
        if ((code ^ SIGN) < (bound ^ SIGN)) {
          range = bound;
          probs[i] = p + ((2048 - p) >>> 5);
          b = 0;
        } else {
          range = (range - bound) | 0;
          code = (code - bound) | 0;
          probs[i] = p - (p >>> 5);
          b = 1;
        }
        m = (m << 1) | b;
      }
      len += m - (1 << treeBits);
      if (lenBase === MATCH_LEN) {
        const slotBase = DIST_SLOT + Math.min(len - MATCH_LEN_MIN, DIST_STATES - 1) * (1 << DIST_SLOT_BITS);
        let slot = 1;
        for (let k = 0; k < DIST_SLOT_BITS; k++) {
          const i = slotBase + slot;
          if (range >>> 24 === 0) {
            range <<= 8;
            code = (code << 8) | input[inPos++];
          }
          p = probs[i];
          bound = Math.imul(range >>> 11, p);
          if ((code ^ SIGN) < (bound ^ SIGN)) {
            range = bound;
            probs[i] = p + ((2048 - p) >>> 5);
            b = 0;
          } else {
            range = (range - bound) | 0;
            code = (code - bound) | 0;
            probs[i] = p - (p >>> 5);
            b = 1;
          }
          slot = (slot << 1) | b;
        }
        slot -= 1 << DIST_SLOT_BITS;
        if (slot < 4) rep0 = slot;
        else {
          const direct = (slot >> 1) - 1;
          // Int32 arithmetic throughout (no deoptimization on a large value): a distance
          // past 2^31 comes out negative and is refused below, as no dictionary is that large.
          let dist = (2 | (slot & 1)) << direct;
          // The low bits: reverse trees, of the special probabilities or (for long
          // distances, after the direct bits) of the align ones.
          let revBase: number;
          let revBits: number;
          if (slot < END_POS_MODEL_INDEX) {
            revBase = DIST_SPECIAL + dist - slot - 1;
            revBits = direct;
          } else {
            let high = 0;
            for (let k = direct - ALIGN_BITS; k > 0; k--) {
              if (range >>> 24 === 0) {
                range <<= 8;
                code = (code << 8) | input[inPos++];
              }
              range >>>= 1;
              b = 0;
              if ((code ^ SIGN) >= (range ^ SIGN)) {
                code = (code - range) | 0;
                b = 1;
              }
              high = (high << 1) | b;
            }
            dist = (dist + (high << ALIGN_BITS)) | 0;
            revBase = DIST_ALIGN;
            revBits = ALIGN_BITS;
          }
          let r = 1;
          let low = 0;
          for (let k = 0; k < revBits; k++) {
            const i = revBase + r;
            if (range >>> 24 === 0) {
              range <<= 8;
              code = (code << 8) | input[inPos++];
            }
            p = probs[i];
            bound = Math.imul(range >>> 11, p);
            if ((code ^ SIGN) < (bound ^ SIGN)) {
              range = bound;
              probs[i] = p + ((2048 - p) >>> 5);
              b = 0;
            } else {
              range = (range - bound) | 0;
              code = (code - bound) | 0;
              probs[i] = p - (p >>> 5);
              b = 1;
            }
            r = (r << 1) | b;
            low |= b << k;
          }
          // 0xFFFFFFFF is LZMA's end marker, which LZMA2 never has: out of range below.
          rep0 = (dist + low) | 0;
        }
      }
      if (rep0 < 0 || rep0 >= pos - dictStart || rep0 >= dictSize) throw new Lzma2DataError('corrupt data');
      if (pos + len > chunkOutEnd) throw new Lzma2DataError('corrupt data');
      let from = pos - rep0 - 1;
      const end = pos + len;
      if (rep0 === 0) {
        out.fill(out[from], pos, end);
        pos = end;
      } else if (len <= 16) {
        while (pos < end) out[pos++] = out[from++];
      } else {
        // One copy for a match clear of what it copies (most). Overlapping, the period
        // repeats: each copy doubles what is there to copy from. One loop for both, so a
        // decoder warmed up on data without overlaps is not deoptimized by the first one.
        while (pos < end) {
          const n = Math.min(end - pos, pos - from);
          out.copyWithin(pos, from, from + n);
          pos += n;
        }
      }
    }
    if (inPos > this.chunkInEnd) throw new Lzma2DataError('corrupt data');
    this.inPos = inPos;
    this.outPos = pos;
    this.range = range;
    this.code = code;
    this.state = state;
    this.rep0 = rep0;
    this.rep1 = rep1;
    this.rep2 = rep2;
    this.rep3 = rep3;
  }
}

/** The dictionary size an LZMA2 properties byte gives (xz §5.3.1); throws above 4 GiB - 1. */
export function lzma2DictionarySize(props: number): number {
  if (props > 40) throw new Lzma2DataError('unsupported options');
  if (props === 40) return 0xffffffff;
  return (2 | (props & 1)) * 2 ** (Math.floor(props / 2) + 11);
}
