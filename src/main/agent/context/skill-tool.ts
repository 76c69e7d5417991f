/**
 * The `skill` tool: loads one skill's full SKILL.md (skills.ts) when the model asks for it by name. Loading a
 * skill is reading its file, so it goes through the permission gate as a read of that file (a skill from the
 * data folder, outside the project, as `external_directory`); the text is capped like an instruction file.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { ToolDefinition } from '../../tools/types';
import { toolFailure } from '../../tools/types';
import { capText, INSTRUCTION_CAP_BYTES } from './instructions';
import { findSkills } from './skills';

const skillInput = z.object({
  name: z.string().min(1).max(200).describe('Name of the skill, as the skills list gives it.'),
});

/** The tool for a service whose data folder is `dataDir` (global skills live in `<dataDir>/skills`). */
export function skillTool(dataDir: string): ToolDefinition<z.infer<typeof skillInput>> {
  return {
    name: 'skill',
    description:
      'Load the full instructions of one skill from the skills list (by name) when the task matches its description.',
    input: skillInput,
    async execute(input, ctx) {
      const skills = findSkills(ctx.root, dataDir);
      const skill = skills.find((s) => s.name === input.name);
      if (!skill)
        return toolFailure({
          code: 'not_found',
          message: `There is no skill named "${input.name}".`,
          hint: skills.length ? `Available: ${skills.map((s) => s.name).join(', ')}.` : 'No skills are installed.',
        });
      const rel = path.relative(ctx.root, skill.file);
      const inside = !rel.startsWith('..') && !path.isAbsolute(rel);
      const answer = ctx.ask
        ? await ctx.ask({
            tool: 'skill',
            permission: inside ? 'read' : 'external_directory',
            patterns: [inside ? rel : skill.file],
            title: `load skill ${skill.name}`,
          })
        : { allow: true as const };
      if (!answer.allow)
        return toolFailure({
          code: 'permission_denied',
          message: `The user did not allow loading the skill ${skill.name}.`,
          hint: answer.reason ? `The user said: ${answer.reason}` : 'Go on without it, or ask the user.',
        });
      let bytes: Buffer;
      try {
        bytes = readFileSync(skill.file);
      } catch (e) {
        return toolFailure({
          code: 'io_error',
          message: `${skill.file} could not be read (${(e as NodeJS.ErrnoException).code ?? 'error'}).`,
          hint: 'Go on without the skill, or ask the user to check the file.',
        });
      }
      const { text, cutBytes } = capText(bytes);
      const cut = cutBytes
        ? `\n[Cut: ${cutBytes} of ${bytes.length} bytes left out (cap ${INSTRUCTION_CAP_BYTES}); read ${skill.file} for the rest.]`
        : '';
      return {
        ok: true,
        title: `skill ${skill.name}`,
        output: `<skill name="${skill.name}" file="${skill.file}">\n${text.replace(/\n$/, '')}${cut}\n</skill>`,
        metadata: { skill: skill.name, file: skill.file, bytes: bytes.length, cutBytes },
      };
    },
  };
}
