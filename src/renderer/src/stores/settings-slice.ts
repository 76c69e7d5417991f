/** Settings slice: provider, model, base URL, key presence, and the connection test's outcome in plain words. */
import { call } from '../rpc';
import type { SettingsSlice, Slice } from './types';

export const createSettingsSlice: Slice<SettingsSlice> = (set, get) => ({
  settings: null,
  testing: 'idle',
  testResult: null,
  async loadSettings() {
    const r = await call('settings.get', {});
    if (r.ok) set({ settings: r.value });
    else get().showError(r.error);
  },
  async saveSettings(input) {
    const r = await call('settings.save', input);
    if (!r.ok) {
      get().showError(r.error);
      return false;
    }
    const info = get().info;
    set({ settings: r.value, error: null, info: info ? { ...info, firstRun: r.value.provider === null } : info });
    return true;
  },
  async testConnection(input) {
    set({ testing: 'running', testResult: null });
    const r = await call('settings.test', input);
    set({
      testing: 'idle',
      testResult: r.ok
        ? { ok: true, text: `Connected: ${r.value.model} answered in ${Math.round(r.value.latencyMs)} ms.` }
        : { ok: false, text: `${r.error.message.replace(/\.?$/, '.')}\n${r.error.hint}` },
    });
  },
});
