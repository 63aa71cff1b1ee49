// Tests of engine snapshots: written whole, read back answering exactly alike, and every bad file a typed error.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { crc32, crc32InJs } from "../../src/engine/crc32.js";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { sampleEngine } from "../../src/engine/sample-engine.js";
import { runToEnd } from "../../src/engine/slices.js";
import {
  BLOCKS,
  DIRECTORY_ENTRY_BYTES,
  HEADER,
  SNAPSHOT_FORMAT,
  SNAPSHOT_MAGIC,
} from "../../src/engine/snapshot-format.js";
import { snapshotBytesSteps } from "../../src/engine/snapshot-writer.js";
import { HdDataError } from "../../src/errors.js";
import { type Logger, silentLogger } from "../../src/logger.js";
import type { HeadersInput } from "../../src/types.js";
import { RULE_TREES, ruleSpecs, specsDownload, treesText } from "./fixtures.js";
import { expectSameAnswers } from "./same-answers.js";

/** Header sets that reach every kind of answer of the rule trees: each step, 255, 301, extras, odd keys. */
const RULE_HEADERS: HeadersInput[] = [
  { "user-agent": "Nokia6620 browser" },
  { "user-agent": "NOKIA 6620 Android 2.3 Mobile Safari" },
  { "user-agent": "Android GalaxyXYZ android2.3 safari" },
  { "user-agent": "linux linuxphone emptyplat emptybrowser" },
  { "user-agent": "abcd12345 plat+browser foo,bar" },
  { "user-agent": "12345 10.0.0.1" },
  { "user-agent": "headerorder uamatch", "x-operamini-phone-ua": "headerorder opuamatch opera-ua" },
  { "user-agent": "headerorder uamatch", "x-mobile-ua": "headerorder mobuamatch" },
  { "user-agent": "x", "x-aaa": "headerorder xaaamatch", "x-bbb": "headerorder xbbbmatch" },
  { "user-agent": "constructor tostring __proto__" },
  { "user-agent": "ab é ab" },
  { "user-agent": "é é é é é" },
  { "user-agent": "missing missingrecord" },
  { "user-agent": "genericphone generic" },
  { "user-agent": "mobuamatch" },
  { "user-agent": "ab" },
  { "user-agent": "" },
  { profile: "http://example.com/a.xml" },
  { "x-wap-profile": "HTTP://EXAMPLE.COM/PROFILE.XML", "user-agent": "nothing here" },
  { profile: "constructor" },
  { profile: "__proto__" },
  { "x-operamini-phone": "Nokia # 6620", "user-agent": "Opera Mini" },
  { "x-operamini-phone": "? # ?", "user-agent": "Nokia6620" },
  { "X-OperaMini-Phone": "Nokia N95" },
  { "user-agent": ["Nokia6620", "second value"] },
  { accept: "text/html" },
];

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hd-snapshot-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function ruleEngine(options: { matcher?: "compiled" | "naive" } = {}): LocalEngine {
  return LocalEngine.fromData(JSON.stringify(ruleSpecs()), RULE_TREES, { logger: silentLogger, ...options });
}

/** A logger that keeps the codes of the warnings it is given. */
function recordingLogger(): Logger & { codes: string[] } {
  const codes: string[] = [];
  return {
    codes,
    warn(_message, details) {
      codes.push(String((details as { code?: unknown } | undefined)?.code));
    },
  };
}

async function roundTrip(engine: LocalEngine, options: { matcher?: "compiled" | "naive" } = {}) {
  const file = join(dir, "engine.snapshot");
  await engine.writeSnapshot(file);
  return LocalEngine.fromSnapshot(file, { logger: silentLogger, ...options });
}

