/**
 * Calling something again after a failure: a pause that doubles from 0.5 s to 8 s, one
 * pending call at a time, forgotten when the page is left (`signal`).
 */
const FIRST_MS = 500;
const MOST_MS = 8000;

export class Retry {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private delay = FIRST_MS;

  constructor(
    private readonly run: () => void,
    private readonly signal: AbortSignal,
  ) {
    signal.addEventListener("abort", () => clearTimeout(this.timer), { once: true });
  }

  /** True while a call is waiting for its pause to end. */
  get pending(): boolean {
    return this.timer !== undefined;
  }

  /** Call `run` after the pause (unless one is already waiting), and lengthen the next pause. */
  later(): void {
    if (this.timer !== undefined || this.signal.aborted) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.run();
    }, this.delay);
    this.delay = Math.min(this.delay * 2, MOST_MS);
  }

  /** It worked: the next failure waits the shortest pause again. */
  succeeded(): void {
    this.delay = FIRST_MS;
  }
}
