/**
 * A fenced code block of the chat, syntax-coloured by Monaco's colorizer (colorize.ts, loaded on first use). The
 * plain text shows until the colours are ready, and stays when the fence names no known language; the block is
 * coloured again when its text grows (streaming) or the OS switches between light and dark.
 */
import { useEffect, useState } from 'react';
import type React from 'react';
import { fenceWord } from './code-language';

/** The OS colour scheme, followed live. */
function useScheme(): 'light' | 'dark' {
  const query = '(prefers-color-scheme: dark)';
  const [dark, setDark] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const media = window.matchMedia(query);
    const onChange = (): void => setDark(media.matches);
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, []);
  return dark ? 'dark' : 'light';
}

export function CodeBlock(props: React.HTMLAttributes<HTMLElement>): React.JSX.Element {
  const word = fenceWord(props.className);
  const text = String(props.children ?? '');
  const scheme = useScheme();
  const [html, setHtml] = useState<{ for: string; html: string } | null>(null);
  const key = `${scheme}\n${word ?? ''}\n${text}`;
  useEffect(() => {
    if (!word) return;
    let live = true;
    void import('./colorize')
      .then(({ colorize }) => colorize(text, word))
      .then((out) => {
        if (live && out !== null) setHtml({ for: key, html: out });
      });
    return () => {
      live = false;
    };
  }, [key, text, word]);
  if (!word || !html) return <code className={props.className}>{props.children}</code>;
  return (
    <code
      className={`${props.className ?? ''} colorized`}
      data-testid="code-colorized"
      data-stale={html.for === key ? undefined : 'true'}
      // Monaco's colorizer escapes the code; the markup is only its token spans and line breaks.
      dangerouslySetInnerHTML={{ __html: html.html }}
    />
  );
}
