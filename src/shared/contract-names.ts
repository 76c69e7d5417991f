/**
 * The names of every contract call and event, as plain strings with no dependencies.
 *
 * Why a separate file: the sandboxed preload cannot `require` packages (zod), so it builds `window.landfall` from
 * these lists alone; `contract.ts` checks at compile time that its entries match these names exactly, so the two
 * cannot drift apart.
 */

/** Every call the renderer can make to main. Dotted `area.verb` names. */
export const CALL_NAMES = [
  'app.info',
  'projects.list',
  'projects.open',
  'projects.pickFolder',
  'projects.openSample',
  'sessions.list',
  'sessions.search',
  'sessions.running',
  'sessions.create',
  'sessions.get',
  'sessions.rename',
  'sessions.delete',
  'sessions.export',
  'sessions.import',
  'sessions.importBegin',
  'sessions.importPart',
  'sessions.importEnd',
  'context.get',
  'compaction.run',
  'compaction.undo',
  'chat.prompt',
  'chat.replay',
  'chat.stop',
  'permission.answer',
  'question.answer',
  'loop.answer',
  'talk.get',
  'talk.set',
  'queue.send',
  'queue.edit',
  'queue.remove',
  'queue.resume',
  'history.undo',
  'history.redo',
  'history.revert',
  'history.unrevert',
  'review.timeline',
  'review.diff',
  'review.decide',
  'review.undo',
  'review.revertPreview',
  'files.tree',
  'files.read',
  'files.save',
  'settings.get',
  'settings.save',
  'settings.reset',
  'settings.test',
  'settings.windows',
  'trust.list',
  'trust.set',
  'mcp.status',
  'mcp.approve',
  'mcp.toggle',
  'progress.list',
] as const;

/** Every event main pushes to the renderer: the core's events (src/shared/events.ts), one name per `type`, plus
 * `app.command` (a menu item the window should run) and `settings.changed` (settings.json changed on disk). */
export const EVENT_NAMES = [
  'text.delta',
  'reasoning.delta',
  'part.updated',
  'message.added',
  'message.removed',
  'part.removed',
  'permission.asked',
  'permission.answered',
  'question.asked',
  'queue.updated',
  'snapshot.added',
  'session.state',
  'session.updated',
  'session.deleted',
  'progress',
  'app.command',
  'settings.changed',
] as const;

export type CallName = (typeof CALL_NAMES)[number];
export type EventName = (typeof EVENT_NAMES)[number];

/** The IPC channel that carries one call (Electron). Derived, so no channel string is written by hand elsewhere. */
export function callChannel(name: CallName): string {
  return `landfall:call:${name}`;
}

/** The single IPC channel that carries every pushed event as `{ name, payload }` (Electron). */
export const EVENT_CHANNEL = 'landfall:event';
