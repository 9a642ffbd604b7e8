// The PMNS as a tree built once from the flat list of leaf names the engine sends, flattened
// into rows for the virtual list according to which nodes are expanded; search filters leaf
// names by every whitespace-separated term (case-insensitive), fast enough for tens of
// thousands of names on each keystroke.

export interface TreeNode {
  readonly name: string;
  readonly path: string;
  readonly children: TreeNode[];
  readonly leaf: boolean;
}

export interface Row {
  readonly path: string;
  readonly label: string;
  readonly depth: number;
  readonly leaf: boolean;
  readonly expanded: boolean;
}

export function buildTree(names: readonly string[]): TreeNode {
  const root: TreeNode = { name: '', path: '', children: [], leaf: false };
  const index = new Map<string, TreeNode>([['', root]]);
  for (const full of names) {
    const parts = full.split('.');
    let parent = root;
    let path = '';
    parts.forEach((part, i) => {
      path = path ? `${path}.${part}` : part;
      let node = index.get(path);
      if (!node) {
        node = { name: part, path, children: [], leaf: i === parts.length - 1 };
        index.set(path, node);
        parent.children.push(node);
      }
      parent = node;
    });
  }
  return root;
}

export function visibleRows(root: TreeNode, expanded: ReadonlySet<string>): Row[] {
  const out: Row[] = [];
  const walk = (node: TreeNode, depth: number): void => {
    for (const c of node.children) {
      const open = expanded.has(c.path);
      out.push({ path: c.path, label: c.name, depth, leaf: c.leaf, expanded: open });
      if (open && !c.leaf) walk(c, depth + 1);
    }
  };
  walk(root, 0);
  return out;
}

export function searchRows(names: readonly string[], query: string, limit = 5000): Row[] {
  const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
  const out: Row[] = [];
  for (const n of names) {
    const low = n.toLowerCase();
    if (terms.every((t) => low.includes(t))) {
      out.push({ path: n, label: n, depth: 0, leaf: true, expanded: false });
      if (out.length >= limit) break;
    }
  }
  return out;
}
