/**
 * Small pieces of the Settings form: a field's issues from main (shown under the field they name), and a text
 * field that edits a list of words (its text is kept as typed, so a space can be typed between two words).
 */
import { useEffect, useState } from 'react';
import type React from 'react';
import { useStore } from '../../stores';
import { issuesAt, words } from '../../stores/settings-form';

/** Main's messages for the field at `path` (and anything inside it), from the last refused save. */
export function Issues({ path }: { path: string }): React.JSX.Element | null {
  const messages = issuesAt(
    useStore((s) => s.formIssues),
    path,
  );
  if (messages.length === 0) return null;
  return (
    <span className="field-issue" role="alert" data-testid="field-issue" data-path={path}>
      {messages.join('; ')}
    </span>
  );
}

/** A text field holding `value` as words (split at spaces, and commas unless `commas` is false). */
export function WordsInput({
  value,
  onChange,
  commas = true,
  ...rest
}: {
  value: string[];
  onChange: (value: string[]) => void;
  commas?: boolean;
} & Omit<React.InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'>): React.JSX.Element {
  const joined = value.join(' ');
  const [text, setText] = useState(joined);
  useEffect(() => {
    // follow a change from outside (a reload), not the user's own typing
    setText((t) => (words(t, commas).join(' ') === joined ? t : joined));
  }, [joined, commas]);
  return (
    <input
      {...rest}
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        onChange(words(e.target.value, commas));
      }}
    />
  );
}

/** A number field for an optional count (empty: undefined, the default applies). */
export function CountInput({
  value,
  onChange,
  ...rest
}: {
  value: number | undefined;
  onChange: (value: number | undefined) => void;
} & Omit<React.InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'>): React.JSX.Element {
  return (
    <input
      {...rest}
      type="number"
      min={0}
      step={1000}
      value={value ?? ''}
      onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}
    />
  );
}
