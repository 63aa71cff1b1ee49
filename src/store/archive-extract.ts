// Turns a fetcharchive ZIP back into a specs download and a trees download, entries' bytes kept exactly, the data version too.

import { once } from "node:events";
import { createWriteStream, type WriteStream } from "node:fs";
import { type Entry, open as openZip, type ZipFile } from "yauzl";
import { JsonObjectScanner } from "../client/json-scanner.js";
import { errorMessage, HdDataError } from "../errors.js";

/** Largest device or extra record accepted, in bytes (real ones are about 1-2 KB). */
const MAX_RECORD_BYTES = 1024 * 1024;

const RECORD_NAME = /^(Device|Extra)_([A-Za-z0-9][A-Za-z0-9._-]*)\.json$/;
const TREE_NAME = /^([A-Za-z0-9][A-Za-z0-9._-]*)\.json$/;

/** The entries of an archive, sorted into what they hold, in archive order. */
interface ArchiveContents {
  devices: Entry[];
  extras: Entry[];
  trees: { name: string; entry: Entry }[];
  /** Entries that are none of these (directories, other files): left out. */
  ignored: string[];
  /**
   * The `_notice` (data version) of each download as JSON text, from the archive's comment
   * (`{"_notice":{"specs":{...},"trees":{...}}}`, what `hd3 serve` writes); absent when the
   * archive does not carry it.
   */
  notices: { specs: string | undefined; trees: string | undefined };
}

/** The notices an archive comment carries; a comment that is not ours carries none. */
function noticesOf(comment: string): ArchiveContents["notices"] {
  let value: unknown;
  try {
    value = comment === "" ? undefined : JSON.parse(comment);
  } catch {
    value = undefined;
  }
  const carried = (value as { _notice?: Record<string, unknown> } | undefined)?._notice;
  const notice = (file: "specs" | "trees"): string | undefined => {
    const found = typeof carried === "object" && carried !== null ? carried[file] : undefined;
    return typeof found === "object" && found !== null && !Array.isArray(found)
      ? JSON.stringify(found)
      : undefined;
  };
  return { specs: notice("specs"), trees: notice("trees") };
}

/** An open archive: what it holds, and how to read an entry. Close it when done. */
export class ArchiveReader {
  readonly file: string;
  readonly contents: ArchiveContents;
  readonly #zip: ZipFile;

  private constructor(file: string, zip: ZipFile, contents: ArchiveContents) {
    this.file = file;
    this.#zip = zip;
    this.contents = contents;
  }

  /**
   * Opens `file` (reading its central directory) and sorts its entries. A record name given twice,
   * or an archive without any device or tree, is an `HdDataError`.
   */
  static async open(file: string): Promise<ArchiveReader> {
    const zip = await new Promise<ZipFile>((resolve, reject) => {
      openZip(
        file,
        { lazyEntries: true, autoClose: false, strictFileNames: true, validateEntrySizes: true },
        (error, opened) => {
          if (error || opened === undefined)
            reject(dataError(file, `it is not a readable ZIP archive (${errorMessage(error)})`));
          else resolve(opened);
        },
      );
    });
    try {
      const contents = await sortEntries(file, zip);
      if (contents.devices.length === 0) throw dataError(file, "it holds no Device_<id>.json entry");
      if (contents.trees.length === 0) throw dataError(file, "it holds no <tree name>.json entry");
      return new ArchiveReader(file, zip, contents);
    } catch (error) {
      zip.close();
      throw error;
    }
  }

  /** Reads one entry whole (records are small). */
  async readRecord(entry: Entry): Promise<Buffer> {
    if (entry.uncompressedSize > MAX_RECORD_BYTES) {
      throw dataError(this.file, `${entry.fileName} is larger than ${MAX_RECORD_BYTES} bytes`);
    }
    const chunks: Buffer[] = [];
    for await (const chunk of await this.#stream(entry)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  /** Streams one entry into `sink` (not ending it), and checks it is one complete JSON object. */
  async pipeTree(entry: Entry, sink: WriteStream): Promise<number> {
    const scanner = new JsonObjectScanner();
    let bytes = 0;
    for await (const chunk of await this.#stream(entry)) {
      const buffer = chunk as Buffer;
      scanner.push(buffer);
      bytes += buffer.length;
      if (!sink.write(buffer)) await once(sink, "drain");
    }
    const problem = scanner.finish();
    if (problem !== undefined)
      throw dataError(this.file, `${entry.fileName} is not one JSON object: ${problem}`);
    return bytes;
  }

  #stream(entry: Entry): Promise<NodeJS.ReadableStream> {
    return new Promise((resolve, reject) => {
      this.#zip.openReadStream(entry, (error, stream) => {
        if (error || stream === undefined)
          reject(dataError(this.file, `cannot read ${entry.fileName} (${errorMessage(error)})`));
        else resolve(stream);
      });
    });
  }

  close(): void {
    this.#zip.close();
  }
}

function dataError(file: string, problem: string): HdDataError {
  return new HdDataError(`The archive ${file} is unusable: ${problem}.`, { file });
}

