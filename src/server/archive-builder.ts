// Builds the fetcharchive ZIP (Device_<id>.json, Extra_<id>.json, <tree>.json; the data version in its comment) from a specs and a trees file, streamed.

import { once } from "node:events";
import { createWriteStream } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import type { PassThrough } from "node:stream";
import { ZipFile } from "yazl";
import { type JsonSpan, JsonSpanError, JsonSpanScanner } from "./json-spans.js";

/** Bytes read per positional read of a data file. */
const READ_CHUNK_BYTES = 64 * 1024;

/** Names that are safe as one file name in any kit's cache directory. */
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/** What a build wrote. */
export interface BuiltArchive {
  /** Size of the archive in bytes. */
  bytes: number;
  /** Entries: devices, extras and trees. */
  devices: number;
  extras: number;
  trees: number;
  /**
   * True when the archive holds the bytes CR LF CR LF somewhere. The v3.2.0 PHP kit takes a reply
   * body as whatever follows the LAST blank line of the raw reply, so it would cut such an archive.
   */
  hasBlankLine: boolean;
}

/** Thrown when the data files cannot make an archive (not JSON objects, bad records, unsafe names). */
class ArchiveDataError extends Error {
  override name = "ArchiveDataError";
}

/** The top-level member of a download that says which data it is (`generated`, `note`, `source`). */
const NOTICE_KEY = "_notice";
/** Largest ZIP comment. */
const MAX_COMMENT_BYTES = 0xffff;

async function* spansOf(handle: FileHandle, size: number, wanted: string[]): AsyncGenerator<JsonSpan> {
  const scanner = new JsonSpanScanner(wanted, [NOTICE_KEY]);
  const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
  for (let position = 0; position < size; ) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size - position), position);
    if (bytesRead === 0) throw new ArchiveDataError("a data file is shorter than its size");
    position += bytesRead;
    yield* scanner.push(buffer.subarray(0, bytesRead));
  }
  scanner.finish();
}

/** The id of a `{"Device": {"_id": ...}}` or `{"Extra": {"_id": ...}}` record, checked. */
function recordId(bytes: Buffer, kind: "Device" | "Extra"): string {
  let record: unknown;
  try {
    record = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new ArchiveDataError(`a ${kind} record is not valid JSON`);
  }
  const inner = (record as Record<string, unknown> | null)?.[kind] as Record<string, unknown> | undefined;
  const id = inner?._id;
  if (typeof inner !== "object" || inner === null || (typeof id !== "string" && typeof id !== "number")) {
    throw new ArchiveDataError(`a record of the specs is not a { "${kind}": { "_id", "hd_specs" } } record`);
  }
  const text = String(id);
  if (!SAFE_NAME.test(text))
    throw new ArchiveDataError(`the ${kind} id ${JSON.stringify(text)} cannot name a file`);
  return text;
}

/**
 * The archive comment that carries the two downloads' `_notice` objects (the data version):
 * `{"_notice":{"specs":{...},"trees":{...}}}`, as ASCII (ZIP comments are read as code page
 * 437), or `undefined` when there is none to carry or it does not fit. The kits read entries
 * only, so the entries stay exactly the vendor's set.
 */
