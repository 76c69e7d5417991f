/** The project's files as a tree (ignore rules applied in main); folders fold, a file opens in the editor. */
import { useEffect, useMemo, useState } from 'react';
import type React from 'react';
import { useStore } from '../../stores';
import { buildTree, type TreeNode } from './tree-model';

function Node({ node, depth }: { node: TreeNode; depth: number }): React.JSX.Element {
  const open = useStore((s) => s.file?.path);
  const openFile = useStore((s) => s.openFile);
  const [expanded, setExpanded] = useState(depth === 0 && node.name === 'src');
  const pad = { paddingLeft: 8 + depth * 12 };
  if (!node.children)
    return (
      <li>
        <button
          className={`tree-file${open === node.path ? ' active' : ''}`}
          style={pad}
          data-path={node.path}
          onClick={() => void openFile(node.path)}
          title={node.path}
        >
          {node.name}
        </button>
      </li>
    );
  return (
    <li>
      <button className="tree-dir" style={pad} aria-expanded={expanded} onClick={() => setExpanded(!expanded)}>
        {expanded ? '▾' : '▸'} {node.name}
      </button>
      {expanded && (
        <ul>
          {node.children.map((c) => (
            <Node key={c.path} node={c} depth={depth + 1} />
          ))}
        </ul>
      )}
    </li>
  );
}

export function FileTree(): React.JSX.Element {
  const tree = useStore((s) => s.tree);
  const truncated = useStore((s) => s.treeTruncated);
  const failed = useStore((s) => s.treeFailed);
  const projectId = useStore((s) => s.project?.id);
  const ensureTree = useStore((s) => s.ensureTree);
  const loadTree = useStore((s) => s.loadTree);
  const nodes = useMemo(() => buildTree(tree ?? []), [tree]);
  // Shown without a tree: a listing of the open project is under way (or starts now).
  useEffect(() => {
    if (tree === null && !failed) ensureTree();
  }, [tree, failed, projectId, ensureTree]);
  if (tree === null && failed)
    return (
      <div className="file-tree muted" data-testid="file-tree-failed">
        The files could not be listed. <button onClick={() => void loadTree()}>Retry</button>
      </div>
    );
  if (tree === null) return <div className="file-tree muted">Loading files…</div>;
  return (
    <nav className="file-tree" aria-label="Files" data-testid="file-tree">
      <ul>
        {nodes.map((n) => (
          <Node key={n.path} node={n} depth={0} />
        ))}
      </ul>
      {truncated && <p className="muted">Only the first 20,000 files are listed.</p>}
    </nav>
  );
}
