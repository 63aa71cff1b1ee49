// The process's stdout and stderr as the CLI writes them: when the reader of a pipe goes away
// (`hd3 vendors | head -1`), the rest of the output is dropped and the command ends quietly.

/** A stream the CLI writes to: `process.stdout`, `process.stderr`, or any writable stream. */
export interface WritableOutput {
  write(text: string): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  readonly isTTY?: boolean;
}

/** What a {@link quietWhenReaderGoes} stream offers `CliIo`. */
export interface QuietOutput {
  write(text: string): boolean;
  readonly isTTY: boolean;
  /** True once the reader has gone: later writes are dropped. */
  readonly readerGone: boolean;
}

/**
 * Wraps stdout or stderr for `CliIo`. Once the reader has closed the pipe (`EPIPE`), writes are
 * dropped instead of crashing the process with an unhandled error: the command finishes as it
 * would have, with its own exit code and nothing on stderr, as command-line tools do when `head`
 * has read enough. Any other write error is still thrown.
 */
export function quietWhenReaderGoes(stream: WritableOutput): QuietOutput {
  let readerGone = false;
  stream.on("error", (error) => {
    if ((error as NodeJS.ErrnoException).code !== "EPIPE") throw error;
    readerGone = true;
  });
  return {
    write(text) {
      if (readerGone) return false;
      return stream.write(text) !== false;
    },
    get isTTY() {
      return stream.isTTY === true;
    },
    get readerGone() {
      return readerGone;
    },
  };
}
