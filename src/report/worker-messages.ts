// The messages between `runReport` and its worker threads.

import type { PackedCounts } from "./counts.js";
import type { LogFormat } from "./log-formats.js";
import type { SharedDetectionsMemory } from "./shared-detections.js";
import type { TallyFilters } from "./tally.js";

/** What a worker needs to count lines: where the data is, the filters, the JSON user-agent field. */
export interface WorkerSetup {
  readonly specsPath: string;
  readonly treesPath: string;
  readonly filters: TallyFilters;
  readonly userAgentField: string | undefined;
  /** The detections the workers share, when there are several. */
  readonly sharedDetections: SharedDetectionsMemory | undefined;
}

/** To a worker: count the lines of one chunk (whole lines, UTF-8, its bytes transferred). */
export interface ChunkMessage {
  readonly type: "chunk";
  readonly seq: number;
  readonly format: LogFormat;
  readonly bytes: Uint8Array;
}

/** To a worker: send your counts and stop. */
export interface FinishMessage {
  readonly type: "finish";
}

/** A line of a chunk that did not parse. */
export interface ChunkBadLine {
  /** 0-based index of the line in its chunk. */
  readonly index: number;
  readonly text: string;
}

/** From a worker: a chunk is counted. */
export interface ChunkDoneMessage {
  readonly type: "done";
  readonly seq: number;
  /** Lines in the chunk, empty ones included (for line numbers). */
  readonly lines: number;
  readonly bad: readonly ChunkBadLine[];
  /** The chunk's buffer, given back (transferred) to be filled again. */
  readonly buffer: ArrayBuffer;
}

/** From a worker: its counts, after {@link FinishMessage}. */
export interface CountsMessage {
  readonly type: "counts";
  readonly counts: PackedCounts;
}

export type ToWorker = ChunkMessage | FinishMessage;
export type FromWorker = ChunkDoneMessage | CountsMessage;
