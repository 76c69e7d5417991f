/**
 * Files slice: the project's file tree, the one file open in the editor, its unsaved text, and what happens when
 * the disk moves under it. Saving goes through main's file layer (files.save: the agent's lock, atomic write,
 * encoding and line endings kept). Nothing is ever overwritten silently: a save made on an old version comes
 * back `stale`, and an agent change to the open file while it has unsaved edits opens the merge view (`conflict`)
 * — the user keeps theirs or takes the disk's.
 */
import { call } from '../rpc';
import type { FileContent } from '../../../shared/files-schemas';
import type { FilesSlice, Slice } from './types';

export const createFilesSlice: Slice<FilesSlice> = (set, get) => {
  /** The project whose tree is being listed now (one request at a time per project), or null. */
  let listing: string | null = null;
  const showFiles = (): void => set({ rightPane: 'files', ...(get().layout === 'wide' ? {} : { tab: 'review' }) });
  const read = async (path: string): Promise<FileContent | null> => {
    const project = get().project;
    if (!project) return null;
    const r = await call('files.read', { projectId: project.id, path });
    if (!r.ok) {
      get().showError(r.error);
      return null;
    }
    return r.value;
  };
  const save = async (text: string, baseVersion: string): Promise<void> => {
    const project = get().project;
    const file = get().file;
    if (!project || !file) return;
    set({ saveState: 'saving' });
    const r = await call('files.save', { projectId: project.id, path: file.path, text, baseVersion });
    if (r.ok) {
      set({ file: { ...file, text, version: r.value.version }, edited: null, conflict: null, saveState: 'saved' });
      return;
    }
    set({ saveState: 'idle' });
    const disk = r.error.data as { version?: unknown; text?: unknown } | undefined;
    if (r.error.code === 'stale' && typeof disk?.version === 'string' && typeof disk.text === 'string')
      set({ conflict: { ...file, text: disk.text, version: disk.version } });
    else get().showError(r.error);
  };
  return {
    rightPane: 'review',
    tree: null,
    treeTruncated: false,
    file: null,
    edited: null,
    line: null,
    saveState: 'idle',
    conflict: null,
    quickOpen: false,
    treeFailed: false,
    setRightPane(pane) {
      set({ rightPane: pane });
      if (pane === 'files') get().ensureTree();
    },
    ensureTree() {
      const project = get().project;
      if (project && get().tree === null && listing !== project.id) void get().loadTree();
    },
    async loadTree() {
      const project = get().project;
      if (!project) return;
      listing = project.id;
      set({ treeFailed: false });
      const r = await call('files.tree', { projectId: project.id });
      if (listing === project.id) listing = null;
      // Superseded (another project opened meanwhile): this answer is not the open project's tree. Whoever
      // still waits for a tree gets the open project's listed instead of a spinner that never ends.
      if (get().project?.id !== project.id) return get().ensureTree();
      if (r.ok) set({ tree: r.value.files, treeTruncated: r.value.truncated });
      else {
        set({ treeFailed: true });
        get().showError(r.error);
      }
    },
    async openFile(path, line) {
      showFiles();
      get().ensureTree();
      const open = get().file;
      if (open?.path === path) return set({ line: line ?? null });
      if (open && get().edited !== null)
        return get().showError({
          code: 'busy',
          message: `${open.path} has unsaved edits.`,
          hint: 'Save them (Ctrl/Cmd+S) or discard them before opening another file.',
        });
      const file = await read(path);
      if (file) set({ file, edited: null, conflict: null, line: line ?? null, saveState: 'idle' });
    },
    editFile(text) {
      const file = get().file;
      if (!file) return;
      set({ edited: text === file.text ? null : text, saveState: 'idle' });
    },
    async saveFile() {
      const { file, edited, conflict } = get();
      if (!file || edited === null || conflict) return;
      await save(edited, file.version);
    },
    async keepMine() {
      const { edited, conflict } = get();
      if (edited === null || !conflict) return;
      await save(edited, conflict.version);
    },
    takeTheirs() {
      const conflict = get().conflict;
      if (conflict) set({ file: conflict, edited: null, conflict: null, saveState: 'idle' });
    },
    discardEdits() {
      set({ edited: null, conflict: null, saveState: 'idle' });
    },
    async filesChanged(paths) {
      const file = get().file;
      if (!file || !paths.includes(file.path)) return;
      const disk = await read(file.path);
      if (!disk || disk.version === get().file?.version) return;
      if (get().edited !== null) set({ conflict: disk });
      else set({ file: disk });
    },
    setQuickOpen(open) {
      set({ quickOpen: open });
      if (open) get().ensureTree();
    },
  };
};
