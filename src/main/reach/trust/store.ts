/**
 * Trusted folders (issue 16 §3): a project's own executables — language servers in its node_modules/.bin, its
 * own TypeScript's tsserver.js, MCP servers its files declare — run only once the user trusted the folder that
 * holds it. Trust is given once per folder and covers the folders below it (like VS Code's workspace trust); it is
 * revocable in Settings. Until then Landfall uses its bundled servers or none, and says so.
 *
 * Also remembered here: project MCP files the user approved, by the sha256 of their content (mcp/project.ts); a
 * file whose content changed is asked again.
 *
 * Kept in `<dataDir>/trust.json` (`{ version: 1, folders: [{ path, trustedAt }], files: [{ path, sha256,
 * trustedAt }] }`), written atomically at each change. A missing file is "nothing trusted"; a malformed one is
 * also "nothing trusted" — reported by `problem()` and left untouched until the next change rewrites it (the safe
 * reading: an unreadable trust file lets nothing run).
 */
import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../fs/atomic-write';
import { isInside } from '../../fs/workspace';

const fileSchema = z.object({
  version: z.literal(1),
  folders: z.array(z.object({ path: z.string().min(1), trustedAt: z.number() })),
  files: z.array(
    z.object({ path: z.string().min(1), sha256: z.string().regex(/^[0-9a-f]{64}$/), trustedAt: z.number() }),
  ),
});

/** A trusted folder: its real absolute path and when (ms since epoch) the user trusted it. */
export type TrustedFolder = z.infer<typeof fileSchema>['folders'][number];
/** An approved project file (MCP server list): real path, sha256 of the content approved, when. */
export type TrustedFile = z.infer<typeof fileSchema>['files'][number];

/** The real path of `p` when it exists, else `p` resolved (trust is keyed by real paths: a symlink is its target). */
function realOf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** The trust decisions of one data folder (module docstring). */
export class TrustStore {
  private folders: TrustedFolder[] = [];
  private files: TrustedFile[] = [];
  private broken: string | undefined;
  private readonly listeners = new Set<() => void>();

  private constructor(private readonly file: string) {}

  /** Open `<dataDir>/trust.json` (or `file`). Never fails: see the module docstring for a missing or bad file. */
  static open(file: string): TrustStore {
    const store = new TrustStore(file);
    let raw: string;
    try {
      raw = readFileSync(file, 'utf8');
    } catch {
      return store;
    }
    try {
      const parsed = fileSchema.parse(JSON.parse(raw));
      store.folders = parsed.folders;
      store.files = parsed.files;
    } catch (e) {
      store.broken = `${file} cannot be read (${(e as Error).message.slice(0, 200)}); nothing is trusted until a folder is trusted again`;
    }
    return store;
  }

  /** Why trust.json could not be used, or undefined. */
  problem(): string | undefined {
    return this.broken;
  }

  /** Called after every change (trust, revoke, approve): language servers restart with the new answer. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The trusted folders, in the order they were trusted. */
  list(): TrustedFolder[] {
    return this.folders.map((f) => ({ ...f }));
  }

  /** The trusted folder that covers `folder` (itself or a folder above it), or undefined. By real path. */
  coveringFolder(folder: string): TrustedFolder | undefined {
    const real = realOf(folder);
    return this.folders.find((f) => isInside(f.path, real));
  }

  /** True when `folder` (real path taken) is trusted, itself or through a folder above it. */
  isTrusted(folder: string): boolean {
    return this.coveringFolder(folder) !== undefined;
  }

  /** Trust `folder` (its real path). Idempotent. */
  async trust(folder: string, now = Date.now()): Promise<TrustedFolder> {
    const real = realOf(folder);
    const found = this.folders.find((f) => f.path === real);
    if (found) return { ...found };
    const entry = { path: real, trustedAt: now };
    this.folders.push(entry);
    await this.save();
    return { ...entry };
  }

  /** Take trust back from `folder` exactly (a folder above it stays trusted). True when it was trusted. */
  async revoke(folder: string): Promise<boolean> {
    const real = realOf(folder);
    const before = this.folders.length;
    this.folders = this.folders.filter((f) => f.path !== real && f.path !== folder);
    this.files = this.files.filter((f) => !isInside(real, f.path));
    if (this.folders.length === before) return false;
    await this.save();
    return true;
  }

  /** True when the file at `file` was approved with exactly this content hash. */
  fileApproved(file: string, sha256: string): boolean {
    const real = realOf(file);
    return this.files.some((f) => f.path === real && f.sha256 === sha256);
  }

  /** Approve `file` with content hash `sha256` (replaces an approval of an older content). */
  async approveFile(file: string, sha256: string, now = Date.now()): Promise<void> {
    const real = realOf(file);
    this.files = [...this.files.filter((f) => f.path !== real), { path: real, sha256, trustedAt: now }];
    await this.save();
  }

  private async save(): Promise<void> {
    const body = { version: 1, folders: this.folders, files: this.files };
    await writeFileAtomic(this.file, Buffer.from(`${JSON.stringify(body, null, 2)}\n`, 'utf8'));
    this.broken = undefined;
    for (const l of this.listeners) l();
  }
}
