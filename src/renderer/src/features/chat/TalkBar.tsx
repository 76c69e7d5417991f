/**
 * The mode switch and the model picker under the input: the mode (a click or the chat.mode keys, Ctrl/Cmd+. or
 * Alt+Shift+M, cycle build → plan → the settings' modes) and the provider/model of the next step. Both apply at the next step (main decides).
 */
import type React from 'react';
import { useStore } from '../../stores';
import { keyLabels, withKeys } from '../../stores/key-labels';
import './talk.css';

export function TalkBar(): React.JSX.Element | null {
  const talk = useStore((s) => s.talk);
  const cycleMode = useStore((s) => s.cycleMode);
  const chooseTalk = useStore((s) => s.chooseTalk);
  if (!talk) return null;
  const value = `${talk.provider}\u0000${talk.model}`;
  return (
    <div className="talk-bar">
      <button
        className={`mode-switch mode-${talk.mode}`}
        data-testid="mode-switch"
        title={withKeys('Switch mode', 'chat.mode')}
        onClick={() => void cycleMode()}
      >
        {talk.mode}
      </button>
      <label className="model-picker">
        <span>Model</span>
        <select
          data-testid="model-picker"
          value={value}
          onChange={(e) => {
            const [provider, model] = e.target.value.split('\u0000');
            void chooseTalk({ ...(provider ? { provider } : {}), ...(model ? { model } : {}) });
          }}
        >
          {talk.providers.map((p) => (
            <option key={p.id} value={`${p.id}\u0000${p.model}`}>
              {`${p.id} / ${p.model}`}
            </option>
          ))}
          {talk.providers.some((p) => `${p.id}\u0000${p.model}` === value) ? null : (
            <option value={value}>{`${talk.provider} / ${talk.model}`}</option>
          )}
        </select>
      </label>
      <span className="talk-hint">{keyLabels('chat.mode')[0]}: mode</span>
    </div>
  );
}
