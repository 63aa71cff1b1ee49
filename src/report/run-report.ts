// runReport(): a report over whole inputs (files, stdin, gzip), streamed and spread over worker threads.

import { open } from "node:fs/promises";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import type { Readable } from "node:stream";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { createGunzip } from "node:zlib";
import { HdDataError } from "../errors.js";
import { type Counts, type PackedCounts, sumPackedCounts } from "./counts.js";
import { BAD_SAMPLES, SNIFF_LINES } from "./limits.js";
import { type LogFormat, lineEnd, sniffFormat } from "./log-formats.js";
import type { ResolvedReportOptions } from "./report-options.js";
import { type BadLineSample, buildResult, type ReportResult } from "./result.js";
import { createSharedDetectionsMemory } from "./shared-detections.js";
import type { ChunkBadLine, FromWorker, ToWorker, WorkerSetup } from "./worker-messages.js";

/** One log to read. */
export interface ReportInput {
  /** How the report names it: a path, or `-` for stdin. */
  readonly name: string;
  /** Its bytes (gzip is recognised by its first bytes and unpacked). */
  open(): Readable;
  /** Its size in bytes when known (a file), for the progress's ETA. */
  readonly size: number | undefined;
  /** Its path, when it is a file: read straight into the chunks' buffers rather than through `open()`. */
  readonly path?: string;
}

/** How far a run is. */
export interface ReportProgress {
  /** Lines counted. */
  readonly lines: number;
  /** Bytes read from the inputs (compressed bytes for gzip). */
  readonly bytes: number;
  /** Bytes of every input together, when all sizes are known. */
  readonly totalBytes: number | undefined;
}

/** Settings of a run besides the report's options. */
export interface RunReportOptions {
  /** The checked report options (the engine option is not used: workers load `data`). */
  readonly options: ResolvedReportOptions;
  /** The data files each worker loads, and how the report names them (`sample`, a directory). */
  readonly data: { readonly specsPath: string; readonly treesPath: string; readonly label: string };
  /** Worker threads. Default: one per core. */
  readonly workers?: number;
  /** Called after each chunk is counted. */
  readonly onProgress?: (progress: ReportProgress) => void;
  /** Stops reading: the report then holds what was counted so far, `interrupted: true`. */
  readonly signal?: AbortSignal;
}

/** Bytes sent to a worker at a time (whole lines). */
const CHUNK_BYTES = 1 << 20;
/** Chunks each worker may hold at once: one counting, one waiting. */
const IN_FLIGHT_PER_WORKER = 2;

/** The worker's module: the built `.js`, or the `.ts` source through tsx when running from source. */
function startWorker(setup: WorkerSetup): Worker {
  const fromSource = import.meta.url.endsWith(".ts");
  if (!fromSource) return new Worker(new URL("./report-worker.js", import.meta.url), { workerData: setup });
  const entry = new URL("./report-worker.ts", import.meta.url).href;
  // tsx's ESM entry (`tsx/esm/api`'s import condition), found from its package.json.
  const tsxPackage = createRequire(import.meta.url).resolve("tsx/package.json");
  const tsx = pathToFileURL(join(dirname(tsxPackage), "dist", "esm", "api", "index.mjs")).href;
  const code = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(code, { eval: true, workerData: setup });
}

