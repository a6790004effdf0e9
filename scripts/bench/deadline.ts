/** The run's overall time bound: phases check it and stop with what they reached. */
export class DeadlineExceeded extends Error {
  readonly phase: string;
  readonly reached: string;

  constructor(phase: string, reached: string, limitS: number) {
    super(`timed out after ${limitS} s while ${phase} (${reached})`);
    this.phase = phase;
    this.reached = reached;
  }
}

export class Deadline {
  readonly #at: number;
  readonly #limitS: number;

  constructor(limitS: number) {
    this.#limitS = limitS;
    this.#at = Date.now() + limitS * 1000;
  }

  remainingMs(): number {
    return Math.max(0, this.#at - Date.now());
  }

  check(phase: string, reached: string): void {
    if (Date.now() >= this.#at) throw new DeadlineExceeded(phase, reached, this.#limitS);
  }
}
