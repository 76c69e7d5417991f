/**
 * The shape of the renderer's one store, split into slices per concern (DESIGN §10: components render, stores
 * decide). Each slice file builds its part; `index.ts` combines them. Slices call main only from actions, never
 * from their initialisers. The review slice's shape is in review-types.ts.
 */
import type { McpView, TrustView } from '../../../shared/reach-schemas';
import type { StateCreator } from 'zustand';
import type {
  AppInfo,
  CallOutput,
  EventPayload,
  Project,
  Session,
  SettingsView,
  TalkViewData,
} from '../../../shared/contract';
import type { LandfallError } from '../../../shared/errors';
import type { MessageWithParts, PermissionAsk } from '../../../shared/contract';
import type { RevertPreview } from '../../../shared/review-schemas';
import type { HistoryNotice } from './history-notice';
import type { ImportProgress } from './import-upload';
import type { ReviewSlice } from './review-types';
import type { LayoutMode, PaneSizes, PaneTab } from './layout';
import type { FileContent } from '../../../shared/files-schemas';
import type { ContextView } from '../../../shared/context-schemas';
import type { ModelWindow, PresetId, SettingsDoc } from '../../../shared/settings-schemas';
import type { FieldIssue, KeyDraft } from './settings-form';
import type { SessionSearchHit } from '../../../shared/search-schemas';
import type { ProgressEvent } from '../../../shared/progress-schemas';

export type Screen = 'projects' | 'chat' | 'settings';

export interface AppSlice {
  info: AppInfo | null;
  screen: Screen;
  paletteOpen: boolean;
  /**
   * How many times the user moved between screens (setScreen). An open that takes a while (a project, the sample)
   * shows its screen only when this has not changed since it started: the screen the user went to meanwhile stays.
   */
  screenMoves: number;
  /** The last failure worth showing (a banner; dismissed by the user). */
  error: LandfallError | null;
  /** Connects events and loads the first screen. Called once by main.tsx. */
  boot(): Promise<void>;
  setScreen(screen: Screen): void;
  setPalette(open: boolean): void;
  showError(error: LandfallError | null): void;
}

export interface ProjectsSlice {
  projects: Project[];
  project: Project | null;
  loadProjects(): Promise<void>;
  /** Opens the project at `root`; false when refused or when unsaved editor edits ask first (LeaveSlice). */
  openProject(root: string): Promise<boolean>;
  pickFolder(): Promise<void>;
  openSample(): Promise<void>;
}

export interface SessionsSlice {
  sessions: Session[];
  sessionId: string | null;
  /** Loads the open project's sessions and which turns run now on this data folder (the list's dots). */
  loadSessions(): Promise<void>;
  newSession(): Promise<void>;
  selectSession(id: string): Promise<void>;
  renameSession(id: string, title: string): Promise<void>;
  deleteSession(id: string): Promise<void>;
  /** Resolves to the exported file (name + JSON); the component saves it. */
  exportSession(id: string): Promise<CallOutput<'sessions.export'> | null>;
  /** An import under way (characters sent of the whole), or null. */
  importing: ImportProgress | null;
  /** Imports a session export file (refused before sending when over the limit; uploaded in parts). */
  importSession(file: Blob): Promise<void>;
}

/** The session list's search (search-slice.ts): the typed query and main's answer for it. */
export interface SearchSlice {
  /** The search box's text ('' shows the plain list). */
  searchQuery: string;
  /** Sessions matching `searchQuery` (title or text), newest first; null while there is no query. */
  searchHits: SessionSearchHit[] | null;
  /** Asks main for `query`; an answer to an older query that arrives later is dropped. */
  setSearch(query: string): Promise<void>;
  /** The message a search hit opened (the transcript scrolls to it and marks it), or null. */
  focusMessage: string | null;
  /** Opens a found session (its transcript in the chat), at `messageId` when a matching message was picked. */
  openSearchHit(sessionId: string, messageId?: string): Promise<void>;
  clearSearch(): void;
}

