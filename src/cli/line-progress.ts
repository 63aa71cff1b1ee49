// The progress of `hd3 report` on stderr: lines, lines per second and an ETA, redrawn in place on a terminal only.

/** What the progress line shows. */
export interface LineProgressState {
  readonly lines: number;
  readonly bytes: number;
  readonly totalBytes: number | undefined;
}

const count = (n: number) => Math.round(n).toLocaleString("en-US");

/** `m:ss` or `h:mm:ss`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

/**
 * Draws `12,345,678 lines  1,234,567 lines/s  43%  ETA 0:12` in place on a terminal, at most
 * every `intervalMs`; writes nothing when the stream is not a terminal (a pipe, a file).
 */
export class LineProgress {
  readonly #stream: { write(text: string): unknown; isTTY?: boolean };
  readonly #enabled: boolean;
  readonly #intervalMs: number;
  readonly #now: () => number;
  readonly #startedAt: number;
  #lastDraw = Number.NEGATIVE_INFINITY;
  #drawn = false;

  constructor(
    stream: { write(text: string): unknown; isTTY?: boolean },
    options: { enabled?: boolean; intervalMs?: number; now?: () => number } = {},
  ) {
    this.#stream = stream;
    this.#enabled = options.enabled !== false && stream.isTTY === true;
    this.#intervalMs = options.intervalMs ?? 200;
    this.#now = options.now ?? (() => performance.now());
    this.#startedAt = this.#now();
  }

  /** The line for a state, `elapsedMs` after the start. */
  static line(state: LineProgressState, elapsedMs: number): string {
    const seconds = elapsedMs / 1000;
    const rate = seconds > 0 ? state.lines / seconds : 0;
    let line = `${count(state.lines)} lines  ${count(rate)} lines/s`;
    const total = state.totalBytes;
    if (total !== undefined && total > 0) {
      const done = Math.min(1, state.bytes / total);
      line += `  ${Math.floor(done * 100)}%`;
      if (done > 0 && seconds > 0.5) line += `  ETA ${formatDuration((seconds / done) * (1 - done))}`;
    }
    return line;
  }

  /** Redraws the line (throttled). */
  update(state: LineProgressState): void {
    if (!this.#enabled) return;
    const now = this.#now();
    if (now - this.#lastDraw < this.#intervalMs) return;
    this.#lastDraw = now;
    this.#drawn = true;
    this.#stream.write(`\r${LineProgress.line(state, now - this.#startedAt)}\u001b[K`);
  }

  /** Clears the line, so what follows starts on a clean line. */
  clear(): void {
    if (this.#drawn) this.#stream.write("\r\u001b[K");
    this.#drawn = false;
  }
}