export function noticeComment(notices: { specs?: Buffer; trees?: Buffer }): string | undefined {
  const carried: Record<string, unknown> = {};
  for (const [file, bytes] of Object.entries(notices)) {
    try {
      const notice: unknown = JSON.parse(bytes.toString("utf8"));
      if (typeof notice === "object" && notice !== null && !Array.isArray(notice)) carried[file] = notice;
    } catch {
      // not JSON: nothing to carry
    }
  }
  if (Object.keys(carried).length === 0) return undefined;
  const comment = JSON.stringify({ [NOTICE_KEY]: carried }).replace(
    /[\u007f-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return comment.length <= MAX_COMMENT_BYTES ? comment : undefined;
}

/** Counts CR LF CR LF across the chunks of a stream. */
function blankLineWatcher(): { watch(chunk: Buffer): void; readonly found: boolean } {
  let tail = Buffer.alloc(0);
  let found = false;
  return {
    watch(chunk: Buffer) {
      if (found) return;
      const window = Buffer.concat([tail, chunk.subarray(0, 3)]);
      if (window.includes("\r\n\r\n") || chunk.includes("\r\n\r\n")) found = true;
      tail = Buffer.from(chunk.subarray(Math.max(0, chunk.length - 3)));
    },
    get found() {
      return found;
    },
  };
}

/**
 * Writes the archive the vendor's kits download with `siteFetchArchive` to `toFile`: one stored
 * (uncompressed) entry per device (`Device_<id>.json`, the record `{"Device": {...}}`), per extra
 * (`Extra_<id>.json`) and per tree (`<tree name>.json`, the tree's object). Every entry holds the
 * bytes of the data files exactly (never parsed and re-serialised: integer-like keys keep their
 * order). The files are read in chunks and entries are added as the archive is written, so memory
 * stays near one record or one tree. The files' `_notice` objects (the data version) go in the
 * archive's comment (see {@link noticeComment}). Stored entries keep JSON text free of CR LF CR LF (the PHP
 * kit cuts a body at the last one) and keep full-size data above its 9,000,000-byte minimum.
 *
 * @throws {ArchiveDataError} when a file is not one JSON object, a record or tree has no usable
 * name, a name appears twice, or the specs hold no device or the trees no tree.
 */
export async function buildArchive(
  specs: { handle: FileHandle; size: number },
  trees: { handle: FileHandle; size: number },
  toFile: string,
  mtime: Date,
): Promise<BuiltArchive> {
  const zip = new ZipFile();
  const output = zip.outputStream as PassThrough;
  const sink = createWriteStream(toFile);
  const blankLines = blankLineWatcher();
  let bytes = 0;
  output.on("data", (chunk: Buffer) => {
    bytes += chunk.length;
    blankLines.watch(chunk);
  });
  output.pipe(sink);
  // Settles when the file is closed; rejects at once if writing it fails.
  const written = once(sink, "close");
  written.catch(() => undefined);
  const names = new Set<string>();
  const counts = { devices: 0, extras: 0, trees: 0 };
  const notices: { specs?: Buffer; trees?: Buffer } = {};
  const add = async (entry: Buffer, name: string) => {
    if (names.has(name)) throw new ArchiveDataError(`${name} appears twice in the data`);
    names.add(name);
    zip.addBuffer(entry, name, { compress: false, mtime, forceDosTimestamp: true });
    // yazl writes each buffer entry at once: wait while the file falls behind (or fails).
    if (output.writableNeedDrain) await Promise.race([once(output, "drain"), written]);
  };
  try {
    for await (const span of spansOf(specs.handle, specs.size, ["devices", "extras"])) {
      if (span.key === NOTICE_KEY) {
        notices.specs = span.bytes;
        continue;
      }
      const kind = span.key === "devices" ? "Device" : "Extra";
      await add(span.bytes, `${kind}_${recordId(span.bytes, kind)}.json`);
      counts[span.key === "devices" ? "devices" : "extras"]++;
    }
    for await (const span of spansOf(trees.handle, trees.size, ["trees"])) {
      if (span.key === NOTICE_KEY) {
        notices.trees = span.bytes;
        continue;
      }
      const name = span.name ?? "";
      if (!SAFE_NAME.test(name) || /^(Device|Extra)_/.test(name)) {
        throw new ArchiveDataError(`the tree name ${JSON.stringify(name)} cannot name a file`);
      }
      if (span.bytes[0] !== 0x7b) throw new ArchiveDataError(`the tree ${name} is not an object`);
      await add(span.bytes, `${name}.json`);
      counts.trees++;
    }
    if (counts.devices === 0) throw new ArchiveDataError("the specs hold no device");
    if (counts.trees === 0) throw new ArchiveDataError("the trees file holds no tree");
    const comment = noticeComment(notices);
    // yazl's types ask for every end option; it takes any of them.
    zip.end(comment === undefined ? undefined : ({ comment } as Parameters<ZipFile["end"]>[0]));
    await written;
  } catch (error) {
    output.unpipe(sink);
    sink.destroy();
    await written.catch(() => undefined);
    if (error instanceof JsonSpanError) throw new ArchiveDataError(error.message);
    throw error;
  }
  return { bytes, ...counts, hasBlankLine: blankLines.found };
}
