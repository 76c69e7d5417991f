/**
 * One provider of the Settings form: its id and kind, base URL, default model and other models (each with its
 * context window and where that figure comes from — a fallback guess for an unknown model is a visible warning),
 * its key (typed to store, never shown back; or the variable `apiKeyEnv` names), and a connection test. Each
 * field shows main's issues for it. Changes go through the settings slice (settings-form.ts's rules).
 */
import type React from 'react';
import { ProviderKindSchema } from '../../../../shared/settings-schemas';
import type { ModelWindow, ProviderKind } from '../../../../shared/settings-schemas';
import { useStore } from '../../stores';
import { otherModels, renameProvider, setOtherModels, tokens, updateProvider } from '../../stores/settings-form';
import { CountInput, Issues, WordsInput } from './fields';

const KIND_LABEL: Record<ProviderKind, string> = {
  'openai-compatible': 'OpenAI-compatible',
  openai: 'OpenAI',
  anthropic: 'Anthropic',
};

const SOURCE: Record<ModelWindow['source'], string> = {
  settings: 'from your settings',
  catalog: 'from the built-in table',
  fallback: 'a guess: unknown model',
};

function WindowRow({ w }: { w: ModelWindow }): React.JSX.Element {
  const guess = w.source === 'fallback';
  return (
    <li
      className={guess ? 'guess' : undefined}
      data-testid={guess ? 'window-fallback' : 'model-window'}
      data-model={w.model}
    >
      {guess && '⚠ '}
      <code>{w.model}</code> {tokens(w.window)} <span className="muted">({SOURCE[w.source]})</span>
      <span className="muted"> · compacts at {tokens(w.trigger)}</span>
    </li>
  );
}

/** Said once under a provider's windows when any is a guess: what that means and how to correct it. */
function GuessNote({ models }: { models: string[] }): React.JSX.Element {
  return (
    <p className="warning window-note" data-testid="window-guess-note">
      {models.join(', ')} {models.length === 1 ? 'is' : 'are'} not in the built-in table: Landfall guesses the window.
      Set the context window if the model&apos;s is smaller, or compaction may start too late.
    </p>
  );
}

/** Where the provider's key comes from now, and the field to type a new one. */
function KeyField({ index, id, local }: { index: number; id: string; local: boolean }): React.JSX.Element {
  const source = useStore((s) => s.settings?.keys[id]);
  const typed = useStore((s) => s.formKeys[index]);
  const setKey = useStore((s) => s.setFormKey);
  const said =
    typed === null
      ? 'the stored key will be removed on Save'
      : source?.source === 'stored'
        ? 'a key is stored; type to replace it'
        : source?.source === 'environment'
          ? `read from ${source.env ?? 'the environment'}`
          : local
            ? 'none; a local server needs none'
            : 'no key';
  return (
    <label>
      <span>
        API key <span className="muted">({said})</span>
      </span>
      <span className="inline">
        <input
          data-testid="api-key"
          type="password"
          autoComplete="off"
          value={typed ?? ''}
          onChange={(e) => setKey(index, e.target.value)}
        />
        {source?.source === 'stored' && typed !== null && (
          <button data-testid="remove-key" onClick={() => setKey(index, null)}>
            Remove stored key
          </button>
        )}
      </span>
      <Issues path={`keys.${id}`} />
    </label>
  );
}

export function ProviderCard({ index }: { index: number }): React.JSX.Element | null {
  const p = useStore((s) => s.form?.providers[index]);
  const windows = useStore((s) => s.formWindows);
  const edit = useStore((s) => s.editForm);
  const remove = useStore((s) => s.removeProvider);
  const test = useStore((s) => s.testProvider);
  const testing = useStore((s) => s.testing);
  const result = useStore((s) => s.testResult);
  if (!p) return null;
  const at = `providers.${index}`;
  const change = (c: Parameters<typeof updateProvider>[2]): void => edit((d) => updateProvider(d, index, c));
  const own = windows.filter((w) => w.provider === index);
  const guesses = own.filter((w) => w.source === 'fallback').map((w) => w.model);
  return (
    <li className="provider-card" data-testid="provider-card" data-provider={p.id}>
      <div className="provider-head">
        <label>
          Name
          <input
            data-testid="provider-id"
            value={p.id}
            onChange={(e) => edit((d) => renameProvider(d, index, e.target.value))}
          />
          <Issues path={`${at}.id`} />
        </label>
        <label>
          Kind
          <select
            data-testid="provider-kind"
            value={p.kind}
            onChange={(e) => change({ kind: ProviderKindSchema.parse(e.target.value) })}
          >
            {ProviderKindSchema.options.map((k) => (
              <option key={k} value={k}>
                {KIND_LABEL[k]}
              </option>
            ))}
          </select>
        </label>
        <button className="danger" data-testid="remove-provider" onClick={() => remove(index)}>
          Remove
        </button>
      </div>
      <label>
        Base URL
        <input
          data-testid="base-url"
          value={p.baseURL ?? ''}
          placeholder={p.kind === 'openai-compatible' ? 'http://127.0.0.1:8080/v1' : "the vendor's own address"}
          onChange={(e) => change({ baseURL: e.target.value })}
        />
        <Issues path={`${at}.baseURL`} />
      </label>
      <div className="provider-grid">
        <label>
          Default model
          <input data-testid="model" value={p.model} onChange={(e) => change({ model: e.target.value })} />
          <Issues path={`${at}.model`} />
        </label>
        <label>
          Other models
          <WordsInput
            data-testid="other-models"
            placeholder="e.g. small-model, big-model"
            value={otherModels(p)}
            onChange={(ids) => edit((d) => setOtherModels(d, index, ids))}
          />
          <Issues path={`${at}.models`} />
        </label>
        <label>
          Context window (tokens)
          <CountInput
            data-testid="context-window"
            placeholder="from the built-in table"
            value={p.contextWindow}
            onChange={(contextWindow) => change({ contextWindow })}
          />
          <Issues path={`${at}.contextWindow`} />
        </label>
        <label>
          <span>
            Key variable <span className="muted">(apiKeyEnv)</span>
          </span>
          <input
            data-testid="api-key-env"
            value={p.apiKeyEnv ?? ''}
            placeholder="e.g. OPENAI_API_KEY"
            onChange={(e) => change({ apiKeyEnv: e.target.value })}
          />
          <Issues path={`${at}.apiKeyEnv`} />
        </label>
      </div>
      {own.length > 0 && (
        <ul className="model-windows" aria-label="Context windows">
          {own.map((w) => (
            <WindowRow key={w.model} w={w} />
          ))}
        </ul>
      )}
      {guesses.length > 0 && <GuessNote models={guesses} />}
      <KeyField index={index} id={p.id} local={p.kind === 'openai-compatible'} />
      <div className="row-buttons">
        <button data-testid="test-connection" disabled={testing !== null} onClick={() => void test(index)}>
          {testing === index ? 'Testing…' : 'Test connection'}
        </button>
      </div>
      {result?.index === index && (
        <div className={result.ok ? 'ok' : 'warning'} data-testid="test-result" role="status">
          {result.text}
          {result.raw && (
            <details className="test-details">
              <summary>details</summary>
              <pre>{result.raw}</pre>
            </details>
          )}
        </div>
      )}
    </li>
  );
}
