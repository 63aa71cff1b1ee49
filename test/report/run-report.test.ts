// runReport(): files, gzip, stdin and several inputs through worker threads give createReport's counts; an abort keeps what was counted.

import { createReadStream, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { sampleDataFiles, sampleEngine } from "../../src/engine/sample-engine.js";
import { createReport } from "../../src/report/report.js";
import { resolveReportOptions } from "../../src/report/report-options.js";
import type { ReportResult } from "../../src/report/result.js";
import { type ReportInput, runReport } from "../../src/report/run-report.js";
import { scratchForFile } from "../cli/support/hd3-binary.js";
import { combinedLine, realisticMix } from "../support/access-log.js";
import { seededRandom } from "../support/seeded-random.js";
import { IPHONE_SAFARI_UA } from "../support/user-agents.js";

const scratch = scratchForFile("hd-report-");
const dir = scratch.scratch("logs");
const { specsPath, treesPath } = sampleDataFiles();
const DATA = { specsPath, treesPath, label: "sample" };
const T = Date.UTC(2026, 9, 1);

/** 30,000 lines of a realistic mix over two days, every 1,000th line broken: several chunks per worker. */
function mixLines(): string[] {
  const next = realisticMix(3000, 0.05, 7);
  const lines: string[] = [];
  for (let i = 0; i < 30_000; i++) {
    lines.push(
      i % 1000 === 999 ? `broken line ${i}` : combinedLine(T + i * 6000, i % 2 ? "/shop/" : "/", next()),
    );
  }
  return lines;
}

const LINES = mixLines();
const TEXT = `${LINES.join("\n")}\n`;

function fileInput(name: string, content: string | Buffer): ReportInput {
  const path = join(dir, name);
  writeFileSync(path, content);
  return {
    name,
    open: () => createReadStream(path, { highWaterMark: 64 * 1024 }),
    size: Buffer.byteLength(content),
  };
}

/** The parts of a report that do not depend on how the lines were read. */
function figures(result: ReportResult) {
  const { generatedAt: _, input, data: __, ...rest } = result;
  return {
    ...rest,
    input: { ...input, files: [], badSamples: input.badSamples.map((s) => [s.line, s.text]) },
  };
}

const inThread = (() => {
  const report = createReport({ engine: sampleEngine(), format: "combined" });
  for (const line of LINES) report.add(line);
  return report.result();
})();

const options = resolveReportOptions({});

describe("runReport", () => {
  it("counts a file in worker threads as createReport does in this one", async () => {
    const result = await runReport([fileInput("access.log", TEXT)], { options, data: DATA, workers: 2 });
    expect(result.input.files).toEqual(["access.log"]);
    expect(result.input.badLines).toBe(30);
    expect(result.input.badSamples.slice(0, 2)).toEqual([
      { input: "access.log", line: 1000, text: "broken line 999" },
      { input: "access.log", line: 2000, text: "broken line 1999" },
    ]);
    expect(figures(result)).toEqual(figures(inThread));
  });

  it("counts mangled lines as createReport does: the same lines parse, with the same fields", async () => {
    const random = seededRandom(28);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    const agents = [IPHONE_SAFARI_UA, "-", "", 'a\\"b', "x\\x22y", "é ü 中文"];
    const bits = [
      '"',
      "\\",
      '\\"',
      "\\x22",
      " ",
      "[",
      "]",
      "-",
      "\t",
      "\r",
      "é",
      "ÿ",
      "😀",
      "0",
      "Oct",
      "+0000",
    ];
    const lines = Array.from({ length: 3000 }, () => {
      let line = combinedLine(T + Math.floor(random() * 5e8), pick(["/", "/shop/x"]), pick(agents));
      for (let edits = Math.floor(random() * 4); edits > 0; edits--) {
        const at = Math.floor(random() * (line.length + 1));
        const edit = pick(["insert", "replace", "delete", "cut"]);
        if (edit === "insert") line = line.slice(0, at) + pick(bits) + line.slice(at);
        else if (edit === "replace") line = line.slice(0, at) + pick(bits) + line.slice(at + 1);
        else if (edit === "delete") line = line.slice(0, at) + line.slice(at + 1 + Math.floor(random() * 3));
        else line = line.slice(0, at);
      }
      return line;
    });
    // As a UTF-8 file holds it: an emoji cut in half reads as U+FFFD on both sides.
    const text = Buffer.from(`${lines.join("\n")}\n`).toString("utf8");
    for (const filters of [{}, { pathPrefix: "/shop" }, { since: T + 1e8 }]) {
      const inWorkers = await runReport([fileInput("mangled.log", text)], {
        options: resolveReportOptions({ format: "combined", ...filters }),
        data: DATA,
        workers: 2,
      });
      const report = createReport({ engine: sampleEngine(), format: "combined", ...filters });
      for (const line of text.split("\n").slice(0, -1)) report.add(line);
      expect(inWorkers.input.badLines).toBeGreaterThan(500);
      expect(figures(inWorkers)).toEqual(figures(report.result()));
    }
  });

  it("unpacks gzip, from a .gz file and from stdin alike", async () => {
    const packed = gzipSync(TEXT);
    const stdin: ReportInput = {
      name: "-",
      open: () => Readable.from([packed.subarray(0, 1000), packed.subarray(1000)]),
      size: undefined,
    };
    const fromFile = await runReport([fileInput("access.log.gz", packed)], {
      options,
      data: DATA,
      workers: 1,
    });
    const fromStdin = await runReport([stdin], { options, data: DATA, workers: 2 });
    expect(figures(fromFile)).toEqual(figures(inThread));
    expect(figures(fromStdin)).toEqual(figures(inThread));
  });

  it("reads several inputs of different formats and numbers bad lines per input", async () => {
    const json = `${JSON.stringify({ time: T, req: { url: "/", headers: { "user-agent": IPHONE_SAFARI_UA } } })}\nnot json\n`;
    const result = await runReport([fileInput("a.log", "bad\n"), fileInput("b.jsonl", json)], {
      options,
      data: DATA,
      workers: 2,
    });
    expect(result.input).toMatchObject({ formats: ["combined", "json"], lines: 3, badLines: 2, requests: 1 });
    expect(result.input.badSamples).toEqual([
      { input: "a.log", line: 1, text: "bad" },
      { input: "b.jsonl", line: 2, text: "not json" },
    ]);
  });

  it("reads a line longer than a chunk, and a last line without its newline", async () => {
    const long = "x".repeat(3 * 1024 * 1024);
    const content = `${LINES[0]}\n${long}\n${LINES[1]}`;
    const fromFile = await runReport([fileInput("long.log", content)], { options, data: DATA, workers: 1 });
    const stream: ReportInput = {
      name: "-",
      open: () => Readable.from([Buffer.from(content)]),
      size: undefined,
    };
    const fromStream = await runReport([stream], { options, data: DATA, workers: 1 });
    for (const result of [fromFile, fromStream]) {
      expect(result.input).toMatchObject({ lines: 3, requests: 2, badLines: 1 });
      expect(result.input.badSamples[0]).toMatchObject({ line: 2, text: "x".repeat(500) });
    }
  });

  it("says when gzip is broken, naming the input", async () => {
    const broken = gzipSync(TEXT).subarray(0, 5000);
    await expect(
      runReport([fileInput("cut.gz", broken)], { options, data: DATA, workers: 1 }),
    ).rejects.toMatchObject({
      code: "ERR_HD_DATA",
      message: expect.stringContaining("cut.gz"),
    });
  });

  it("stops on abort and reports what was counted, marked interrupted", async () => {
    const stdin = new PassThrough();
    stdin.write(`${LINES.slice(0, 100).join("\n")}\n`);
    const controller = new AbortController();
    let seen = 0;
    // The pipe stays open and quiet, as under Ctrl-C on `tail -f access.log | hd3 report -`.
    setTimeout(() => controller.abort(), 200);
    const result = await runReport([{ name: "-", open: () => stdin, size: undefined }], {
      options,
      data: DATA,
      workers: 1,
      signal: controller.signal,
      onProgress: (progress) => {
        seen = progress.lines;
      },
    });
    expect(result.interrupted).toBe(true);
    expect(result.input.lines).toBe(100);
    expect(seen).toBe(100);
  });
});
