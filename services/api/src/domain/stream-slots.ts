/**
 * May a project open one more event stream in this process (pure)? Every
 * project may hold `perProject` streams, but its second and later ones only
 * while more than half of the process's `perProcess` slots are free: a few
 * tenants holding many streams each fill at most half of the process, and
 * the other half stays for projects opening their first one.
 */
export function mayOpenStream(state: { open: number; projectOpen: number; perProcess: number; perProject: number }): boolean {
  if (state.open >= state.perProcess || state.projectOpen >= state.perProject) return false;
  return state.projectOpen === 0 || state.open < Math.floor(state.perProcess / 2);
}
