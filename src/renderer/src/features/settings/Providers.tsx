/**
 * Settings: the providers (several at once, each a ProviderCard), "Add provider" from a preset (which fills its
 * kind, address, key variable and model), the default provider, and the compaction model ("summaries by a smaller
 * model": any model of any provider, or the session's own). Where keys are kept is said once, under the cards.
 */
import type React from 'react';
import { PROVIDER_PRESETS } from '../../../../shared/settings-schemas';
import type { PresetId } from '../../../../shared/settings-schemas';
import { useStore } from '../../stores';
import { modelIds } from '../../stores/settings-form';
import { Issues } from './fields';
import { ProviderCard } from './ProviderCard';

const PRESETS = Object.keys(PROVIDER_PRESETS) as PresetId[];
const SEP = '\u001f';

function KeyStorageNote(): React.JSX.Element | null {
  const storage = useStore((s) => s.settings?.keyStorage);
  if (storage === 'unprotected')
    return (
      <p className="warning" data-testid="key-warning">
        This system offers no secret store: a key typed here is kept in memory until Landfall quits, never written to
        disk. To keep one, set the variable the provider names (Key variable) in the environment Landfall starts from.
      </p>
    );
  if (storage === 'environment')
    return (
      <p className="muted">
        In the browser version a key typed here is kept in memory until the host stops, never written to disk. Otherwise
        each provider&apos;s key is read from its Key variable in the environment <code>npm run serve</code> started
        from.
      </p>
    );
  return <p className="muted">Keys typed here go to the system&apos;s secret store, never into settings.json.</p>;
}

function CompactionPicker(): React.JSX.Element | null {
  const form = useStore((s) => s.form);
  const problem = useStore((s) => s.settings?.compactionProblem);
  const edit = useStore((s) => s.editForm);
  if (!form) return null;
  const c = form.compaction;
  const value = c ? `${c.provider}${SEP}${c.model ?? ''}` : '';
  const choose = (v: string): void =>
    edit((d) => {
      const { compaction: _old, ...rest } = d;
      void _old;
      if (v === '') return rest;
      const [provider = '', model = ''] = v.split(SEP);
      return { ...rest, compaction: { provider, ...(model ? { model } : {}) } };
    });
  return (
    <label>
      <span>
        Compaction summaries by <span className="muted">(a smaller, cheaper model may write them)</span>
      </span>
      <select data-testid="compaction-model" value={value} onChange={(e) => choose(e.target.value)}>
        <option value="">The session&apos;s own model</option>
        {form.providers.flatMap((p) =>
          modelIds(p).map((m) => (
            <option key={`${p.id}${SEP}${m}`} value={`${p.id}${SEP}${m}`}>
              {p.id} / {m}
            </option>
          )),
        )}
        {c && !form.providers.some((p) => p.id === c.provider && modelIds(p).includes(c.model ?? p.model)) && (
          <option value={value}>
            {c.provider} / {c.model ?? '(its default)'} — not in the list
          </option>
        )}
      </select>
      <Issues path="compaction" />
      {problem && (
        <span className="warning" data-testid="compaction-problem">
          {problem}
        </span>
      )}
    </label>
  );
}

export function Providers(): React.JSX.Element | null {
  const form = useStore((s) => s.form);
  const edit = useStore((s) => s.editForm);
  const add = useStore((s) => s.addProvider);
  if (!form) return null;
  return (
    <fieldset data-testid="providers">
      <legend>Model providers</legend>
      <label>
        <span>
          Default provider <span className="muted">(new sessions use it)</span>
        </span>
        <select
          data-testid="default-provider"
          value={form.defaultProvider}
          onChange={(e) => edit((d) => ({ ...d, defaultProvider: e.target.value }))}
        >
          {!form.providers.some((p) => p.id === form.defaultProvider) && (
            <option value={form.defaultProvider}>{form.defaultProvider || '(none)'}</option>
          )}
          {form.providers.map((p, i) => (
            <option key={i} value={p.id}>
              {p.id}
            </option>
          ))}
        </select>
        <Issues path="defaultProvider" />
      </label>
      <ul className="provider-list">
        {form.providers.map((_, i) => (
          <ProviderCard key={i} index={i} />
        ))}
      </ul>
      <label className="add-provider">
        Add a provider
        <select data-testid="add-provider" value="" onChange={(e) => e.target.value && add(e.target.value as PresetId)}>
          <option value="">Choose a preset…</option>
          {PRESETS.map((id) => (
            <option key={id} value={id}>
              {PROVIDER_PRESETS[id].label}
            </option>
          ))}
        </select>
      </label>
      <KeyStorageNote />
      <CompactionPicker />
    </fieldset>
  );
}
