// The Performance Metrics Name Space: a tree of dot-separated names whose leaves carry pmids
// (pmLookupName, pmNameAll, pmGetChildrenStatus, pmTraversePMNS). Built from name → pmid pairs
// in the order they are met: an archive's TYPE_DESC records (archive-format.md §4.1), or a
// live pmcd's answers. Orders follow libpcp's tree (pmns.c AddPMNSNode): a new child goes to
// the front of its parent's list, so children and traversals list the newest name first, and
// pmNameAll lists a pmid's names in reverse traversal order (its hash chain order).
import { PM_ERR_NAME, PM_ERR_NONLEAF, PM_ERR_PMID, PmError } from './errors';
import { PM_ID_NULL, type PmId } from './types';

interface PmnsNode {
  readonly name: string;
  readonly parent: PmnsNode | null;
  /** PM_ID_NULL for an interior node. */
  pmid: PmId;
  /** Children in insertion order; libpcp's list order is the reverse. */
  readonly children: PmnsNode[];
  /** Child lookup by name, built once the node has a few children. */
  byName: Map<string, PmnsNode> | null;
}

/** pmGetChildrenStatus entry. */
export interface PmnsChild {
  readonly name: string;
  readonly leaf: boolean;
}

/** What `add` did with a name (libpcp keeps the first pmid a name was given). */
export type PmnsAddResult = 'added' | 'exists' | 'conflict';

const BY_NAME_THRESHOLD = 8;

function newNode(name: string, parent: PmnsNode | null): PmnsNode {
  return { name, parent, pmid: PM_ID_NULL, children: [], byName: null };
}

function child(node: PmnsNode, name: string): PmnsNode | undefined {
  if (node.byName) return node.byName.get(name);
  for (const c of node.children) if (c.name === name) return c;
  return undefined;
}

function addChild(node: PmnsNode, c: PmnsNode): void {
  node.children.push(c);
  if (node.byName) node.byName.set(c.name, c);
  else if (node.children.length > BY_NAME_THRESHOLD) node.byName = new Map(node.children.map((n) => [n.name, n]));
}

function fullName(node: PmnsNode): string {
  const parts: string[] = [];
  for (let n: PmnsNode | null = node; n && n.parent; n = n.parent) parts.push(n.name);
  return parts.reverse().join('.');
}

export class Pmns {
  private readonly root: PmnsNode = newNode('', null);
  /** Leaf nodes per pmid, in insertion order. */
  private readonly leaves = new Map<PmId, PmnsNode[]>();
  private leafCount = 0;

  /** A PMNS holding `pairs`, added in order. */
  static fromNames(pairs: Iterable<readonly [name: string, pmid: PmId]>): Pmns {
    const pmns = new Pmns();
    for (const [name, id] of pairs) pmns.add(name, id);
    return pmns;
  }

  /** Number of leaf names. */
  get size(): number {
    return this.leafCount;
  }

  /**
   * Adds a name. A name already leading to another pmid is a conflict that libpcp tolerates
   * by keeping the first pmid ("the first pmID keeps the name", §4.1).
   */
  add(name: string, id: PmId): PmnsAddResult {
    const parts = name.split('.');
    let node = this.root;
    let created = false;
    for (const part of parts) {
      let next = child(node, part);
      if (!next) {
        next = newNode(part, node);
        addChild(node, next);
        created = true;
      }
      node = next;
    }
    if (!created) {
      // libpcp compares the pmid of the node the whole path matched (PM_ID_NULL if interior).
      return node.pmid === id ? 'exists' : 'conflict';
    }
    node.pmid = id;
    let list = this.leaves.get(id);
    if (!list) this.leaves.set(id, (list = []));
    list.push(node);
    this.leafCount++;
    return 'added';
  }

  private locate(name: string): PmnsNode | undefined {
    if (name === '') return this.root;
    let node: PmnsNode | undefined = this.root;
    for (const part of name.split('.')) {
      node = child(node, part);
      if (!node) return undefined;
    }
    return node;
  }

  /** pmLookupName for one name: the pmid of a leaf, or a PCP error code (negative). */
  lookup(name: string): PmId | number {
    const node = this.locate(name);
    if (!node || node === this.root) return PM_ERR_NAME;
    if (node.children.length > 0) return PM_ERR_NONLEAF;
    return node.pmid;
  }

  /** pmNameAll: every name of a pmid, in libpcp's order; [] when it has none. */
  nameAll(id: PmId): string[] {
    const nodes = this.leaves.get(id);
    if (!nodes) return [];
    if (nodes.length === 1) return [fullName(nodes[0])];
    // libpcp hashes leaves in traversal order, each at the head of its chain: reverse order.
    const order = new Map<PmnsNode, number>();
    let rank = 0;
    const walk = (n: PmnsNode): void => {
      for (let i = n.children.length - 1; i >= 0; i--) {
        const c = n.children[i];
        if (c.pmid !== PM_ID_NULL) order.set(c, rank++);
        walk(c);
      }
    };
    walk(this.root);
    return [...nodes].sort((a, b) => (order.get(b) ?? 0) - (order.get(a) ?? 0)).map(fullName);
  }

  /** pmNameID: the first of nameAll's names; throws PM_ERR_PMID when there is none. */
  nameOf(id: PmId): string {
    const names = this.nameAll(id);
    if (names.length === 0) throw new PmError(PM_ERR_PMID);
    return names[0];
  }

  /**
   * pmGetChildrenStatus: the children of `name` ('' is the root), newest first; [] for a
   * leaf. Throws PM_ERR_NAME for an unknown name.
   */
  children(name: string): PmnsChild[] {
    const node = this.locate(name);
    if (!node) throw new PmError(PM_ERR_NAME, undefined, name);
    const out: PmnsChild[] = [];
    for (let i = node.children.length - 1; i >= 0; i--) {
      const c = node.children[i];
      out.push({ name: c.name, leaf: c.children.length === 0 });
    }
    return out;
  }

  /**
   * pmTraversePMNS: every leaf name at or below `name`, depth first, children newest first.
   * A leaf `name` yields itself. Throws PM_ERR_NAME for an unknown name.
   */
  traverse(name: string): string[] {
    const node = this.locate(name);
    if (!node) throw new PmError(PM_ERR_NAME, undefined, name);
    const out: string[] = [];
    const walk = (n: PmnsNode, path: string): void => {
      if (n.children.length === 0) {
        if (n !== this.root) out.push(path);
        return;
      }
      for (let i = n.children.length - 1; i >= 0; i--) {
        const c = n.children[i];
        walk(c, path === '' ? c.name : `${path}.${c.name}`);
      }
    };
    walk(node, name);
    return out;
  }
}
