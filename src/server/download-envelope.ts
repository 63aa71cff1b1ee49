// Makes a served specs/trees file a complete API reply: top-level `status` and `message` are spliced in when the file lacks them.

import type { FileHandle } from "node:fs/promises";
import { JsonObjectScanner } from "../client/json-scanner.js";
import { errorMessage } from "../errors.js";

/** Where the missing members go: `text` is inserted before the byte at `insertAt` (the final `}`). */
interface EnvelopeSplice {
  readonly insertAt: number;
  readonly text: Buffer;
}

/** What a file needs: nothing (it already says status and message), a splice, or why it cannot be read as one JSON object. */
export type EnvelopePlan =
  | { kind: "complete" }
  | { kind: "splice"; splice: EnvelopeSplice }
  | { kind: "unusable"; problem: string };

/** Bytes read per positional read while scanning. */
const SCAN_CHUNK_BYTES = 256 * 1024;

const CLOSE_OBJECT = 0x7d;

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/**
 * Scans a JSON object file once, chunk by chunk (never whole in memory), and says what must be
 * added for the vendor's kits to accept it as a fetchspecs/fetchtrees reply: they reject any reply
 * without a top-level `status`. Missing members are added as `"message":"OK"` and `"status":0`
 * before the object's final `}`; members the file has are left as they are.
 */
export async function planEnvelope(handle: FileHandle, size: number): Promise<EnvelopePlan> {
  const scanner = new JsonObjectScanner();
  const buffer = Buffer.allocUnsafe(Math.min(SCAN_CHUNK_BYTES, Math.max(size, 1)));
  let lastSignificant = -1;
  let lastByte = -1;
  for (let position = 0; position < size; ) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size - position), position);
    if (bytesRead === 0) return { kind: "unusable", problem: "the file is shorter than its size" };
    const chunk = buffer.subarray(0, bytesRead);
    scanner.push(chunk);
    const problem = scanner.problemSoFar;
    if (problem !== undefined) return { kind: "unusable", problem };
    for (let i = bytesRead - 1; i >= 0; i--) {
      const byte = chunk[i] as number;
      if (!isWhitespace(byte)) {
        lastSignificant = position + i;
        lastByte = byte;
        break;
      }
    }
    position += bytesRead;
  }
  const problem = scanner.finish();
  if (problem !== undefined) return { kind: "unusable", problem };
  if (lastByte !== CLOSE_OBJECT) return { kind: "unusable", problem: "the file does not end with `}`" };
  const keys = scanner.topLevelKeys;
  const missing: string[] = [];
  if (!keys.has("message")) missing.push('"message":"OK"');
  if (!keys.has("status")) missing.push('"status":0');
  if (missing.length === 0) return { kind: "complete" };
  const text = (keys.size > 0 ? "," : "") + missing.join(",");
  return { kind: "splice", splice: { insertAt: lastSignificant, text: Buffer.from(text, "utf8") } };
}

/** What identifies one version of a file: a rename or a rewrite changes it. */
export function fileIdentity(stat: { dev: number; ino: number; size: number; mtimeMs: number }): string {
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}`;
}

/**
 * Remembers the plan of each served file per file identity, so a file is scanned once per version
 * (a sync that renames a new file into place gives it a new identity). Requests that arrive while
 * a scan runs share it.
 */
export class EnvelopePlans {
  readonly #byPath = new Map<string, { identity: string; plan: Promise<EnvelopePlan> }>();
  readonly #onUnusable: (file: string, problem: string) => void;

  /** `onUnusable` hears once per file version that it is not one JSON object (it is then served as it is). */
  constructor(onUnusable: (file: string, problem: string) => void) {
    this.#onUnusable = onUnusable;
  }

  /** The plan of `file` as opened in `handle` (whose `fstat` gave `stat`). */
  plan(
    file: string,
    handle: FileHandle,
    stat: { dev: number; ino: number; size: number; mtimeMs: number },
  ): Promise<EnvelopePlan> {
    const identity = fileIdentity(stat);
    const known = this.#byPath.get(file);
    if (known !== undefined && known.identity === identity) return known.plan;
    const plan = planEnvelope(handle, stat.size)
      .catch(
        (error: unknown): EnvelopePlan => ({
          kind: "unusable",
          problem: errorMessage(error),
        }),
      )
      .then((result) => {
        if (result.kind === "unusable") this.#onUnusable(file, result.problem);
        return result;
      });
    this.#byPath.set(file, { identity, plan });
    return plan;
  }
}
