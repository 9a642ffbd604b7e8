// The bound form of a derived metric: what the binder makes of an AST once every operand has
// a descriptor, and what the evaluator runs. Each node carries its descriptor (type,
// semantics, indom, units, derived-units-conversion.md §3) and whatever the evaluator needs
// decided in advance: scale factors of arithmetic operands, the promoted comparison type, the
// constant's value, the rescale converter, the rate time factor. `id` numbers the nodes of one
// tree so per-context evaluation state can live in a flat array.
import type { ArithmeticOp, BooleanOp, RelationalOp } from './ast';
import type { Numeric } from './units-port';
import type { InDom, PmId, Units } from '../types';
import type { RegexMatcher } from '../regex';

export interface NodeDesc {
  readonly type: number;
  readonly sem: number;
  readonly indom: InDom;
  readonly units: Units;
}

/** An operand's scale conversion for DOUBLE arithmetic: value / div * mul (§3.1 step 9). */
export interface Scale {
  readonly mul: number;
  readonly div: number;
}

interface Base {
  readonly id: number;
  readonly desc: NodeDesc;
}

export type AggregateFunction = 'avg' | 'count' | 'sum' | 'max' | 'min';

export type BoundNode =
  | (Base & { readonly kind: 'const'; readonly value: Numeric })
  | (Base & { readonly kind: 'metric'; readonly pmid: PmId; readonly name: string })
  | (Base & { readonly kind: 'instance'; readonly operand: BoundNode; readonly instance: string })
  | (Base & { readonly kind: 'matchinst'; readonly operand: BoundNode; readonly regex: RegexMatcher; readonly invert: boolean })
  | (Base & {
      readonly kind: 'arith';
      readonly op: ArithmeticOp;
      readonly left: BoundNode;
      readonly right: BoundNode;
      readonly leftScale: Scale;
      readonly rightScale: Scale;
    })
  | (Base & {
      readonly kind: 'compare';
      readonly op: RelationalOp | BooleanOp;
      readonly left: BoundNode;
      readonly right: BoundNode;
      /** Both operands are converted to this type (promote[left][right]) and compared. */
      readonly promoted: number;
    })
  | (Base & { readonly kind: 'negate'; readonly operand: BoundNode })
  | (Base & { readonly kind: 'not'; readonly operand: BoundNode })
  | (Base & { readonly kind: 'ternary'; readonly guard: BoundNode; readonly whenTrue: BoundNode; readonly whenFalse: BoundNode })
  | (Base & { readonly kind: 'delta'; readonly operand: BoundNode })
  /** `timeScale` converts a time counter's units to seconds (time utilization), else 1. */
  | (Base & { readonly kind: 'rate'; readonly operand: BoundNode; readonly timeScale: number })
  | (Base & { readonly kind: 'instant'; readonly operand: BoundNode })
  | (Base & { readonly kind: 'aggregate'; readonly fn: AggregateFunction; readonly operand: BoundNode })
  | (Base & { readonly kind: 'scalar'; readonly operand: BoundNode })
  | (Base & { readonly kind: 'defined'; readonly value: 0 | 1 })
  | (Base & { readonly kind: 'rescale'; readonly operand: BoundNode; readonly convert: (v: Numeric) => Numeric })
  | (Base & { readonly kind: 'anon' });

/** A derived metric bound in one context. */
export interface BoundMetric {
  readonly root: BoundNode;
  /** Number of nodes (ids are 0 … count−1). */
  readonly nodeCount: number;
  /** Distinct operand PMIDs in tree order: what a fetch of this metric must also fetch. */
  readonly operands: readonly PmId[];
}