export interface ChatSlice {
  messages: MessageWithParts[];
  busy: boolean;
  /** When the open session's turn started (ms since the epoch; the live line's elapsed time). */
  turnStart: number;
  /** Sessions running a turn (any project shown), with when it started: the list's running indicator. */
  running: Record<string, number>;
  /** The last turn error per session (plain words, hint), shown in that session's transcript until its next turn. */
  turnErrors: Record<string, { code: string; message: string; hint: string }>;
  asks: PermissionAsk[];
  draft: string;
  /** Esc presses: the second within 1.5 s stops the turn. */
  lastEscape: number;
  setDraft(text: string): void;
  /** Sends the draft; `/undo` and `/redo` are commands (the history slice's undo / redo), not messages. */
  send(): Promise<void>;
  /** Plays a recording into the open session; `tour` (the first-run sample) lets its marked questions ask. */
  replay(recording: string, text?: string, tour?: boolean): Promise<void>;
  stop(): Promise<void>;
  escape(): Promise<void>;
  /** Answers a permission question; `pattern` (with `always`) is a bash pattern the user wrote in the prompt. */
  answer(askId: string, answer: 'once' | 'always' | 'reject', reason?: string, pattern?: string): Promise<void>;
  /** Applies one pushed event to the open session (deltas are batched to one paint per frame first). */
  applyEvent(
    event:
      | EventPayload<'part.updated'>
      | EventPayload<'message.added'>
      | EventPayload<'message.removed'>
      | EventPayload<'part.removed'>,
  ): void;
  applyDeltas(deltas: Map<string, { messageId: string; text: string; reasoning: boolean }>): void;
}

/** Compaction from the chat (compaction-slice.ts): /compact and the marker's Undo / Redo. */
export interface CompactionSlice {
  /** True while /compact's summary is being written. */
  compacting: boolean;
  /** Compacts the open session now (compaction.run); a refusal is shown as the window's error. */
  compactNow(): Promise<void>;
  /** Undoes (`undone` true) or redoes a compaction of the open session (compaction.undo). */
  setCompactionUndone(partId: string, undone: boolean): Promise<void>;
}

/** Undo / redo / revert / unrevert and their notices: the one home of history moves (history-slice.ts). */
export interface HistorySlice {
  /** What the revert the user asked for would do (files, conflicts), until confirmed or cancelled. */
  revertPreview: { sessionId: string; messageId: string; preview: RevertPreview } | null;
  /** Files the last move kept as the user left them (history-notice.ts), or null. */
  historyNotice: HistoryNotice | null;
  /** The user pressed "Overwrite them anyway" and is being asked to confirm. */
  overwriteAsked: boolean;
  /** Reverts to the last turn before the boundary; its prompt goes back into an empty input. */
  undo(): Promise<void>;
  /** Moves the boundary one turn forward (unrevert at the last). */
  redo(): Promise<void>;
  unrevert(): Promise<void>;
  /** Asks main what reverting to before `messageId` would do; shows it for confirmation. Writes nothing. */
  previewRevert(messageId: string): Promise<void>;
  /** Reverts as previewed; `force` overwrites the files the user changed after the agent. */
  confirmRevert(force?: boolean): Promise<void>;
  cancelRevert(): void;
  askOverwrite(): void;
  cancelOverwrite(): void;
  /** After confirmation: reverts to the same boundary with `force`, overwriting the kept files. */
  overwriteKept(): Promise<void>;
  dismissHistoryNotice(): void;
}

/** The window's arrangement by width, pane sizes (remembered), and the shown tab (layout.ts). */
export interface LayoutSlice {
  windowWidth: number;
  layout: LayoutMode;
  paneSizes: PaneSizes;
  tab: PaneTab;
  /** The window was resized: the arrangement and sizes follow (the remembered sizes, clamped). */
  setWindowWidth(width: number): void;
  /** The user dragged a divider (or pressed an arrow on it): the size is clamped and remembered. */
  resizePane(pane: keyof PaneSizes, px: number): void;
  setTab(tab: PaneTab): void;
}