function sortEntries(file: string, zip: ZipFile): Promise<ArchiveContents> {
  const notices = noticesOf(zip.comment);
  const contents: ArchiveContents = { devices: [], extras: [], trees: [], ignored: [], notices };
  const seen = new Set<string>();
  return new Promise((resolve, reject) => {
    zip.on("entry", (entry: Entry) => {
      const name = entry.fileName;
      if (seen.has(name)) {
        reject(dataError(file, `${name} appears twice`));
        return;
      }
      seen.add(name);
      const record = RECORD_NAME.exec(name);
      const tree = TREE_NAME.exec(name);
      if (record !== null) (record[1] === "Device" ? contents.devices : contents.extras).push(entry);
      else if (tree?.[1] !== undefined) contents.trees.push({ name: tree[1], entry });
      else contents.ignored.push(name);
      zip.readEntry();
    });
    zip.once("end", () => resolve(contents));
    zip.once("error", (error: unknown) => reject(dataError(file, errorMessage(error))));
    zip.readEntry();
  });
}

/** Checks a record entry: `{"<kind>": {"_id": <the id in its name>, "hd_specs": {...}}}`. */
function checkRecord(file: string, entryName: string, bytes: Buffer): void {
  const match = RECORD_NAME.exec(entryName);
  const kind = match?.[1] as "Device" | "Extra";
  let record: unknown;
  try {
    record = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw dataError(file, `${entryName} is not valid JSON`);
  }
  const inner = (record as Record<string, unknown> | null)?.[kind] as Record<string, unknown> | undefined;
  const specs = inner?.hd_specs;
  if (
    typeof inner !== "object" ||
    inner === null ||
    String(inner._id) !== match?.[2] ||
    typeof specs !== "object" ||
    specs === null ||
    Array.isArray(specs)
  ) {
    throw dataError(
      file,
      `${entryName} is not a { "${kind}": { "_id": "${match?.[2]}", "hd_specs": {...} } } record`,
    );
  }
}

/** Writes text and waits while the file falls behind. */
async function write(sink: WriteStream, text: string | Buffer): Promise<void> {
  if (!sink.write(text)) await once(sink, "drain");
}

/**
 * Creates `toFile`, lets `fill` write to it, and closes it; a write error of the file ends the
 * run at once. Resolves with the bytes written.
 */
async function writeFile(toFile: string, fill: (sink: WriteStream) => Promise<void>): Promise<number> {
  const sink = createWriteStream(toFile);
  const failed = once(sink, "error").then(([error]) => Promise.reject(error));
  failed.catch(() => undefined);
  const run = async () => {
    await fill(sink);
    sink.end();
    await once(sink, "close");
  };
  try {
    await Promise.race([run(), failed]);
  } catch (error) {
    sink.destroy();
    throw error;
  }
  return sink.bytesWritten;
}

/** `"_notice":{...},` when the archive carries the download's notice, else nothing. */
function noticeMember(notice: string | undefined): string {
  return notice === undefined ? "" : `"_notice":${notice},`;
}

/**
 * Writes a fetchspecs download (`{"_notice":{...},"devices":[...],"extras":[...],"message":"OK","status":0}`)
 * to `toFile` from the archive's `Device_<id>.json` and `Extra_<id>.json` entries, in archive
 * order, each record's bytes as they are, and its comment's notice when it carries one.
 * Resolves with the bytes written.
 */
export function writeSpecsFromArchive(archive: ArchiveReader, toFile: string): Promise<number> {
  return writeFile(toFile, async (sink) => {
    await write(sink, `{${noticeMember(archive.contents.notices.specs)}"devices":[`);
    for (const [group, entries] of [
      ["devices", archive.contents.devices],
      ["extras", archive.contents.extras],
    ] as const) {
      if (group === "extras") await write(sink, '],"extras":[');
      for (const [index, entry] of entries.entries()) {
        const bytes = await archive.readRecord(entry);
        checkRecord(archive.file, entry.fileName, bytes);
        if (index > 0) await write(sink, ",");
        await write(sink, bytes);
      }
    }
    await write(sink, '],"message":"OK","status":0}');
  });
}

/**
 * Writes a fetchtrees download (`{"_notice":{...},"trees":{"<name>":{...},...},"message":"OK","status":0}`)
 * to `toFile` from the archive's `<tree name>.json` entries, in archive order, each tree's bytes
 * as they are (so the document order of integer-like keys survives), and its comment's notice
 * when it carries one. Resolves with the bytes written.
 */
export function writeTreesFromArchive(archive: ArchiveReader, toFile: string): Promise<number> {
  return writeFile(toFile, async (sink) => {
    await write(sink, `{${noticeMember(archive.contents.notices.trees)}"trees":{`);
    for (const [index, { name, entry }] of archive.contents.trees.entries()) {
      await write(sink, `${index > 0 ? "," : ""}${JSON.stringify(name)}:`);
      await archive.pipeTree(entry, sink);
    }
    await write(sink, '},"message":"OK","status":0}');
  });
}
