import { readFileSync } from 'node:fs';

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

/**
 * Watches named processes: samples VmRSS every second (keeping the maximum,
 * alongside the kernel's own VmHWM) and takes CPU snapshots at phase
 * boundaries, so a run can say which process used the cores in which phase.
 */
export class ProcessWatch {
  readonly #pids = new Map<string, number>();
  readonly #maxRss = new Map<string, number>();
  readonly #lastHwm = new Map<string, number>();
  readonly #marks: Array<{ phase: string; cpu: Map<string, number>; machine: { busy: number; total: number } | undefined; at: number }> = [];
  #timer: NodeJS.Timeout | undefined;

  add(name: string, pid: number | undefined): void {
    if (pid !== undefined) this.#pids.set(name, pid);
  }

  names(): string[] {
    return [...this.#pids.keys()];
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
    for (const [name, pid] of this.#pids) {
      const { peak, current } = memoryOf(pid);
      if (current !== undefined) this.#maxRss.set(name, Math.max(this.#maxRss.get(name) ?? 0, current));
      if (peak !== undefined) this.#lastHwm.set(name, peak);
    }
  }

  /** Peak RSS per process in bytes: VmHWM (kernel) when readable, else the sampled maximum. */
  peaks(): Record<string, number | null> {
    this.sample();
    return Object.fromEntries(this.names().map((name) => [name, this.#lastHwm.get(name) ?? this.#maxRss.get(name) ?? null]));
  }

  /** Marks the start of a phase (the previous one ends here). */
  mark(phase: string): void {
    const cpu = new Map<string, number>();
    for (const [name, pid] of this.#pids) {
      const seconds = cpuSecondsOf(pid);
      if (seconds !== undefined) cpu.set(name, seconds);
    }
    this.#marks.push({ phase, cpu, machine: machineCpuSeconds(), at: performance.now() });
  }

  /** Per phase: wall seconds, CPU seconds per process, and CPU seconds of everything else on the machine. */
  phases(): Array<{ phase: string; wallS: number; cpuS: Record<string, number>; otherCpuS: number | null; machineBusyPct: number | null }> {
    const result = [];
    for (let i = 0; i + 1 < this.#marks.length; i += 1) {
      const from = this.#marks[i]!;
      const to = this.#marks[i + 1]!;
      const cpuS: Record<string, number> = {};
      let ours = 0;
      for (const [name, end] of to.cpu) {
        const begin = from.cpu.get(name);
        if (begin === undefined) continue;
        cpuS[name] = end - begin;
        ours += end - begin;
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
