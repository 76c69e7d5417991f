/**
 * The shell parser the permission checks use: tree-sitter's bash grammar (`tree-sitter-bash`, the wasm build its
 * npm package ships) run by `web-tree-sitter`. Both come from the npm registry and load from node_modules — no
 * download at run time. The grammar and its runtime are loaded once per process, on the first parse (~100 ms);
 * a parse then takes well under a millisecond.
 *
 * The tree is error-tolerant (a bad line still yields a tree, with ERROR or MISSING nodes): the checker in
 * bash-command.ts treats any error as "cannot prove" and asks.
 */
import { createRequire } from 'node:module';
import { Language, Parser } from 'web-tree-sitter';
import type { Node } from 'web-tree-sitter';

export type { Node as BashNode } from 'web-tree-sitter';

let loading: Promise<Parser> | undefined;

async function load(): Promise<Parser> {
  const require = createRequire(import.meta.url);
  await Parser.init();
  const bash = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
  const parser = new Parser();
  parser.setLanguage(bash);
  return parser;
}

/**
 * Parse `line` as bash and hand its root node to `use` (the tree is freed afterwards, so `use` must not keep
 * nodes). Throws only when the grammar cannot be loaded at all (a broken install) — callers turn that into "ask".
 */
export async function withBashTree<T>(line: string, use: (root: Node) => T): Promise<T> {
  loading ??= load();
  let parser: Parser;
  try {
    parser = await loading;
  } catch (e) {
    loading = undefined;
    throw e;
  }
  const tree = parser.parse(line);
  if (!tree) throw new Error('the bash parser returned no tree');
  try {
    return use(tree.rootNode);
  } finally {
    tree.delete();
  }
}
