/**
 * Skills: folders holding a SKILL.md whose front matter names the skill and says in one line when to use it
 * (the format Claude Code and opencode read). Looked for in the project's `.landfall/skills/` and
 * `.claude/skills/`, then in `skills/` of Landfall's data folder; the first skill of a name wins. The baseline
 * lists name + one line each (`renderSkills`); the full text reaches the model only through the `skill` tool.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** One skill: its name, its one-line description, and the SKILL.md it came from (absolute). */
export interface Skill {
  name: string;
  description: string;
  file: string;
}

/** Folders searched for skills, in order (module docstring). */
export function skillRoots(root: string, dataDir: string): string[] {
  return [path.join(root, '.landfall', 'skills'), path.join(root, '.claude', 'skills'), path.join(dataDir, 'skills')];
}

/** `name:` and `description:` from the `---` front matter of `text`; undefined when either is missing. */
export function parseFrontMatter(text: string): { name: string; description: string } | undefined {
  const m = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  if (!m) return undefined;
  const field = (key: string): string | undefined => {
    const line = new RegExp(`^${key}:\\s*(.*)$`, 'm').exec(m[1] ?? '')?.[1]?.trim();
    return line?.replace(/^(['"])(.*)\1$/, '$2') || undefined;
  };
  const name = field('name');
  const description = field('description');
  return name && description ? { name, description: description.split(/\r?\n/)[0] ?? description } : undefined;
}

/** Every skill found (module docstring), sorted by name. A folder or file that cannot be read is skipped. */
export function findSkills(root: string, dataDir: string): Skill[] {
  const byName = new Map<string, Skill>();
  for (const dir of skillRoots(root, dataDir)) {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      continue;
    }
    for (const n of names) {
      const file = path.join(dir, n, 'SKILL.md');
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        continue;
      }
      const meta = parseFrontMatter(text);
      if (meta && !byName.has(meta.name)) byName.set(meta.name, { ...meta, file });
    }
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The baseline's skills section ('' when there is none). */
export function renderSkills(skills: Skill[]): string {
  if (skills.length === 0) return '';
  const lines = skills.map((s) => `- ${s.name}: ${s.description}`);
  return `<skills>\nSkills you can load with the skill tool when a task matches one:\n${lines.join('\n')}\n</skills>`;
}
