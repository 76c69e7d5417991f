import { useEffect } from 'react';
import type React from 'react';
import { useStore } from './stores';
import { Shell } from './features/layout/Shell';
import { installShortcuts } from './features/layout/keyboard';
import { ProjectPicker } from './features/projects/ProjectPicker';
import { ChatView } from './features/chat/ChatView';
import { SettingsView } from './features/settings/SettingsView';
import { RightPane } from './features/files/RightPane';
import { QuickOpen } from './features/files/QuickOpen';
import { UnsavedDialog } from './features/files/UnsavedDialog';

/** Top-level: boots the store once, installs shortcuts, and picks the screen. Features live in features/. */
export function App(): React.JSX.Element {
  const screen = useStore((s) => s.screen);
  const project = useStore((s) => s.project);
  const sessionId = useStore((s) => s.sessionId);
  useEffect(() => {
    void useStore.getState().boot();
    return installShortcuts();
  }, []);
  const main =
    screen === 'settings' ? <SettingsView /> : screen === 'chat' && project ? <ChatView /> : <ProjectPicker />;
  const review = screen === 'chat' && project && sessionId ? <RightPane /> : undefined;
  return (
    <>
      <Shell main={main} review={review} />
      <QuickOpen />
      <UnsavedDialog />
    </>
  );
}
