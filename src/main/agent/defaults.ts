/** Defaults of a session: the system prompt and the title a new session gets until its first prompt. */

export const SYSTEM_PROMPT =
  "You are a coding agent working in the user's project through tools. Read a file before editing it; make the smallest edit that does the job; when a tool reports an error, read its hint and act on it.";

/** Title of a session created without one; the first prompt replaces it. */
export const DEFAULT_TITLE = 'New session';

/** A session title from a prompt: its first line, at most 60 characters. */
export function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
