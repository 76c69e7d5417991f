/**
 * Modes: which tools a step offers and which short instructions it adds to the system prompt (DESIGN §11: the
 * mode is state, re-sent from the store with every request, never left to a summary).
 *
 * - `build`: every tool.
 * - `plan`: read-only — read, list, glob, grep, the todo tools, question, webfetch, and bash judged read-only
 *   (modes-bash.ts): a command not proven read-only is asked even where the rules allow it. edit, multiedit,
 *   write and apply_patch are withheld: not offered, and a call to one is refused (`tool_not_offered`) without
 *   running. Anchor: opencode's plan agent (edits denied, bash asked).
 * - modes from settings (`modes`: name, tools, instructions, bash `read-only` | `rules`); a name may not be one
 *   of the built-ins, so `plan` always means read-only.
 *
 * A mode lists tool names; names of tools that do not exist are ignored (a mode may name tools an MCP server
 * will bring), and a mode that names none offers none.
 */
import { z } from 'zod';
import type { ToolDefinition } from '../tools/types';

/** A mode: its tool names (`*` = every tool), its instructions, and how bash is judged in it. */
export interface ModeDefinition {
  name: string;
  tools: string[] | '*';
  instructions: string;
  /** `read-only`: bash asks for any command not proven read-only (modes-bash.ts); `rules`: the rules decide. */
  bash: 'read-only' | 'rules';
}

/** Tools the plan mode offers. */
export const PLAN_TOOLS = ['read', 'list', 'glob', 'grep', 'bash', 'todowrite', 'todoread', 'question', 'webfetch'];

/** The built-in modes, in the order the mode switch (Ctrl/Cmd+.) cycles them. */
export const BUILT_IN_MODES: ModeDefinition[] = [
  {
    name: 'build',
    tools: '*',
    bash: 'rules',
    instructions: 'Mode: build. You may read, change and create files and run commands to do what the user asks.',
  },
  {
    name: 'plan',
    tools: PLAN_TOOLS,
    bash: 'read-only',
    instructions:
      'Mode: plan. Look around and make a plan; do not change anything. The editing tools are not available, and any command that may change files needs the user’s approval. End with the plan: the files to change and how, and the open questions.',
  },
];

const NAME = /^[a-z][a-z0-9-]{0,31}$/;

/** A mode in settings.json (`modes`: an array of these). */
export const modeSettingSchema = z
  .object({
    name: z
      .string()
      .regex(NAME, 'a mode name is lower-case letters, digits and dashes (at most 32)')
      .refine((n) => !BUILT_IN_MODES.some((m) => m.name === n), 'build and plan are built in; pick another name'),
    tools: z.array(z.string().min(1)).max(100),
    instructions: z.string().max(4000),
    bash: z.enum(['read-only', 'rules']).optional(),
  })
  .strict();

export type ModeSetting = z.infer<typeof modeSettingSchema>;

/** The modes in force: the built-ins, then the settings' modes in their order (names are unique by schema). */
export function allModes(settings: ModeSetting[] | undefined): ModeDefinition[] {
  const extra = (settings ?? []).map((m) => ({ ...m, bash: m.bash ?? 'rules' }));
  return [...BUILT_IN_MODES, ...extra];
}

/** The mode named `name`, or `build` when no such mode exists (it was removed from settings). */
export function findMode(modes: ModeDefinition[], name: string | undefined): ModeDefinition {
  return modes.find((m) => m.name === name) ?? (BUILT_IN_MODES[0] as ModeDefinition);
}

/** The next mode after `name` in `modes` (wrapping): what Tab selects. */
export function nextMode(modes: ModeDefinition[], name: string): ModeDefinition {
  const i = modes.findIndex((m) => m.name === name);
  return modes[(i + 1) % modes.length] as ModeDefinition;
}

/** The tools `mode` offers from `tools`, in the registry's order. */
export function toolsForMode(tools: ToolDefinition[], mode: ModeDefinition): ToolDefinition[] {
  if (mode.tools === '*') return tools;
  const names = new Set(mode.tools);
  return tools.filter((t) => names.has(t.name));
}

/** The system prompt of a step in `mode`: the base prompt, a blank line, the mode's instructions. */
export function systemForMode(base: string, mode: ModeDefinition): string {
  return mode.instructions.trim() === '' ? base : `${base}\n\n${mode.instructions.trim()}`;
}
