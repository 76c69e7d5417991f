/**
 * Session search (contract call `sessions.search`): what the session list's search box sends and what main
 * answers — the project's sessions whose title or message text holds every word of the query, each with the
 * messages that matched and a snippet around the first match (plain text; the window marks `match`).
 */
import { z } from 'zod';

/** Longest query accepted (characters); a longer one is `invalid_input` at the contract. */
export const SEARCH_QUERY_MAX = 500;

export const SessionSearchInputSchema = z.object({
  projectId: z.string().min(1).max(200),
  query: z.string().max(SEARCH_QUERY_MAX),
});
export type SessionSearchInput = z.infer<typeof SessionSearchInputSchema>;

/** Text around a match: `before` and `after` are cut (with "…") to a readable length, `match` as it stands. */
export const SnippetSchema = z.object({ before: z.string(), match: z.string(), after: z.string() });
export type Snippet = z.infer<typeof SnippetSchema>;

/** One message whose text matched: the message and part to open the session at, who wrote it, the snippet. */
export const SearchMatchSchema = z.object({
  messageId: z.string(),
  partId: z.string(),
  role: z.enum(['user', 'assistant']),
  snippet: SnippetSchema,
});
export type SearchMatch = z.infer<typeof SearchMatchSchema>;

/**
 * One session found: its title (and, with `titleMatch`, a snippet of it), up to a few matching messages in
 * order, and how many more of its messages matched.
 */
export const SessionSearchHitSchema = z.object({
  sessionId: z.string(),
  title: z.string(),
  updated: z.number(),
  titleMatch: SnippetSchema.optional(),
  matches: z.array(SearchMatchSchema),
  more: z.number().int().min(0),
});
export type SessionSearchHit = z.infer<typeof SessionSearchHitSchema>;
