/**
 * settings.json as it is now, for every tool call: the file is stat'ed on each call and read again only when its
 * stamp (size, mtime, ctime, inode) changed, so a rule added by hand in a text editor applies at the next tool
 * call, in the app, the web host and `landfall run` alike (they share AgentService).
 *
 * It is read by the one settings reader (read.ts: JSON with comments and trailing commas). A file that becomes
 * unusable (bad syntax, bad fields, unreadable) keeps the last good settings AND is reported:
 * `broken` says why, and the gate then asks for every call that a rule does not deny (a deny rule the user was
 * just adding must not be silently ignored while the file is broken). A deleted file means the defaults.
 */
import { promises as fsp } from 'node:fs';
import type { PermissionRule } from '../permission/rules';
import { loadSettings } from './read';
import type { Settings } from './schema';

/** The permission rules for one call; `broken` is why settings.json could not be used (then everything asks). */
export interface RulesInForce {
  rules: PermissionRule[];
  broken?: string;
}

interface Stamp {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

const same = (a: Stamp | null, b: Stamp | null): boolean =>
  a === b ||
  (a !== null &&
    b !== null &&
    a.size === b.size &&
    a.mtimeMs === b.mtimeMs &&
    a.ctimeMs === b.ctimeMs &&
    a.ino === b.ino);

/** Settings followed on disk (module docstring). `initial` is what was loaded at start from `file`. */
export class LiveSettings {
  private stamp: Stamp | null | undefined;
  private broken: string | undefined;
  private reading: Promise<void> | undefined;

  constructor(
    private readonly file: string,
    private settings: Settings,
  ) {}

  private async stampNow(): Promise<Stamp | null> {
    try {
      const st = await fsp.stat(this.file);
      return { size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino };
    } catch {
      return null;
    }
  }

  private async reread(stamp: Stamp | null): Promise<void> {
    const loaded = await loadSettings(this.file);
    this.stamp = stamp;
    if (loaded.ok) {
      this.settings = loaded.value;
      this.broken = undefined;
    } else {
      this.broken = `settings.json cannot be used (${loaded.error.message}); until it is fixed, every call a rule does not deny is asked`;
    }
  }

  /** Read the file again when it changed since the last call. Never throws. */
  async refresh(): Promise<void> {
    while (this.reading) await this.reading;
    const now = await this.stampNow();
    if (this.stamp !== undefined && same(this.stamp, now)) return;
    this.reading = this.reread(now).finally(() => {
      this.reading = undefined;
    });
    await this.reading;
  }

  /** The settings in force (the last good ones while the file is broken). */
  current(): Settings {
    return this.settings;
  }

  /** Why the file cannot be used right now, or undefined. */
  brokenReason(): string | undefined {
    return this.broken;
  }

  /** The rules for this call, after a refresh. */
  async rules(): Promise<RulesInForce> {
    await this.refresh();
    return { rules: this.settings.permissions, ...(this.broken ? { broken: this.broken } : {}) };
  }

  /** Settings just saved by Landfall itself: in force at once; the stamp is taken at the next call. */
  saved(settings: Settings): void {
    this.settings = settings;
    this.broken = undefined;
    this.stamp = undefined;
  }
}
