/**
 * Slash commands typed in the composer (pure): the menu's entries, the entries matching what is typed, and
 * whether a message is a command at all. A message whose first word is `/word` (no other `/` in it, so a path
 * such as `/usr/bin/env is missing` stays a message) is a command; an unknown one is refused in the window and
 * never sent to the model as a prompt.
 */

export interface SlashCommand {
  name: string;
  args?: string;
  description: string;
}

/** The commands this window runs itself (the chat slice's `send` dispatches them). */
export const SLASH_COMMANDS: SlashCommand[] = [
  { name: 'undo', description: 'Revert the last turn; its prompt comes back into the input' },
  { name: 'redo', description: 'Bring the last undone turn back' },
  { name: 'compact', description: 'Fold the older history into a summary now (undo it from its marker)' },
  { name: 'replay', args: '<folder | sample>', description: 'Play a recorded session into this project' },
];

/** The command word of `text` ("undo" for "/undo now"), or null when `text` is not a command. */
export function commandWord(text: string): string | null {
  const m = /^\/([A-Za-z][\w-]*)(?=\s|$)/.exec(text.trim());
  return m ? (m[1] as string).toLowerCase() : null;
}

/** Menu entries for a draft being typed as a command ("/re" → redo, replay); [] once a space follows the word. */
export function slashMatches(draft: string, commands: readonly SlashCommand[] = SLASH_COMMANDS): SlashCommand[] {
  const m = /^\/([\w-]*)$/.exec(draft);
  if (!m) return [];
  const q = (m[1] as string).toLowerCase();
  return commands.filter((c) => c.name.startsWith(q));
}
