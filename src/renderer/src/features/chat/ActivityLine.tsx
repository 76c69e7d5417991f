/** The live line at the end of a running turn: "thinking · 4s", "calling bash · 12s", "waiting for … diagnostics". */
import { useEffect, useState } from 'react';
import type React from 'react';
import { useStore } from '../../stores';
import { activityOf, elapsedText } from '../../stores/activity';

export function ActivityLine(): React.JSX.Element | null {
  const messages = useStore((s) => s.messages);
  const busy = useStore((s) => s.busy);
  const asking = useStore((s) => s.asks.length > 0);
  const turnStart = useStore((s) => s.turnStart);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!busy) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [busy]);
  const activity = activityOf(messages, busy, asking, turnStart || now);
  if (!activity) return null;
  return (
    <div
      className={`activity activity-${activity.kind}`}
      data-testid="busy"
      data-activity={activity.kind}
      role="status"
    >
      <span className="activity-dot" aria-hidden="true" />
      <span className="activity-label">{activity.label}</span>
      <span className="activity-time">{elapsedText(Math.max(now, Date.now()) - activity.since)}</span>
    </div>
  );
}
