/** Assistant text as markdown: paragraphs, lists, inline code and fenced code blocks. No raw HTML is rendered. */
import { memo } from 'react';
import type React from 'react';
import ReactMarkdown from 'react-markdown';

function Link(props: React.AnchorHTMLAttributes<HTMLAnchorElement>): React.JSX.Element {
  // External links open in the OS browser (Electron denies in-window navigation); rel keeps the opener away.
  return <a href={props.href} target="_blank" rel="noreferrer noopener">{props.children}</a>;
}

export const Markdown = memo(function Markdown({ text }: { text: string }): React.JSX.Element {
  return (
    <div className="markdown">
      <ReactMarkdown skipHtml components={{ a: Link }}>{text}</ReactMarkdown>
    </div>
  );
});
