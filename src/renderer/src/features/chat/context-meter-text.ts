/**
 * The words and figures the context meter shows, from a `context.get` answer (pure: no store, no DOM).
 */
import type { ContextView } from '../../../../shared/context-schemas';

const k = (n: number): string =>
  n >= 10_000 ? `${Math.round(n / 1000)}k` : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n);
const bytes = (n: number): string => (n >= 1024 ? `${(n / 1024).toFixed(1)} KB` : `${n} B`);

/** What the meter shows (ContextMeter.tsx). `level`: 'ok' below 70% of the window, 'high' to 90%, 'full' above. */
export interface MeterText {
  short: string;
  title: string;
  percent: number;
  level: 'ok' | 'high' | 'full';
  categories: [string, string][];
  cap: string;
  files: { label: string; detail: string; cut: boolean }[];
}

/** The meter's text for `view` (which must hold a step). */
export function describeMeter(view: ContextView): MeterText {
  const s = view.step;
  if (!s) throw new Error('describeMeter needs a request');
  const ratio = s.inUse / s.window.tokens;
  const percent = Math.min(100, Math.round(ratio * 1000) / 10);
  const fallback = s.window.source === 'fallback' ? ' (assumed: no window is known for this model)' : '';
  const t = s.tokens;
  return {
    short: `${k(s.inUse)} / ${k(s.window.tokens)}`,
    title: `${s.inUse.toLocaleString('en-US')} of ${s.window.tokens.toLocaleString('en-US')} tokens in use (${percent}%)${fallback} — ${(s.usage?.input ?? 0) > 0 ? 'as the provider reported' : 'estimated'}`,
    percent,
    level: ratio >= 0.9 ? 'full' : ratio >= 0.7 ? 'high' : 'ok',
    categories: [
      ['System', t.system],
      ['Instructions', t.instructions],
      ['Tools', t.tools],
      ['History', t.history],
      ['Tool results', t.toolResults],
    ].map(([n, v]) => [n as string, (v as number).toLocaleString('en-US')]),
    cap: bytes(view.instructionCapBytes),
    files: view.sources
      .filter((x) => x.present && !['environment', 'date', 'skills'].includes(x.key))
      .map((x) => ({
        label: x.label,
        detail: x.cutBytes ? `${bytes(x.bytes ?? 0)} — cut: ${bytes(x.cutBytes)} not sent` : bytes(x.bytes ?? 0),
        cut: (x.cutBytes ?? 0) > 0,
      })),
  };
}
