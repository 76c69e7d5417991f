/**
 * The shape of the renderer's one store, split into slices per concern (DESIGN §10: components render, stores
 * decide). Each slice file builds its part; `index.ts` combines them. Slices call main only from actions, never
 * from their initialisers.
 */
import type { StateCreator } from 'zustand';
import type {
  AppInfo,
  CallOutput,
  EventPayload,
  KeptFile,
  Project,
  Session,
  SettingsInput,
  SettingsView,
} from '../../../shared/contract';
import type { LandfallError } from '../../../shared/errors';
import type { MessageWithParts, PermissionAsk } from '../../../shared/contract';
import type { ImportProgress } from './import-upload';

export type Screen = 'projects' | 'chat' | 'settings';

export interface AppSlice {
  info: AppInfo | null;
  screen: Screen;
  paletteOpen: boolean;
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
  openProject(root: string): Promise<boolean>;
  pickFolder(): Promise<void>;
  openSample(): Promise<void>;
}

export interface SessionsSlice {
  sessions: Session[];
  sessionId: string | null;
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

export interface ChatSlice {
  messages: MessageWithParts[];
  busy: boolean;
  asks: PermissionAsk[];
  draft: string;
  /** Esc presses: the second within 1.5 s stops the turn. */
  lastEscape: number;
  setDraft(text: string): void;
  /** Sends the draft; `/undo` and `/redo` are commands, not messages. */
  send(): Promise<void>;
  replay(recording: string, text?: string): Promise<void>;
  stop(): Promise<void>;
  escape(): Promise<void>;
  /** Answers a permission question; `pattern` (with `always`) is a bash pattern the user wrote in the prompt. */
  answer(askId: string, answer: 'once' | 'always' | 'reject', reason?: string, pattern?: string): Promise<void>;
  undo(): Promise<void>;
  redo(): Promise<void>;
  /** Reloads the open session's messages and row after a history move (no-op when another session is open). */
  reloadSession(sessionId: string): Promise<void>;
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

export type HistoryOp = 'undo' | 'redo' | 'revert' | 'unrevert';

/** Files a history move kept as the user left them; `overwrite` is the boundary a forced revert would use. */
export interface HistoryNotice {
  op: HistoryOp;
  sessionId: string;
  kept: KeptFile[];
  overwrite: { messageId: string; partId?: string } | null;
}

export interface HistorySlice {
  historyNotice: HistoryNotice | null;
  /** The user pressed "Overwrite them anyway" and is being asked to confirm. */
  overwriteAsked: boolean;
  /** Records a history move's outcome: a notice when files were kept, none otherwise. */
  noteHistory(op: HistoryOp, session: Session, kept: KeptFile[]): void;
  askOverwrite(): void;
  cancelOverwrite(): void;
  /** After confirmation: reverts to the same boundary with `force`, overwriting the kept files. */
  overwriteKept(): Promise<void>;
  dismissHistoryNotice(): void;
}

export interface SettingsSlice {
  settings: SettingsView | null;
  testing: 'idle' | 'running';
  testResult: { ok: true; text: string } | { ok: false; text: string } | null;
  loadSettings(): Promise<void>;
  saveSettings(input: SettingsInput): Promise<boolean>;
  testConnection(input: Partial<SettingsInput>): Promise<void>;
}

export type Store = AppSlice & ProjectsSlice & SessionsSlice & ChatSlice & HistorySlice & SettingsSlice;
export type Slice<T> = StateCreator<Store, [], [], T>;
