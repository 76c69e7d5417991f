/**
 * Before a Monaco editor is disposed while its host is still in the page (a dependency changed, a layout switched
 * tabs), the keyboard focus must leave it first: disposing removes the focused hidden input, the browser then
 * sends a blur to an editor whose context keys are already gone, and Monaco throws "AbstractContextKeyService has
 * been disposed" as a page error. Blurring here runs Monaco's own focus-out handler while the editor is alive.
 * `host` is the element the editor was created in (null: nothing to do). No effect when the focus is elsewhere.
 */
export function releaseFocus(host: HTMLElement | null): void {
  const active = document.activeElement;
  if (host && active instanceof HTMLElement && active !== host && host.contains(active)) active.blur();
}