/** The file view: the tree, the open file and its unsaved text, the merge view's disk side (files-slice.ts). */
export interface FilesSlice {
  /** What the right-hand pane shows. */
  rightPane: 'review' | 'files';
  /** The open project's files (ignore rules applied), or null until listed. */
  tree: string[] | null;
  treeTruncated: boolean;
  /** The last listing of the open project failed (the pane offers Retry instead of "Loading files…"). */
  treeFailed: boolean;
  /** The open file as on disk when last read or saved. */
  file: FileContent | null;
  /** The editor's text when it differs from `file.text` (unsaved), else null. */
  edited: string | null;
  /** The line to reveal (a link from a tool card, a diagnostic or a hunk). */
  line: number | null;
  saveState: 'idle' | 'saving' | 'saved';
  /** The disk's newer version while the editor holds unsaved edits: the merge view shows both. */
  conflict: FileContent | null;
  quickOpen: boolean;
  setRightPane(pane: 'review' | 'files'): void;
  /** Lists the open project's files; an answer for a project no longer open is dropped (and the open one listed). */
  loadTree(): Promise<void>;
  /**
   * Starts listing the open project's files when there is no tree yet and no listing of that project under way —
   * what every view showing "Loading files…" calls, so no superseded load leaves it waiting.
   */
  ensureTree(): void;
  /** Opens `path` in the editor (at `line`), showing the file pane; refused while another file has unsaved edits. */
  openFile(path: string, line?: number): Promise<void>;
  editFile(text: string): void;
  /** Saves the unsaved text on the version it was made on (`stale` → the merge view). */
  saveFile(): Promise<void>;
  /** Merge view: save the user's text over the disk's newer version. */
  keepMine(): Promise<void>;
  /** Merge view: drop the user's edits and show the disk's version. */
  takeTheirs(): void;
  discardEdits(): void;
  /** Files changed on disk (an agent step): the open one is re-read, or goes to the merge view when edited. */
  filesChanged(paths: string[]): Promise<void>;
  setQuickOpen(open: boolean): void;
}

/** Where the user was going when unsaved editor edits stopped them (leave-slice.ts). */
export type LeaveTarget = { kind: 'project'; root: string } | { kind: 'sample' };

/** Unsaved editor edits are never dropped by opening another project: the window asks first (leave-slice.ts). */
export interface LeaveSlice {
  /** A project switch waiting for the user's Save / Discard / Cancel, or null. */
  leaving: LeaveTarget | null;
  /** True when nothing unsaved is in the way; else parks `to` in `leaving` (the question shows) and is false. */
  mayLeave(to: LeaveTarget): boolean;
  /** Save (then go, unless the save did not land), discard (then go), or cancel (stay, edits kept). */
  resolveLeave(choice: 'save' | 'discard' | 'cancel'): Promise<void>;
}

/** The Settings form (settings-slice.ts; its rules in settings-form.ts). */
export interface SettingsSlice {
  /** settings.json as main last answered it (settings.get / save / reset). */
  settings: SettingsView | null;
  /** The document the form edits (null while settings.json cannot be read). */
  form: SettingsDoc | null;
  /** Keys typed per provider index (string: store on save; null: remove the stored one). Never shown back. */
  formKeys: KeyDraft[];
  /** Main's field issues from the last refused save. */
  formIssues: FieldIssue[];
  formStatus: 'idle' | 'saving' | 'saved' | 'refused';
  /** Each model's window as the form's providers are typed. */
  formWindows: ModelWindow[];
  /** settings.json's newest version (settings.changed); differs from `settings.version` when the file moved on. */
  diskVersion: string | null;
  /** True after the form (with nothing typed) followed a change of settings.json on disk: it says so. */
  formFollowed: boolean;
  /** The provider index whose connection test runs. */
  testing: number | null;
  /** The last connection test's words; `raw`: what the provider sent, behind "details". */
  testResult: { index: number; ok: boolean; text: string; raw?: string } | null;
  /** Loads settings.json into the view and the form (discarding the form's edits). */
  loadSettings(): Promise<void>;
  /** Changes the form's document (`change` is one of settings-form.ts's rules). */
  editForm(change: (doc: SettingsDoc) => SettingsDoc): void;
  addProvider(preset: PresetId): void;
  removeProvider(index: number): void;
  setFormKey(index: number, key: KeyDraft): void;
  /** Saves the form; true when saved. A refusal keeps the edits and shows main's issues or the stale notice. */
  saveForm(): Promise<boolean>;
  /** "Reset to defaults" (settings.reset: the old file is kept as a backup). */
  resetSettings(): Promise<void>;
  /** settings.json changed on disk (the settings.changed event): follow it, or say the form is stale. */
  settingsChanged(version: string): Promise<void>;
  testProvider(index: number): Promise<void>;
}

