// A download progress bar on stderr: redrawn in place on a terminal, one line per file otherwise.

/** Formats a byte count as B, KB or MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Progress of one download, as the client reports it. */
export interface ProgressEvent {
  receivedBytes: number;
  totalBytes: number | undefined;
}

/** Draws the progress of named downloads on a stream. */
export class ProgressBar {
  readonly #stream: { write(text: string): unknown; isTTY?: boolean };
  readonly #tty: boolean;
  readonly #width = 24;
  #lastDraw = 0;

  /** `enabled: false` draws nothing (for --quiet). */
  constructor(
    stream: { write(text: string): unknown; isTTY?: boolean },
    readonly enabled = true,
  ) {
    this.#stream = stream;
    this.#tty = stream.isTTY === true;
  }

  /** Redraws the bar of `label` (at most every 100 ms on a terminal; never off a terminal). */
  update(label: string, event: ProgressEvent): void {
    if (!this.enabled || !this.#tty) return;
    const now = Date.now();
    if (now - this.#lastDraw < 100) return;
    this.#lastDraw = now;
    this.#stream.write(`\r${this.#line(label, event)}\u001b[K`);
  }

  /** Finishes the line of `label` with its final size. */
  done(label: string, bytes: number): void {
    if (!this.enabled) return;
    const line = this.#line(label, { receivedBytes: bytes, totalBytes: bytes });
    this.#stream.write(this.#tty ? `\r${line}\u001b[K\n` : `${line}\n`);
  }

  #line(label: string, { receivedBytes, totalBytes }: ProgressEvent): string {
    const name = label.padEnd(6);
    if (totalBytes === undefined || totalBytes <= 0) return `${name} ${formatBytes(receivedBytes)}`;
    const ratio = Math.min(1, receivedBytes / totalBytes);
    const filled = Math.round(ratio * this.#width);
    const bar = `${"#".repeat(filled)}${"-".repeat(this.#width - filled)}`;
    const percent = `${Math.round(ratio * 100)}%`.padStart(4);
    return `${name} [${bar}] ${percent}  ${formatBytes(receivedBytes)} / ${formatBytes(totalBytes)}`;
  }
}
