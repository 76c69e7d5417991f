/**
 * What a fetched body becomes for the model. Accepted content types: `text/*`, JSON (`application/json`,
 * `*+json`), XML (`application/xml`, `*+xml`, XHTML) — everything else (images, PDFs, archives, octet streams) is
 * refused with `unsupported_content`, never decoded into noise. The charset of the Content-Type is honoured
 * (TextDecoder's labels; UTF-8 when absent or unknown).
 *
 * HTML becomes markdown with turndown (ATX headings, fenced code), after dropping what a reader never sees or
 * that only runs: script, style, noscript, template, iframe, object, embed, svg, canvas, and `<head>` apart
 * from its title. `format: 'raw'` hands back the decoded text as it came.
 */
import TurndownService from 'turndown';
import { fail, ok } from '../../../shared/errors';
import type { Result } from '../../../shared/errors';

/** The body's kind, from its Content-Type. */
export type BodyKind = 'html' | 'text' | 'json' | 'xml';

/** Kind of a Content-Type value, or undefined when webfetch refuses it. A missing type is read as text. Pure. */
export function bodyKind(contentType: string): BodyKind | undefined {
  const mime = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  if (mime === '') return 'text';
  if (mime === 'text/html' || mime === 'application/xhtml+xml') return 'html';
  if (mime === 'application/json' || mime.endsWith('+json')) return 'json';
  if (mime === 'application/xml' || mime.endsWith('+xml')) return 'xml';
  if (mime.startsWith('text/')) return 'text';
  return undefined;
}

function charsetOf(contentType: string): string {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType);
  return m?.[1] ?? 'utf-8';
}

/** Decode `body` by the charset the Content-Type names (UTF-8 when absent or unknown to TextDecoder). Pure. */
export function decodeBody(body: Buffer, contentType: string): string {
  try {
    return new TextDecoder(charsetOf(contentType)).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

const DROPPED = [
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'svg',
  'canvas',
  'head',
  'title',
];

function turndown(): TurndownService {
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  service.remove(DROPPED as TurndownService.Filter);
  return service;
}

/** HTML → markdown (module docstring): the page's `<title>` as a first heading, then its body. Pure. */
export function htmlToMarkdown(html: string): string {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1]?.trim();
  const markdown = turndown().turndown(html).trim();
  return title ? `# ${title}\n\n${markdown}` : markdown;
}

/**
 * The text the model reads for a body of `contentType`. Error `unsupported_content` (data: contentType) for a
 * type that is not text, JSON, XML or HTML.
 */
export function convertBody(
  body: Buffer,
  contentType: string,
  format: 'markdown' | 'raw',
  url: string,
): Result<{ text: string; kind: BodyKind }> {
  const kind = bodyKind(contentType);
  if (kind === undefined)
    return fail(
      'unsupported_content',
      `${url} answered ${contentType}: webfetch reads text, JSON, XML and HTML only.`,
      'Fetch a page that describes it, or ask the user for the file.',
      { contentType },
    );
  const text = decodeBody(body, contentType);
  if (kind === 'html' && format === 'markdown') return ok({ text: htmlToMarkdown(text), kind });
  return ok({ text, kind });
}