describe("engine.writeSnapshot and LocalEngine.fromSnapshot", () => {
  it("give an engine that answers every call as the one that wrote it", async () => {
    const engine = ruleEngine();
    const loaded = await roundTrip(engine);
    expectSameAnswers(engine, loaded, RULE_HEADERS);
    expect(loaded.detect({ "user-agent": "missing missingrecord" }).status).toBe(255);
    expect(loaded.detect({ "user-agent": "ab é ab" }).hd_specs).toBeDefined();
  });

  it("answers the same on the sample database, every user-agent of it", async () => {
    const engine = sampleEngine({ logger: silentLogger });
    const sample = JSON.parse(
      readFileSync(new URL("../../data/sample/useragents.json", import.meta.url), "utf8"),
    ) as {
      devices: Record<string, { userAgents: string[] }>;
    };
    const headerSets = Object.values(sample.devices).flatMap((device) =>
      device.userAgents.map((userAgent) => ({ "user-agent": userAgent })),
    );
    expectSameAnswers(engine, await roundTrip(engine), headerSets);
  });

  it("keeps records exactly, fields of any JSON value and keys like __proto__ included", async () => {
    const specs = specsDownload({ "1": {} }) as unknown as {
      devices: { Device: { hd_specs: Record<string, unknown> } }[];
    };
    const record = specs.devices[0]?.Device.hd_specs as Record<string, unknown>;
    record.extra_number = 12.5;
    record.extra_object = { a: [1, "two", null], b: { c: true } };
    record.extra_mixed = ["x", 3];
    record.extra_empty = "";
    record["7"] = "integer-like key";
    Object.defineProperty(record, "__proto__", {
      value: "proto",
      enumerable: true,
      writable: true,
      configurable: true,
    });
    record.general_model = "Ünïcode ☃ \ud800 model";
    const engine = LocalEngine.fromData(
      JSON.stringify(specs),
      treesText('{"user-agent0":{"1":{"abcd":{"abcd":"1"}}}}'),
      { logger: silentLogger },
    );
    const loaded = await roundTrip(engine);
    expect(loaded.devices()).toEqual(engine.devices());
    expect(Object.keys(loaded.devices()[0] ?? {})).toEqual(Object.keys(engine.devices()[0] ?? {}));
    expect(Object.getPrototypeOf(loaded.devices()[0])).toBe(Object.prototype);
    expect(Object.isFrozen(loaded.devices()[0])).toBe(true);
    expectSameAnswers(engine, loaded, [{ "user-agent": "abcd" }]);
  });

  it("says again what the JSON load warned about, once each", async () => {
    const trees = JSON.parse(RULE_TREES) as object;
    const engine = LocalEngine.fromData(ruleSpecs(), trees as never, { logger: silentLogger });
    const file = join(dir, "warned.snapshot");
    await engine.writeSnapshot(file);
    const logger = recordingLogger();
    const loaded = await LocalEngine.fromSnapshot(file, { logger });
    expect(logger.codes.sort()).toEqual(["HD_ENGINE_MISSING_DEVICES", "HD_ENGINE_REORDERED_KEYS"]);
    expect(loaded.dataInfo.reorderedKeys).toBe(engine.dataInfo.reorderedKeys);
    expectSameAnswers(engine, loaded, RULE_HEADERS);
  });

  it("writes the tables of a naive engine too, and reads a snapshot with either matcher", async () => {
    const naive = ruleEngine({ matcher: "naive" });
    const compiled = await roundTrip(naive);
    expect(compiled.dataInfo.matcher).toBe("compiled");
    expectSameAnswers(naive, await roundTrip(naive, { matcher: "naive" }), RULE_HEADERS);
    const asCompiled = await roundTrip(naive);
    for (const headers of RULE_HEADERS) expect(asCompiled.explain(headers)).toEqual(naive.explain(headers));
  });

  it("writes the same bytes for the same data, whatever the engine has detected since", () => {
    const engine = ruleEngine();
    const before = runToEnd(snapshotBytesSteps(getData(engine)));
    for (const headers of RULE_HEADERS) engine.detect(headers);
    const after = runToEnd(snapshotBytesSteps(getData(engine)));
    expect(Buffer.compare(Buffer.from(before), Buffer.from(after))).toBe(0);
  });

  it("names the snapshot in dataInfo and keeps load facts of its own", async () => {
    const file = join(dir, "info.snapshot");
    await ruleEngine().writeSnapshot(file);
    const loaded = await LocalEngine.fromSnapshot(file, { logger: silentLogger });
    expect(loaded.dataInfo).toMatchObject({ snapshotFile: file, specsFile: undefined, matcher: "compiled" });
    expect(loaded.dataInfo.loadMs).toBeGreaterThanOrEqual(0);
  });

  it("replaces a file whole and leaves no temporary file behind", async () => {
    const file = join(dir, "engine.snapshot");
    writeFileSync(file, "an older file");
    const written = await ruleEngine().writeSnapshot(file);
    expect(written).toEqual({ file, bytes: readFileSync(file).length });
    expect(readdirSync(dir)).toEqual(["engine.snapshot"]);
  });

  it("fails with HdDataError naming the file when it cannot write, and writes nothing", async () => {
    const file = join(dir, "no-such-dir", "engine.snapshot");
    await expect(ruleEngine().writeSnapshot(file)).rejects.toMatchObject({ code: "ERR_HD_DATA", file });
    expect(existsSync(join(dir, "no-such-dir"))).toBe(false);
  });

  it("validates its options as the other loaders do", async () => {
    const file = join(dir, "engine.snapshot");
    await ruleEngine().writeSnapshot(file);
    await expect(LocalEngine.fromSnapshot(file, { matcher: "fast" as "naive" })).rejects.toMatchObject({
      code: "ERR_HD_INVALID_OPTION",
      option: "matcher",
    });
  });
});