/** The raw bytes of an input, unpacked when they start as gzip does; `onRead` sees the raw sizes. */
async function* bytesOf(
  input: ReportInput,
  onRead: (bytes: number) => void,
  signal: AbortSignal | undefined,
): AsyncGenerator<Buffer> {
  const raw = input.open();
  /** A stream in object or text mode gives strings: read them as UTF-8 bytes. */
  const asBytes = (chunk: Buffer | string): Buffer =>
    typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
  // Ctrl-C while a pipe is quiet: the read ends at once.
  const stop = () => raw.destroy();
  signal?.addEventListener("abort", stop, { once: true });
  const chunks = raw[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
  const rest = async function* (first: Buffer) {
    onRead(first.length);
    yield first;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
      const bytes = asBytes(next.value);
      onRead(bytes.length);
      yield bytes;
    }
  };
  try {
    const first = await chunks.next();
    if (first.done) return;
    const head = asBytes(first.value);
    if (head[0] !== 0x1f || head[1] !== 0x8b) {
      yield* rest(head);
      return;
    }
    const gunzip = createGunzip({ chunkSize: 256 * 1024 });
    const feed = (async () => {
      for await (const chunk of rest(head))
        if (!gunzip.write(chunk)) await new Promise((r) => gunzip.once("drain", r));
      gunzip.end();
    })();
    feed.catch((error: unknown) => gunzip.destroy(error as Error));
    try {
      for await (const chunk of gunzip) yield chunk as Buffer;
    } catch (error) {
      throw new HdDataError(`${input.name}: cannot unpack gzip (${(error as Error).message})`, {
        file: input.name,
        cause: error,
      });
    }
    await feed;
  } finally {
    signal?.removeEventListener("abort", stop);
    raw.destroy();
  }
}

/** The first lines of a chunk, to tell the format. */
function firstLines(bytes: Uint8Array): string[] {
  const text = new TextDecoder().decode(bytes.subarray(0, 64 * 1024));
  return text
    .split("\n")
    .slice(0, -1)
    .map((line) => line.slice(0, lineEnd(line, 0, line.length)))
    .filter((line) => line !== "")
    .slice(0, SNIFF_LINES);
}

/**
 * Splits a byte stream into chunks of whole lines, each in its own transferable buffer. When the
 * read fails because `signal` aborted it, the whole lines read so far still come out.
 */
async function* lineChunks(
  bytes: AsyncIterable<Buffer>,
  signal: AbortSignal | undefined,
  pool: BufferPool,
): AsyncGenerator<Uint8Array> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const take = (through: number): Uint8Array => {
    const out = pool.take(through);
    let at = 0;
    const keep: Buffer[] = [];
    for (const buffer of pending) {
      const room = through - at;
      if (room >= buffer.length) {
        out.set(buffer, at);
        at += buffer.length;
      } else if (room > 0) {
        out.set(buffer.subarray(0, room), at);
        at += room;
        keep.push(buffer.subarray(room));
      } else keep.push(buffer);
    }
    pending = keep;
    pendingBytes -= through;
    return out;
  };
  /** Bytes up to and including the last newline of the pending buffers; 0 when there is none. */
  const wholeLines = (): number => {
    let before = pendingBytes;
    for (let i = pending.length - 1; i >= 0; i--) {
      const buffer = pending[i] as Buffer;
      before -= buffer.length;
      const newline = buffer.lastIndexOf(10);
      if (newline >= 0) return before + newline + 1;
    }
    return 0;
  };
  try {
    for await (const buffer of bytes) {
      pending.push(buffer);
      pendingBytes += buffer.length;
      if (pendingBytes < CHUNK_BYTES) continue;
      const newline = buffer.lastIndexOf(10);
      if (newline < 0) continue;
      yield take(pendingBytes - (buffer.length - newline - 1));
    }
  } catch (error) {
    if (!signal?.aborted) throw error;
    const through = wholeLines();
    if (through > 0) yield take(through);
    return;
  }
  if (pendingBytes > 0) yield take(pendingBytes);
}

/**
 * The buffers chunks are sent in: each comes back from its worker once counted and is used again,
 * so the read allocates a handful of buffers whatever the input's size.
 */
class BufferPool {
  readonly #free: ArrayBuffer[] = [];

