/**
 * Assistant text as markdown: paragraphs, lists, inline code and fenced code blocks (syntax-coloured by
 * CodeBlock.tsx when the fence names a language). No raw HTML is rendered.
 * The text is rendered block by block (markdown-blocks.ts) so streaming re-parses only the growing block.
 */
import { memo } from 'react';
import type React from 'react';
import ReactMarkdown from 'react-markdown';
import { markdownBlocks } from './markdown-blocks';
import { CodeBlock } from './CodeBlock';

function Link(props: React.AnchorHTMLAttributes<HTMLAnchorElement>): React.JSX.Element {
  // External links open in the OS browser (Electron denies in-window navigation); rel keeps the opener away.
  return (
    <a href={props.href} target="_blank" rel="noreferrer noopener">
      {props.children}
    </a>
  );
}

const COMPONENTS = { a: Link, code: CodeBlock };

const Block = memo(function Block({ text }: { text: string }): React.JSX.Element {
  return (
    <ReactMarkdown skipHtml components={COMPONENTS}>
      {text}
    </ReactMarkdown>
  );
});

export const Markdown = memo(function Markdown({ text }: { text: string }): React.JSX.Element {
  return (
    <div className="markdown">
      {markdownBlocks(text).map((block, i) => (
        <Block key={i} text={block} />
      ))}
    </div>
  );
});
