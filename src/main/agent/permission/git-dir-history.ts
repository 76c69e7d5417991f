/**
 * What a revert or undo cannot put back: files the agent wrote inside a repository's own `.git` folder (each
 * such write was asked as `git_dir`). Snapshots never hold `.git`, so moving the session back leaves them as the
 * agent left them — and the result must say so instead of reporting success (tools/git-dir.ts).
 */
import type { MessageWithParts } from '../../../shared/model';
import { inGitDir } from '../../tools/git-dir';
import { analyseBash } from './bash-command';
import { writesGitConfig } from './bash-git';
import { namesGitDir, readsOnly } from './bash-risk';

/** Parts after a boundary (the boundary part itself included when it is a part boundary). */
function after(messages: MessageWithParts[], boundary: { messageId: string; partId?: string }) {
  const i = messages.findIndex((m) => m.id === boundary.messageId);
  if (i < 0) return [];
  const first = messages[i] as MessageWithParts;
  const j =
    boundary.partId === undefined
      ? 0
      : Math.max(
          0,
          first.parts.findIndex((p) => p.id === boundary.partId),
        );
  return [...first.parts.slice(j), ...messages.slice(i + 1).flatMap((m) => m.parts)];
}

function changedFiles(metadata: Record<string, unknown> | undefined): string[] {
  const found: string[] = [];
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object' && typeof (v as { file?: unknown }).file === 'string')
      found.push((v as { file: string }).file);
  };
  for (const v of Object.values(metadata ?? {})) visit(v);
  return found;
}

/**
 * Root-relative `.git` paths (or, for bash, `.git (bash: <command>)`) that completed tool calls after `boundary`
 * wrote; sorted, without duplicates.
 */
export async function unrestorableGitWrites(
  messages: MessageWithParts[],
  boundary: { messageId: string; partId?: string } | undefined,
): Promise<string[]> {
  if (!boundary) return [];
  const out = new Set<string>();
  for (const p of after(messages, boundary)) {
    if (p.type !== 'tool' || p.state !== 'completed') continue;
    for (const f of changedFiles(p.metadata)) if (inGitDir(f)) out.add(f);
    const command = (p.input as { command?: unknown } | undefined)?.command;
    if (p.tool === 'bash' && typeof command === 'string') {
      const a = await analyseBash(command);
      const touches = a.commands.some(
        (c) => writesGitConfig(c.words) || (!readsOnly(c.words) && c.looseWords.slice(1).some(namesGitDir)),
      );
      if (touches || a.writeTargets.some(namesGitDir)) out.add(`.git (bash: ${command})`);
    }
  }
  return [...out].sort();
}
