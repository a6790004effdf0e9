/**
 * The keyboard of a tab list (WAI-ARIA tabs): ←/→ move to the previous or
 * next tab (wrapping), Home and End to the first and last; the tab moved to
 * is selected and takes the focus. Put on the element with role="tablist".
 */
export function onTabKey(event: KeyboardEvent, tabs: readonly string[], current: string, select: (tab: string) => void): void {
  const at = Math.max(0, tabs.indexOf(current));
  const next =
    event.key === 'ArrowRight' ? tabs[(at + 1) % tabs.length] : event.key === 'ArrowLeft' ? tabs[(at - 1 + tabs.length) % tabs.length] : event.key === 'Home' ? tabs[0] : event.key === 'End' ? tabs.at(-1) : undefined;
  if (next === undefined) return;
  event.preventDefault();
  const list = event.currentTarget as HTMLElement;
  select(next);
  // The selected tab is rendered on the next frame; focus follows it there.
  requestAnimationFrame(() => list.querySelector<HTMLElement>('[aria-selected="true"]')?.focus());
}
