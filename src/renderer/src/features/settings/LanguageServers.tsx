/**
 * Settings: language servers — the built-in ones switched on or off (`lsp.disabled`), and the user's own added,
 * edited and removed (`lsp.servers`: id, command line, file extensions). Saved with the form; main restarts the
 * servers when the settings change.
 */
import type React from 'react';
import type { LspServerDoc, SettingsDoc } from '../../../../shared/settings-schemas';
import { useStore } from '../../stores';
import { withItem } from '../../stores/settings-form';
import { Issues, WordsInput } from './fields';

type Lsp = NonNullable<SettingsDoc['lsp']>;

// one empty list: a selector must answer the same value for the same state (a fresh [] each time re-renders forever)
const NONE: { id: string; extensions: string[] }[] = [];

/** `doc` with its `lsp` settings changed by `change` (an empty lsp object is kept: the user may have written it). */
function withLsp(doc: SettingsDoc, change: (lsp: Lsp) => Lsp): SettingsDoc {
  return { ...doc, lsp: change(doc.lsp ?? {}) };
}

function ServerRow({ server, index }: { server: LspServerDoc; index: number }): React.JSX.Element {
  const edit = useStore((s) => s.editForm);
  const set = (value: LspServerDoc | undefined): void =>
    edit((d) => withLsp(d, (l) => ({ ...l, servers: withItem(l.servers ?? [], index, value) })));
  const at = `lsp.servers.${index}`;
  return (
    <li className="rule-row" data-testid="lsp-server">
      <input
        aria-label="Server id"
        data-testid="lsp-id"
        placeholder="id, e.g. gopls"
        value={server.id}
        onChange={(e) => set({ ...server, id: e.target.value })}
      />
      <WordsInput
        aria-label="Command"
        data-testid="lsp-command"
        className="wide"
        placeholder="command and arguments, e.g. gopls serve"
        commas={false}
        value={server.command}
        onChange={(command) => set({ ...server, command })}
      />
      <WordsInput
        aria-label="File extensions"
        data-testid="lsp-extensions"
        placeholder=".go .mod"
        value={server.extensions}
        onChange={(extensions) => set({ ...server, extensions })}
      />
      <button aria-label="Remove server" data-testid="remove-lsp" onClick={() => set(undefined)}>
        Remove
      </button>
      <Issues path={at} />
    </li>
  );
}

export function LanguageServers(): React.JSX.Element | null {
  const lsp = useStore((s) => s.form?.lsp);
  const hasForm = useStore((s) => s.form !== null);
  const builtins = useStore((s) => s.settings?.lspBuiltins ?? NONE);
  const edit = useStore((s) => s.editForm);
  if (!hasForm) return null;
  const disabled = lsp?.disabled ?? [];
  const servers = lsp?.servers ?? [];
  const toggle = (id: string, on: boolean): void =>
    edit((d) =>
      withLsp(d, (l) => ({
        ...l,
        disabled: on ? (l.disabled ?? []).filter((x) => x !== id) : [...(l.disabled ?? []), id],
      })),
    );
  return (
    <fieldset data-testid="language-servers">
      <legend>Language servers</legend>
      <ul className="switch-list">
        {builtins.map((b) => (
          <li key={b.id}>
            <label className="switch">
              <input
                type="checkbox"
                data-testid="lsp-builtin"
                data-id={b.id}
                checked={!disabled.includes(b.id)}
                onChange={(e) => toggle(b.id, e.target.checked)}
              />
              <strong>{b.id}</strong> <span className="muted">{b.extensions.join(' ')}</span>
            </label>
          </li>
        ))}
      </ul>
      {servers.length > 0 && (
        <ul className="rule-list">
          {servers.map((s, i) => (
            <ServerRow key={i} server={s} index={i} />
          ))}
        </ul>
      )}
      <div className="row-buttons">
        <button
          data-testid="add-lsp"
          onClick={() =>
            edit((d) =>
              withLsp(d, (l) => ({ ...l, servers: [...(l.servers ?? []), { id: '', command: [], extensions: [] }] })),
            )
          }
        >
          Add language server
        </button>
      </div>
    </fieldset>
  );
}
