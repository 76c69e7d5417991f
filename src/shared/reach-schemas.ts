/**
 * Contract shapes for reaching past the project (src/main/reach): trusted folders. A folder is trusted once by
 * the user; until then its own executables (node_modules/.bin language servers, its own TypeScript, MCP servers
 * its files declare) do not run and Landfall uses its bundled servers or none.
 */
import { z } from 'zod';

/** One trusted folder: real absolute path, and when (ms since epoch) the user trusted it. */
export const TrustedFolderSchema = z.object({ path: z.string(), trustedAt: z.number() });

/** The trusted folders, and why trust.json could not be read when it could not (then nothing is trusted). */
export const TrustViewSchema = z.object({
  folders: z.array(TrustedFolderSchema),
  problem: z.string().optional(),
});

/** Trust (true) or revoke (false) one folder; the answer is the list after the change. */
export const TrustSetInputSchema = z.object({ path: z.string().min(1).max(4096), trusted: z.boolean() });

export type TrustedFolderView = z.infer<typeof TrustedFolderSchema>;
export type TrustView = z.infer<typeof TrustViewSchema>;
