/**
 * Leaving the open project while the editor holds unsaved edits (or a merge view): never silent. Opening
 * another project (or the sample) first parks where the user was going (`leaving`) and the window asks — Save,
 * Discard, or Cancel. Save goes through files.save like Ctrl/Cmd+S; when the save does not land (the disk moved:
 * the merge view opens; or an error) the user stays, so nothing is lost either way.
 */
import type { LeaveSlice, Slice } from './types';

export const createLeaveSlice: Slice<LeaveSlice> = (set, get) => {
  const go = async (): Promise<void> => {
    const to = get().leaving;
    set({ leaving: null });
    if (!to) return;
    if (to.kind === 'sample') await get().openSample();
    else await get().openProject(to.root);
  };
  return {
    leaving: null,
    mayLeave(to) {
      if (get().edited === null || !get().file) return true;
      set({ leaving: to });
      return false;
    },
    async resolveLeave(choice) {
      const to = get().leaving;
      if (!to) return;
      if (choice === 'cancel') return set({ leaving: null });
      if (choice === 'discard') get().discardEdits();
      else {
        await get().saveFile();
        if (get().edited !== null) return set({ leaving: null, rightPane: 'files' });
      }
      await go();
    },
  };
};
