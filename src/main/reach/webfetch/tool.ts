/**
 * The `webfetch` tool: the model gives a URL, gets the page as markdown (or raw text). Everything that keeps it
 * from reaching where it must not is in fetch.ts / hop.ts / address.ts; this file is the tool's face: input
 * schema, the permission request per host (`webfetch`, patterns = host names; rules such as
 * `{ permission: 'webfetch', pattern: '*.python.org', action: 'allow' }`), and the output the model reads, capped
 * like every tool output (bash's cap until the shared truncation lands: head + tail, whole text in a scratch file).
 *
 * Output: a header (final URL, the redirect chain when there was one, HTTP status, content type, a note when the
 * 5 MB read limit cut the body) then the text. A 4xx/5xx answer is still returned (its page often says why),
 * with the status in the header.
 */
import { z } from 'zod';
import type { ToolDefinition, ToolOutcome } from '../../tools/types';
import { toolFailure } from '../../tools/types';
import { toolProse } from '../../tools/prose';
import { convertBody } from './convert';
import { fetchChecked, MAX_READ_BYTES } from './fetch';
import type { FetchDeps } from './fetch';

/** Default and largest time limit of one fetch, all redirects included (seconds). */
export const DEFAULT_TIMEOUT_S = 30;
export const MAX_TIMEOUT_S = 120;

const input = z.object({
  url: z.string().min(1).describe('The http:// or https:// URL to fetch.'),
  format: z
    .enum(['markdown', 'raw'])
    .optional()
    .describe('markdown (default): HTML converted to markdown; raw: the text as the server sent it.'),
  timeout: z
    .number()
    .positive()
    .max(MAX_TIMEOUT_S)
    .optional()
    .describe(`Time limit in seconds (default ${DEFAULT_TIMEOUT_S}, at most ${MAX_TIMEOUT_S}).`),
});

export type WebfetchInput = z.infer<typeof input>;

/** Where the tool's settings come from: allowed hosts (settings `webfetch.allowHosts`), and test hooks. */
export type WebfetchDeps = Omit<FetchDeps, 'ask'>;

/** The webfetch tool over `deps` (module docstring). */
export function webfetchTool(deps: WebfetchDeps): ToolDefinition<WebfetchInput> {
  return {
    name: 'webfetch',
    description: toolProse(new URL('./webfetch.md', import.meta.url)),
    input,
    async execute(args, ctx): Promise<ToolOutcome> {
      const timeoutMs = (args.timeout ?? DEFAULT_TIMEOUT_S) * 1000;
      const got = await fetchChecked(
        { url: args.url, timeoutMs, ...(ctx.signal ? { signal: ctx.signal } : {}) },
        { ...deps, ...(ctx.ask ? { ask: ctx.ask } : {}) },
      );
      if (!got.ok) return toolFailure(got.error);
      const res = got.value;
      const converted = convertBody(res.body, res.contentType, args.format ?? 'markdown', res.url);
      if (!converted.ok) return toolFailure(converted.error);
      const limit = deps.maxBytes ?? MAX_READ_BYTES;
      const lines = [
        `URL: ${res.url}`,
        ...(res.chain.length > 1 ? [`Redirected: ${res.chain.join(' → ')}`] : []),
        `Status: ${res.status}`,
        `Content-Type: ${res.contentType || '(none)'}`,
        ...(res.truncated ? [`(the body passed ${limit} bytes: only its first ${limit} bytes were read)`] : []),
      ];
      // the output cap every tool's output goes through (agent/context/tool-output.ts) cuts a long page
      const text = `${lines.join('\n')}\n\n${converted.value.text}`;
      return {
        ok: true,
        title: `webfetch ${res.url}`,
        output: text,
        metadata: {
          url: res.url,
          chain: res.chain,
          status: res.status,
          contentType: res.contentType,
          bytes: res.body.length,
          readTruncated: res.truncated,
        },
      };
    },
  };
}
