/** Settings slice: provider, model, base URL, key presence, and the connection test's outcome in plain words. */
import { call } from '../rpc';
import type { AppInfo, SettingsLoadError } from '../../../shared/contract';
import type { SettingsSlice, Slice } from './types';

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

export const createSettingsSlice: Slice<SettingsSlice> = (set, get) => ({
  settings: null,
  testing: 'idle',
  testResult: null,
  async loadSettings() {
    const r = await call('settings.get', {});
    if (!r.ok) return get().showError(r.error);
    const info = get().info;
    set({
      settings: r.value,
      info: withSettingsState(info, r.value.loadError ? false : (info?.firstRun ?? false), r.value.loadError),
    });
  },
  async saveSettings(input) {
    const r = await call('settings.save', input);
    if (!r.ok) {
      get().showError(r.error);
      // The file may have been broken by hand since the screen loaded: show why Save refused.
      if (r.error.code === 'conflict') await get().loadSettings();
      return false;
    }
    set({ settings: r.value, error: null, info: withSettingsState(get().info, r.value.provider === null, undefined) });
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
