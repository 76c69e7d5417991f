/**
 * Settings slice: the Settings form over main's settings contract (shared/settings-schemas.ts). It holds the view
 * main answered (`settings`), the document the form edits (`form`), the keys typed per provider (sent once on save,
 * never shown back), main's field issues from a refused save, each model's window as typed (`settings.windows`),
 * and the newest version of settings.json pushed by `settings.changed` — so a hand edit while the form is open is
 * said (the stale rule, settings-form.ts isStale) instead of being overwritten. The form's rules are in
 * settings-form.ts; main validates every save.
 */
import { call } from '../rpc';
import type { AppInfo, SettingsLoadError, SettingsView } from '../../../shared/contract';
import { addProvider, isDirty, issuesOf, removeProvider, saveInput } from './settings-form';
import type { SettingsSlice, Slice, Store } from './types';

/** `info` with the home screen's settings state brought up to date (first run; a settings.json that cannot be read). */
function withSettingsState(
  info: AppInfo | null,
  firstRun: boolean,
  settingsError: SettingsLoadError | undefined,
): AppInfo | null {
  if (!info) return info;
  const { settingsError: _old, ...rest } = info;
  void _old;
  return settingsError ? { ...rest, firstRun: false, settingsError } : { ...rest, firstRun };
}

/** The store after main answered `view`: the form starts again from it (typed keys and issues cleared). */
function loaded(get: () => Store, view: SettingsView): Partial<Store> {
  const info = get().info;
  return {
    settings: view,
    form: view.settings ? structuredClone(view.settings) : null,
    formKeys: [],
    formIssues: [],
    formWindows: view.windows,
    diskVersion: view.version,
    info: withSettingsState(info, view.loadError ? false : !view.exists, view.loadError),
  };
}

/** The provider's own text of a failed connection test (`data.raw`), for the result's "details" toggle. */
function rawOf(data: unknown): { raw?: string } {
  const raw = (data as { raw?: unknown } | undefined)?.raw;
  return typeof raw === 'string' && raw.trim() ? { raw } : {};
}

export const createSettingsSlice: Slice<SettingsSlice> = (set, get) => {
  let windowsAsked = 0;
  /** The windows of the form's providers as typed; an answer older than the newest question is dropped. */
  const refreshWindows = async (): Promise<void> => {
    const form = get().form;
    if (!form) return;
    const asked = ++windowsAsked;
    const r = await call('settings.windows', { providers: form.providers });
    if (r.ok && asked === windowsAsked) set({ formWindows: r.value });
  };
  return {
    settings: null,
    form: null,
    formKeys: [],
    formIssues: [],
    formStatus: 'idle',
    formWindows: [],
    diskVersion: null,
    formFollowed: false,
    testing: null,
    testResult: null,
    async loadSettings() {
      const r = await call('settings.get', {});
      if (!r.ok) return get().showError(r.error);
      set({ ...loaded(get, r.value), formStatus: 'idle', formFollowed: false, testResult: null });
    },
    editForm(change) {
      const form = get().form;
      if (!form) return;
      const next = change(form);
      set({ form: next, formStatus: 'idle', formFollowed: false });
      if (next.providers !== form.providers) void refreshWindows();
    },
    addProvider(preset) {
      get().editForm((doc) => addProvider(doc, preset));
    },
    removeProvider(index) {
      set({ formKeys: get().formKeys.filter((_, i) => i !== index) });
      get().editForm((doc) => removeProvider(doc, index));
    },
    setFormKey(index, key) {
      const keys = [...get().formKeys];
      keys[index] = key;
      set({ formKeys: keys, formStatus: 'idle' });
    },
    async saveForm() {
      const { form, settings, formKeys } = get();
      if (!form || !settings) return false;
      set({ formStatus: 'saving', formIssues: [] });
      const r = await call('settings.save', saveInput(form, settings.version, formKeys));
      if (r.ok) {
        set({ ...loaded(get, r.value), formStatus: 'saved', formFollowed: false, error: null });
        // the project's MCP servers follow the saved settings: show their state now
        if (get().project) void get().loadMcp();
        return true;
      }
      if (r.error.code === 'stale') {
        // settings.json moved on since the form was loaded: keep the user's edits, say so, offer the reload
        const view = r.error.data?.['view'] as SettingsView | undefined;
        set({ formStatus: 'refused', diskVersion: view?.version ?? get().diskVersion });
        return false;
      }
      const issues = issuesOf(r.error.data);
      set({ formStatus: 'refused', formIssues: issues });
      // field issues are shown on their fields and listed at the top; anything else is the banner's
      if (issues.length === 0) get().showError(r.error);
      // The file may have been broken by hand since the screen loaded: show why Save refused.
      if (r.error.code === 'conflict') await get().loadSettings();
      return false;
    },
    async resetSettings() {
      set({ formStatus: 'saving' });
      const r = await call('settings.reset', {});
      set({ formStatus: 'idle' });
      if (!r.ok) return get().showError(r.error);
      set({ ...loaded(get, r.value), formStatus: 'idle', error: null });
    },
    async settingsChanged(version) {
      if (version === get().settings?.version || get().formStatus === 'saving') return;
      // The event is a hint (it may be an intermediate version of the app's own save or reset): the file's version
      // now decides. Unchanged: nothing. A form with nothing typed follows the file (nothing to lose) and says so;
      // one with edits keeps them and shows the stale notice.
      const r = await call('settings.get', {});
      const { settings, form, formKeys, formStatus } = get();
      if (!r.ok || r.value.version === settings?.version || formStatus === 'saving') return;
      if (isDirty(form, settings?.settings ?? null, formKeys)) return set({ diskVersion: r.value.version });
      set({ ...loaded(get, r.value), formStatus: 'idle', formFollowed: get().screen === 'settings' });
    },
    async testProvider(index) {
      const { form, formKeys } = get();
      const provider = form?.providers[index];
      if (!provider) return;
      set({ testing: index, testResult: null });
      const key = formKeys[index];
      const r = await call('settings.test', { provider, ...(key ? { apiKey: key } : {}) });
      set({
        testing: null,
        testResult: r.ok
          ? {
              index,
              ok: true,
              text: `Connected: ${r.value.model} answered in ${Math.round(r.value.latencyMs)} ms.`,
            }
          : {
              index,
              ok: false,
              text: `${r.error.message.replace(/\.?$/, '.')}\n${r.error.hint}`,
              ...rawOf(r.error.data),
            },
      });
    },
  };
};
