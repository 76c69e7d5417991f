/**
 * The file tree's shape from a flat, sorted list of paths (pure): folders first, then files, each level sorted;
 * and the quick-open match (every query character in order, earlier and tighter matches first).
 */

export interface TreeNode {
  name: string;
  path: string;
  children?: TreeNode[];
}

/** Nested folders and files of `paths` ('/'-separated, root-relative). */
export function buildTree(paths: readonly string[]): TreeNode[] {
  const root: TreeNode = { name: '', path: '', children: [] };
  for (const p of paths) {
    let node = root;
    const parts = p.split('/');
    parts.forEach((name, i) => {
      const path = parts.slice(0, i + 1).join('/');
      const leaf = i === parts.length - 1;
      let next = node.children?.find((c) => c.name === name && (leaf ? !c.children : !!c.children));
      if (!next) {
        next = leaf ? { name, path } : { name, path, children: [] };
        node.children?.push(next);
      }
      node = next;
    });
  }
  const sort = (nodes: TreeNode[]): TreeNode[] =>
    nodes
      .sort((a, b) => Number(!a.children) - Number(!b.children) || a.name.localeCompare(b.name))
      .map((n) => (n.children ? { ...n, children: sort(n.children) } : n));
  return sort(root.children ?? []);
}

/** A score for `path` against `query` (lower is better), or null when the characters are not all there in order. */
export function matchScore(path: string, query: string): number | null {
  const p = path.toLowerCase();
  const q = query.toLowerCase().replace(/\s+/g, '');
  if (q === '') return 0;
  const name = p.lastIndexOf('/') + 1;
  // Prefer matches within the file name; fall back to the whole path.
  for (const from of [name, 0]) {
    let i = from;
    let gaps = 0;
    let ok = true;
    for (const ch of q) {
      const j = p.indexOf(ch, i);
      if (j < 0) {
        ok = false;
        break;
      }
      gaps += j - i;
      i = j + 1;
    }
    if (ok) return (from === 0 && name > 0 ? 1000 : 0) + gaps + p.length / 100;
  }
  return null;
}

/** The best `limit` paths for `query`. */
export function quickOpenMatches(paths: readonly string[], query: string, limit = 50): string[] {
  return paths
    .map((p) => ({ p, s: matchScore(p, query) }))
    .filter((x): x is { p: string; s: number } => x.s !== null)
    .sort((a, b) => a.s - b.s)
    .slice(0, limit)
    .map((x) => x.p);
}