  /** A view of `length` bytes on a free buffer (or a new one of at least two chunks). */
  take(length: number): Uint8Array {
    const index = this.#free.findIndex((buffer) => buffer.byteLength >= length);
    const buffer =
      index < 0
        ? new ArrayBuffer(Math.max(length, 2 * CHUNK_BYTES))
        : (this.#free.splice(index, 1)[0] as ArrayBuffer);
    return new Uint8Array(buffer, 0, length);
  }

  /** A buffer back from a worker. */
  give(buffer: ArrayBuffer): void {
    this.#free.push(buffer);
  }
}

/**
 * Chunks of whole lines of a plain file, read straight into the pool's buffers: the bytes are
 * copied once, by the kernel, except the part line carried from one chunk to the next. Gives
 * up (undefined) when the file starts as gzip does, for the stream path to unpack it.
 */
async function* fileChunks(
  path: string,
  pool: BufferPool,
  onRead: (bytes: number) => void,
  signal: AbortSignal | undefined,
): AsyncGenerator<Uint8Array, boolean> {
  const file = await open(path, "r");
  try {
    let carry = new Uint8Array(0);
    for (let first = true; ; first = false) {
      if (signal?.aborted) return true;
      const buffer = pool.take(carry.length + CHUNK_BYTES);
      buffer.set(carry, 0);
      const { bytesRead } = await file.read(buffer, carry.length, CHUNK_BYTES, null);
      if (first && bytesRead >= 2 && buffer[0] === 0x1f && buffer[1] === 0x8b) {
        pool.give(buffer.buffer as ArrayBuffer);
        return false;
      }
      onRead(bytesRead);
      const filled = carry.length + bytesRead;
      if (bytesRead === 0) {
        if (filled > 0) yield buffer.subarray(0, filled);
        else pool.give(buffer.buffer as ArrayBuffer);
        return true;
      }
      const newline = buffer.lastIndexOf(10, filled - 1);
      if (newline < 0) {
        // A line longer than a chunk: keep reading until it ends.
        carry = buffer.slice(0, filled);
        pool.give(buffer.buffer as ArrayBuffer);
        continue;
      }
      carry = buffer.slice(newline + 1, filled);
      yield buffer.subarray(0, newline + 1);
    }
  } finally {
    await file.close();
  }
}

/** A worker and the chunks it holds. */
interface Slot {
  readonly worker: Worker;
  inFlight: number;
}

/**
 * The report of whole inputs, read as streams (memory stays bounded whatever their size), the
 * lines counted by worker threads that each load the data; each distinct header set is detected
 * once, by the first worker to meet it (see `shared-detections.ts`). The format of each input is
 * told from its first lines unless the options give one.
 *
 * @throws {HdDataError} when an input cannot be read or unpacked.
 */
export async function runReport(
  inputs: readonly ReportInput[],
  run: RunReportOptions,
): Promise<ReportResult> {
  const { options } = run;
  const workerCount = Math.max(1, run.workers ?? availableParallelism());
  const setup: WorkerSetup = {
    specsPath: run.data.specsPath,
    treesPath: run.data.treesPath,
    filters: options.filters,
    userAgentField: options.userAgentField,
    // Every worker meets the frequent header sets: one detects each, the others read its device.
    sharedDetections: workerCount > 1 ? createSharedDetectionsMemory() : undefined,
  };
  const slots: Slot[] = [];
  const chunkInput: number[] = [];
  const chunkLines: number[] = [];
  const samples: Array<{ seq: number; bad: ChunkBadLine }> = [];
  let totals: Counts;
  const sizes = inputs.map((input) => input.size);
  const totalBytes = sizes.every((size) => size !== undefined)
    ? sizes.reduce((sum: number, size) => sum + (size as number), 0)
    : undefined;
  let lines = 0;
  let bytes = 0;
  let failure: unknown;
  let wake: (() => void) | undefined;
  const wakeUp = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  const countsArrived: Array<Promise<PackedCounts>> = [];

  for (let i = 0; i < workerCount; i++) {
    const worker = startWorker(setup);
    const slot: Slot = { worker, inFlight: 0 };
    countsArrived.push(
      new Promise<PackedCounts>((resolve, reject) => {
        worker.on("message", (message: FromWorker) => {
          if (message.type === "counts") {
            resolve(message.counts);
            return;
          }
          slot.inFlight--;
          lines += message.lines;
          chunkLines[message.seq] = message.lines;
          pool.give(message.buffer);
          for (const bad of message.bad) samples.push({ seq: message.seq, bad });
          if (samples.length > BAD_SAMPLES) {
            samples.sort((a, b) => a.seq - b.seq || a.bad.index - b.bad.index);
            samples.length = BAD_SAMPLES;
          }
          run.onProgress?.({ lines, bytes, totalBytes });
          wakeUp();
        });
        worker.on("error", (error) => {
          failure ??= error;
          reject(error);
          wakeUp();
        });
        worker.on("exit", (code) => {
          if (code !== 0) {
            failure ??= new Error(`a report worker stopped (exit code ${code})`);
            reject(failure);
            wakeUp();
          }
        });
      }),
    );
    slots.push(slot);
  }
  // A failed worker rejects its promise before anyone awaits it: the failure is read from `failure`.
  for (const arrived of countsArrived) arrived.catch(() => {});

  const freeSlot = async (): Promise<Slot> => {
    for (;;) {
      if (failure !== undefined) throw failure;
      let best: Slot | undefined;
      for (const slot of slots)
        if (slot.inFlight < IN_FLIGHT_PER_WORKER && (best === undefined || slot.inFlight < best.inFlight))
          best = slot;
      if (best !== undefined) return best;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  };

  const pool = new BufferPool();
  const formats: LogFormat[] = [];
  let seq = 0;
  try {
    for (const [inputIndex, input] of inputs.entries()) {
      let format = options.format;
      const send = async (chunk: Uint8Array) => {
        if (format === undefined)
          format = sniffFormat(firstLines(chunk), options.userAgentField) ?? "combined";
        const slot = await freeSlot();
        slot.inFlight++;
        chunkInput[seq] = inputIndex;
        const message: ToWorker = { type: "chunk", seq, format, bytes: chunk };
        slot.worker.postMessage(message, [chunk.buffer as ArrayBuffer]);
        seq++;
      };
      try {
        let done = false;
        if (input.path !== undefined) {
          const direct = fileChunks(input.path, pool, (n) => (bytes += n), run.signal);
          for (let next = await direct.next(); ; next = await direct.next()) {
            if (next.done) {
              done = next.value;
              break;
            }
            await send(next.value);
          }
        }
        if (!done) {
          const chunks = lineChunks(
            bytesOf(input, (n) => (bytes += n), run.signal),
            run.signal,
            pool,
          );
          for await (const chunk of chunks) await send(chunk);
        }
      } catch (error) {
        if (!run.signal?.aborted) throw error;
      }
      formats.push(format ?? "combined");
      if (run.signal?.aborted) break;
    }
    while (slots.some((slot) => slot.inFlight > 0)) {
      if (failure !== undefined) throw failure;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
    if (failure !== undefined) throw failure;
    for (const slot of slots) slot.worker.postMessage({ type: "finish" } satisfies ToWorker);
    totals = sumPackedCounts(await Promise.all(countsArrived));
  } finally {
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }
  const interrupted = run.signal?.aborted === true;

  // Line numbers: each chunk starts after the lines of the earlier chunks of its input.
  const firstLine: number[] = [];
  const seen = new Map<number, number>();
  for (let s = 0; s < seq; s++) {
    const input = chunkInput[s] as number;
    const before = seen.get(input) ?? 0;
    firstLine[s] = before;
    seen.set(input, before + (chunkLines[s] ?? 0));
  }
  samples.sort((a, b) => a.seq - b.seq || a.bad.index - b.bad.index);
  const badSamples: BadLineSample[] = samples.map(({ seq: s, bad }) => ({
    input: inputs[chunkInput[s] as number]?.name ?? "-",
    line: (firstLine[s] ?? 0) + bad.index + 1,
    text: bad.text,
  }));
  return buildResult(totals, {
    data: run.data.label,
    files: inputs.map((input) => input.name),
    formats,
    badSamples,
    interrupted,
    now: Date.now(),
  });
}
