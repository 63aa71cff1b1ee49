// A worker thread of `runReport`: counts the chunks of lines it is sent, and answers its counts at the end.

import { parentPort, workerData } from "node:worker_threads";
import { LocalEngine } from "../engine/local-engine.js";
import { silentLogger } from "../logger.js";
import { CombinedByteReader } from "./combined-bytes.js";
import { packCounts, sumCounts } from "./counts.js";
import { createLineDetector } from "./detect-line.js";
import { BAD_SAMPLES, SAMPLE_CHARS } from "./limits.js";
import { type LogFormat, lineEnd, lineParser } from "./log-formats.js";
import { shareDetections } from "./shared-detections.js";
import { Tally } from "./tally.js";
import type { ChunkBadLine, FromWorker, ToWorker, WorkerSetup } from "./worker-messages.js";

const setup = workerData as WorkerSetup;
const port = parentPort;
if (port === null) throw new Error("report-worker.js runs as a worker thread");

const engine = await LocalEngine.fromFiles(setup.specsPath, setup.treesPath, { logger: silentLogger });
const ownDetect = createLineDetector(engine);
const detect =
  setup.sharedDetections === undefined ? ownDetect : shareDetections(ownDetect, setup.sharedDetections);
const tallies = new Map<LogFormat, Tally>();
const byteReaders = new Map<LogFormat, CombinedByteReader>();
const decoder = new TextDecoder();

function tallyFor(format: LogFormat): Tally {
  let tally = tallies.get(format);
  if (tally === undefined) {
    tally = new Tally(lineParser(format, setup.userAgentField), detect, setup.filters);
    tallies.set(format, tally);
  }
  return tally;
}

const reply = (message: FromWorker) =>
  port.postMessage(message, message.type === "done" ? [message.buffer] : []);

port.on("message", (message: ToWorker) => {
  if (message.type === "finish") {
    const counts = sumCounts([...tallies.values()].map((tally) => tally.counts()));
    reply({ type: "counts", counts: packCounts(counts) });
    port.close();
    return;
  }
  const tally = tallyFor(message.format);
  const bad: ChunkBadLine[] = [];
  if (message.format !== "json") {
    let reader = byteReaders.get(message.format);
    if (reader === undefined) {
      reader = new CombinedByteReader(tally, message.format === "combined");
      byteReaders.set(message.format, reader);
    }
    const bytes = Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength);
    const lines = reader.countChunk(bytes, (index, text) => {
      if (bad.length < BAD_SAMPLES) bad.push({ index, text: text.slice(0, SAMPLE_CHARS) });
    });
    reply({ type: "done", seq: message.seq, lines, bad, buffer: message.bytes.buffer as ArrayBuffer });
    return;
  }
  const text = decoder.decode(message.bytes);
  let index = 0;
  let start = 0;
  const end = text.length;
  while (start < end) {
    let newline = text.indexOf("\n", start);
    if (newline < 0) newline = end;
    const line = text.slice(start, lineEnd(text, start, newline));
    if (!tally.add(line) && bad.length < BAD_SAMPLES) bad.push({ index, text: line.slice(0, SAMPLE_CHARS) });
    index++;
    start = newline + 1;
  }
  reply({ type: "done", seq: message.seq, lines: index, bad, buffer: message.bytes.buffer as ArrayBuffer });
});