function getData(engine: LocalEngine) {
  return (engine as unknown as { data: Parameters<typeof snapshotBytesSteps>[0] }).data;
}

/** Recomputes both checksums of snapshot bytes, as a crafted file would carry them. */
function withChecksums(bytes: Buffer): Buffer {
  const tablesAt = bytes.readUInt32LE(HEADER.bytes + (BLOCKS.length - 1) * DIRECTORY_ENTRY_BYTES);
  let front = crc32(bytes.subarray(0, HEADER.crcFields));
  front = crc32(bytes.subarray(HEADER.bytes, tablesAt), front);
  bytes.writeUInt32LE(front, HEADER.frontCrc);
  bytes.writeUInt32LE(crc32(bytes.subarray(tablesAt)), HEADER.tablesCrc);
  return bytes;
}

/** Where a block lies in snapshot bytes. */
function blockAt(bytes: Buffer, name: (typeof BLOCKS)[number]): { offset: number; length: number } {
  const i = BLOCKS.indexOf(name);
  return {
    offset: bytes.readUInt32LE(HEADER.bytes + i * DIRECTORY_ENTRY_BYTES),
    length: bytes.readUInt32LE(HEADER.bytes + i * DIRECTORY_ENTRY_BYTES + 4),
  };
}

describe("a snapshot that cannot be used", () => {
  let good: Buffer;
  beforeEach(() => {
    good = Buffer.from(runToEnd(snapshotBytesSteps(getData(ruleEngine()))));
  });

  /** Loads `bytes` as a snapshot, asynchronously and through sampleEngine's synchronous path alike. */
  async function loadError(bytes: Buffer | string): Promise<HdDataError> {
    const file = join(dir, "bad.snapshot");
    writeFileSync(file, bytes);
    const error = await LocalEngine.fromSnapshot(file, { logger: silentLogger }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(HdDataError);
    expect(error).toMatchObject({ code: "ERR_HD_DATA", file });
    return error as HdDataError;
  }

  it("is an empty file", async () => {
    expect((await loadError(Buffer.alloc(0))).message).toMatch(/empty/);
  });

  it("is a file of another kind: JSON, text, a few bytes, random bytes", async () => {
    await loadError(JSON.stringify(ruleSpecs()));
    await loadError("hello");
    await loadError(Buffer.from([0x89]));
    const random = Buffer.alloc(4096);
    for (let i = 0; i < random.length; i++) random[i] = (i * 2654435761) >>> 24;
    expect((await loadError(random)).message).toMatch(/not an engine snapshot/);
  });

  it("is of another format version", async () => {
    const other = Buffer.from(good);
    other.writeUInt32LE(SNAPSHOT_FORMAT + 1, HEADER.format);
    expect((await loadError(other)).message).toMatch(new RegExp(`format ${SNAPSHOT_FORMAT + 1}`));
  });

  it("is truncated anywhere", async () => {
    for (const size of [
      4,
      HEADER.bytes - 1,
      HEADER.bytes,
      HEADER.bytes + 9,
      good.length >> 1,
      good.length - 1,
    ]) {
      await loadError(good.subarray(0, size));
    }
    expect((await loadError(good.subarray(0, good.length - 100))).message).toMatch(/truncated/);
  });

  it("has bytes added", async () => {
    await loadError(Buffer.concat([good, Buffer.from([0])]));
  });

  it("has a byte flipped anywhere: header, directory, blocks, tables", async () => {
    const step = Math.max(1, Math.floor(good.length / 97));
    for (let at = SNAPSHOT_MAGIC.length; at < good.length; at += step) {
      const bad = Buffer.from(good);
      bad[at] = (bad[at] as number) ^ 0x10;
      await loadError(bad);
    }
  });

  it("has a checksum flipped", async () => {
    for (const at of [HEADER.frontCrc, HEADER.tablesCrc]) {
      const bad = Buffer.from(good);
      bad[at] = (bad[at] as number) ^ 1;
      expect((await loadError(bad)).message).toMatch(/checksum/);
    }
  });

  it("was crafted with good checksums but tables that lead outside themselves", async () => {
    const { offset } = blockAt(good, "tables");
    for (const value of [-0x7fffffff, 0x7ffffff0, 3, 0x40000 + 4]) {
      const bad = Buffer.from(good);
      // The root's second column: a transition.
      bad.writeInt32LE(value, offset + 4);
      expect((await loadError(withChecksums(bad))).message).toMatch(/damaged/);
    }
  });

  it("was crafted with good checksums but rule or device numbers that name what is not there", async () => {
    for (const [name, value] of [
      ["stepDevice", 99_999],
      ["recordEnds", -1],
      ["platformRuleSource", 4096],
    ] as const) {
      const bad = Buffer.from(good);
      const { offset, length } = blockAt(bad, name);
      expect(length).toBeGreaterThan(0);
      bad.writeInt32LE(value, offset);
      expect((await loadError(withChecksums(bad))).message).toMatch(/damaged/);
    }
  });

  it("was crafted with good checksums but keys, ids or records that name what is not there: an HdDataError when first read", async () => {
    for (const [name, value, read] of [
      ["deviceIds", 99_999, (engine: LocalEngine) => engine.whatHas("general_vendor", "v")],
      ["deviceVendors", -2, (engine: LocalEngine) => engine.vendors()],
      ["ua0.ruleFilter", -5, (engine: LocalEngine) => engine.explain({ "user-agent": "Nokia6620" })],
      ["ua0.ruleMatch", 1 << 30, (engine: LocalEngine) => engine.explain({ "user-agent": "Nokia6620" })],
      ["profile0.keys", -1, (engine: LocalEngine) => engine.detect({ profile: "http://example.com/a.xml" })],
      ["records", 0x7fffffff, (engine: LocalEngine) => engine.devices()],
    ] as const) {
      const bad = Buffer.from(good);
      const { offset } = blockAt(bad, name);
      bad.writeInt32LE(value, offset);
      const file = join(dir, "crafted.snapshot");
      writeFileSync(file, withChecksums(bad));
      const engine = await LocalEngine.fromSnapshot(file, { logger: silentLogger });
      // Detection works on (the record of device 14 is not the first, which "records" damages).
      expect(engine.detect({ "user-agent": "linux linuxphone" }).status).toBe(0);
      expect(() => read(engine)).toThrow(expect.objectContaining({ code: "ERR_HD_DATA", file }));
    }
  });

  it("is missing, a directory, or unreadable: HdDataError naming the file", async () => {
    await expect(LocalEngine.fromSnapshot(join(dir, "none.snapshot"))).rejects.toMatchObject({
      code: "ERR_HD_DATA",
      file: join(dir, "none.snapshot"),
    });
    await expect(LocalEngine.fromSnapshot(dir)).rejects.toMatchObject({ code: "ERR_HD_DATA", file: dir });
  });
});

describe("crc32", () => {
  it("gives the zlib CRC-32 in JavaScript as natively, continued or in one go, empty parts included", () => {
    const text = Buffer.from("The quick brown fox jumps over the lazy dog");
    expect(crc32(text)).toBe(0x414fa339);
    expect(crc32InJs(text)).toBe(0x414fa339);
    const empty = new Uint8Array(new ArrayBuffer(0));
    expect(crc32(text.subarray(10), crc32(empty, crc32(text.subarray(0, 10))))).toBe(0x414fa339);
    expect(crc32InJs(text.subarray(10), crc32InJs(text.subarray(0, 10)))).toBe(0x414fa339);
  });
});
