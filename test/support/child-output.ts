// What a child process writes, collected as it comes.

import type { ChildProcess } from "node:child_process";
import type { Readable } from "node:stream";

/** A reader of everything `stream` has given so far, decoded as UTF-8 (`""` without a stream). */
export function textOf(stream: Readable | null | undefined): () => string {
  let text = "";
  stream?.setEncoding("utf8").on("data", (chunk: string) => {
    text += chunk;
  });
  return () => text;
}

/** Readers of a child's stdout and stderr so far. */
export function outputOf(child: ChildProcess): { stdout: () => string; stderr: () => string } {
  return { stdout: textOf(child.stdout), stderr: textOf(child.stderr) };
}