/** What the open session's model is told (context-slice.ts): the context meter and the instruction files. */
export interface ContextSlice {
  /** The open session's context view, or null before it was fetched (or for no session). */
  contextView: ContextView | null;
  /** Fetch the open session's context view (an answer for a session no longer open is dropped). */
  loadContext(): Promise<void>;
}

/** Trusted folders (src/shared/reach-schemas.ts): which project folders may run their own executables. */
export interface TrustSlice {
  trust: TrustView | null;
  loadTrust(): Promise<void>;
  /** Trust (true) or revoke (false) a folder; the list comes back from main. */
  setTrust(path: string, trusted: boolean): Promise<void>;
}

/** The open project's MCP servers (src/shared/reach-schemas.ts McpView). */
export interface McpSlice {
  mcp: McpView | null;
  loadMcp(): Promise<void>;
  approveMcp(): Promise<void>;
  /** Turn a server (no `tool`) or one of its tools on or off. */
  toggleMcp(server: string, enabled: boolean, tool?: string): Promise<void>;
}

/** The open session's mode and model, and answers to question cards (talk-slice.ts). */
export interface TalkSlice {
  talk: TalkViewData | null;
  loadTalk(): Promise<void>;
  /** Chooses mode and/or model for the next step (main applies it between steps). */
  chooseTalk(change: { mode?: string; provider?: string; model?: string }): Promise<void>;
  /** The next mode (the chat.mode keys: Ctrl/Cmd+. or Alt+Shift+M, from anywhere). */
  cycleMode(): Promise<void>;
  answerQuestion(partId: string, reply: { selected?: string[]; text?: string; dismiss?: boolean }): Promise<void>;
  /** Messages admitted and not yet promoted (the admission queue), oldest first. */
  queued: QueuedItem[];
  /** Sends the draft through the queue; `steer`: join the running turn at its next step ("send now"). */
  queueDraft(steer: boolean): Promise<void>;
  editQueued(id: string, change: { text?: string; steer?: boolean }): Promise<void>;
  removeQueued(id: string): Promise<void>;
  resumeQueue(): Promise<void>;
}

/** Answers to repetition stops (loop-slice.ts; the card's rules in loop-stop.ts). */
export interface LoopSlice {
  /** Answers on their way, by `loop-stop` part id: the buttons stay disabled until main answers. */
  loopAnswering: Record<string, 'continue' | 'stop'>;
  /**
   * "Go on" (`continue`) or "Stop here" (`stop`) for the open session's stop `partId`: one `loop.answer` call, or
   * none when the stop cannot be answered now. Resolves true when main took the answer.
   */
  answerLoop(partId: string, decision: 'continue' | 'stop'): Promise<boolean>;
}

/**
 * Long operations main reports as `progress` events (progress-slice.ts): each running one's latest report, by its
 * id, until its `end` or `failed`. What shows is `shownProgress` (the open project's, run long enough by main's clock).
 */
export interface ProgressSlice {
  progress: Record<string, ProgressEvent>;
  /** One `progress` event from main. */
  applyProgress(e: ProgressEvent): void;
  /** Main's list of what runs now (at boot and after a reconnect). */
  loadProgress(): Promise<void>;
}

export type QueuedItem = { id: string; sessionId: string; text: string; time: number; steer: boolean };

export type Store = AppSlice &
  ProjectsSlice &
  SessionsSlice &
  SearchSlice &
  ChatSlice &
  CompactionSlice &
  HistorySlice &
  ReviewSlice &
  SettingsSlice &
  ContextSlice &
  TrustSlice &
  McpSlice &
  TalkSlice &
  LoopSlice &
  LayoutSlice &
  FilesSlice &
  LeaveSlice &
  ProgressSlice;
export type Slice<T> = StateCreator<Store, [], [], T>;
