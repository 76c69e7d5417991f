/**
 * The card a repetition stop leaves in the transcript (a `loop-stop` part, src/main/agent/loop-decision.ts): the
 * call the agent kept making (tool and input) and how many times in a row, with "Go on" (a new turn in which the
 * model is told the user let it continue) and "Stop here" — ordinary buttons, so Tab reaches them and Enter or
 * Space presses them. Once answered, superseded by a later message or undone by a revert, it says how and the
 * buttons are gone. What it shows and when the buttons work is decided by the store (stores/loop-stop.ts,
 * loop-slice.ts); this only renders.
 */
import type React from 'react';
import type { Part } from '../../../../shared/contract';
import { useStore } from '../../stores';
import { loopStopView } from '../../stores/loop-stop';
import './loop-stop.css';

type LoopStopPart = Extract<Part, { type: 'loop-stop' }>;

export function LoopStopCard({ part, reverted }: { part: LoopStopPart; reverted: boolean }): React.JSX.Element {
  const answer = useStore((s) => s.answerLoop);
  const running = useStore((s) => !!s.running[part.sessionId]);
  const answering = useStore((s) => !!s.loopAnswering[part.id]);
  const view = loopStopView(part, { reverted, running, answering });
  return (
    <div
      className={`loop-card${view.state === 'waiting' ? ' waiting' : ''}`}
      data-testid="loop-stop"
      data-state={view.state}
      role="group"
      aria-label="Repeated call"
    >
      <div className="loop-title">{view.title}</div>
      <div className="loop-call">
        <span className="loop-tool">{view.tool}</span>
        <pre className="loop-input">{view.input}</pre>
      </div>
      {view.state === 'waiting' ? (
        <>
          <p className="loop-why">
            Its result will not change. Go on — the agent is told it was repeating itself, and the count starts afresh —
            or stop here.
          </p>
          <div className="loop-actions">
            <button
              className="primary"
              data-testid="loop-continue"
              disabled={!view.canAnswer}
              onClick={() => void answer(part.id, 'continue')}
            >
              Go on
            </button>
            <button
              data-testid="loop-stop-here"
              disabled={!view.canAnswer}
              onClick={() => void answer(part.id, 'stop')}
            >
              Stop here
            </button>
            {view.blockedBy ? <span className="loop-blocked">{view.blockedBy}</span> : null}
          </div>
        </>
      ) : (
        <div className="loop-decided" data-testid="loop-decided">
          {view.outcome}
        </div>
      )}
    </div>
  );
}
