import { readdirSync, readFileSync } from 'node:fs';

/** Linux `/proc` readings for the processes a run watches (absent values when a process is gone or not Linux). */

/** Clock ticks per second of `/proc/<pid>/stat` times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

function status(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
}

function kbField(text: string | undefined, field: string): number | undefined {
  const match = text === undefined ? null : new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
  return match === null ? undefined : Number(match[1]) * 1024;
}

/** Peak resident set (VmHWM) and current resident set (VmRSS), bytes. */
export function memoryOf(pid: number): { peak?: number; current?: number } {
  const text = status(pid);
  const peak = kbField(text, 'VmHWM');
  const current = kbField(text, 'VmRSS');
  return { ...(peak === undefined ? {} : { peak }), ...(current === undefined ? {} : { current }) };
}

/** CPU seconds (user + system) a process has used so far, its children excluded. */
export function cpuSecondsOf(pid: number): number | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces; fields after its closing parenthesis are fixed.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** Busy and total CPU seconds of the whole machine (all cores) since boot. */
export function machineCpuSeconds(): { busy: number; total: number } | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = line.trim().split(/\s+/).slice(1).map(Number);
    const busy = user + nice + system + irq + softirq + steal;
    return { busy: busy / TICKS_PER_SECOND, total: (busy + idle + iowait) / TICKS_PER_SECOND };
  } catch {
    return undefined;
  }
}

/** Every process's parent, from one pass over /proc. */
function parentsByPid(): Map<number, number> {
  const parents = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return parents;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  return parents;
}

/** `roots` and all their descendants (e.g. a server's forked workers). */
export function withDescendants(roots: readonly number[], parents: Map<number, number>): number[] {
  const result = new Set(roots);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (result.has(parent) && !result.has(pid)) {
        result.add(pid);
        grew = true;
      }
    }
  }
  return [...result];
}

/** Where a group's processes are found now: instances come and go, a restarted store has new pids. */
export interface GroupSource {
  pids: () => readonly number[];
  /** Count the whole process tree under each pid. */
  tree?: boolean;
}

interface Mark {
  phase: string;
  /** CPU seconds by pid, with the group each belongs to. */
  cpu: Map<number, { group: string; seconds: number }>;
  machine: { busy: number; total: number } | undefined;
  at: number;
}

/**
 * Watches groups of processes (several instances of a service, a store's
 * process tree): samples RSS every second (the peak of the group's sum) and
 * keeps every pid's last CPU reading, so a process killed mid-phase still
 * counts for what it used until its last sample. Phases are marked at
 * boundaries, so a run can say which group used the cores in which phase.
 */
export class ProcessWatch {
  readonly #groups = new Map<string, GroupSource>();
  readonly #maxRss = new Map<string, number>();
  readonly #lastHwm = new Map<string, number>();
  readonly #largestProcess = new Map<string, number>();
  readonly #cpu = new Map<number, { group: string; seconds: number }>();
  readonly #marks: Mark[] = [];
  #timer: NodeJS.Timeout | undefined;

  add(name: string, source: GroupSource | number | undefined): void {
    if (source === undefined) return;
    this.#groups.set(name, typeof source === 'number' ? { pids: () => [source] } : source);
  }

  names(): string[] {
    return [...this.#groups.keys()];
  }

  start(intervalMs = 1000): void {
    this.#timer = setInterval(() => this.sample(), intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.sample();
  }

  sample(): void {
    const needTree = [...this.#groups.values()].some((source) => source.tree === true);
    const parents = needTree ? parentsByPid() : new Map<number, number>();
    for (const [name, source] of this.#groups) {
      const roots = source.pids();
      const pids = source.tree === true ? withDescendants(roots, parents) : roots;
      let rss = 0;
      let seen = 0;
      for (const pid of pids) {
        const { peak, current } = memoryOf(pid);
        if (current !== undefined) {
          rss += current;
          seen += 1;
        }
        if (pids.length === 1 && peak !== undefined) this.#lastHwm.set(name, Math.max(this.#lastHwm.get(name) ?? 0, peak));
        const own = peak ?? current;
        if (own !== undefined) this.#largestProcess.set(name, Math.max(this.#largestProcess.get(name) ?? 0, own));
        const seconds = cpuSecondsOf(pid);
        if (seconds !== undefined) this.#cpu.set(pid, { group: name, seconds });
      }
      if (seen > 0) this.#maxRss.set(name, Math.max(this.#maxRss.get(name) ?? 0, rss));
    }
  }

  /** Peak RSS per group in bytes: the sampled peak of the group's sum, or a single process's VmHWM when higher. */
  peaks(): Record<string, number | null> {
    this.sample();
    return Object.fromEntries(
      this.names().map((name) => {
        const values = [this.#lastHwm.get(name), this.#maxRss.get(name)].filter((value): value is number => value !== undefined);
        return [name, values.length === 0 ? null : Math.max(...values)];
      }),
    );
  }

  /**
   * Per group, the peak of its largest single process (its own VmHWM), in
   * bytes: what each of several instances needs, where `peaks()` gives their
   * sum. A process killed mid-run counts up to its last sample.
   */
  processPeaks(): Record<string, number | null> {
    this.sample();
    return Object.fromEntries(this.names().map((name) => [name, this.#largestProcess.get(name) ?? null]));
  }

  /** Marks the start of a phase (the previous one ends here). */
  mark(phase: string): void {
    this.sample();
    this.#marks.push({ phase, cpu: new Map(this.#cpu), machine: machineCpuSeconds(), at: performance.now() });
  }

  /** Per phase: wall seconds, CPU seconds per group, and CPU seconds of everything else on the machine. */
  phases(): Array<{ phase: string; wallS: number; cpuS: Record<string, number>; otherCpuS: number | null; machineBusyPct: number | null }> {
    const result = [];
    for (let i = 0; i + 1 < this.#marks.length; i += 1) {
      const from = this.#marks[i]!;
      const to = this.#marks[i + 1]!;
      const cpuS: Record<string, number> = {};
      let ours = 0;
      for (const [pid, end] of to.cpu) {
        // A process started within the phase counts from zero.
        const used = end.seconds - (from.cpu.get(pid)?.seconds ?? 0);
        cpuS[end.group] = (cpuS[end.group] ?? 0) + used;
        ours += used;
      }
      const busy = from.machine !== undefined && to.machine !== undefined ? to.machine.busy - from.machine.busy : undefined;
      const total = from.machine !== undefined && to.machine !== undefined ? to.machine.total - from.machine.total : undefined;
      result.push({
        phase: from.phase,
        wallS: (to.at - from.at) / 1000,
        cpuS,
        otherCpuS: busy === undefined ? null : Math.max(0, busy - ours),
        machineBusyPct: busy === undefined || total === undefined || total === 0 ? null : (100 * busy) / total,
      });
    }
    return result;
  }
}
