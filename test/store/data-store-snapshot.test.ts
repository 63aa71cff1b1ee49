// Tests of the engine snapshot in a data directory: each sync writes one, loads prefer it, and a bad one gives way to the pair.

import { copyFileSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SNAPSHOT_FORMAT } from "../../src/engine/snapshot-format.js";
import { type Logger, silentLogger } from "../../src/logger.js";
import type { DataSource } from "../../src/store/data-source.js";
import { DataStore, POINTER_FILE_NAME, SNAPSHOT_FILE_NAME } from "../../src/store/data-store.js";
import { specsDownload, treesText } from "../engine/fixtures.js";

const specs = (model: string) => JSON.stringify(specsDownload({ "1": { general_model: model } }));
const trees = treesText('{"user-agent0":{"1":{"nokia":{"nokia":"1"}}}}');

function source(specsText: string, treesTextValue = trees): DataSource {
  return {
    fetchSpecs: async ({ toFile }) => {
      writeFileSync(toFile, specsText);
      return { file: toFile, bytes: Buffer.byteLength(specsText) };
    },
    fetchTrees: async ({ toFile }) => {
      writeFileSync(toFile, treesTextValue);
      return { file: toFile, bytes: Buffer.byteLength(treesTextValue) };
    },
  };
}

/** A logger that keeps the codes of the store's warnings (the fixtures' trees lack some trees: not the store's). */
function recordingLogger(): Logger & { codes: string[] } {
  const codes: string[] = [];
  return {
    codes,
    warn(_message, details) {
      const code = String((details as { code?: unknown } | undefined)?.code);
      if (code.startsWith("HD_STORE_")) codes.push(code);
    },
  };
}

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hd-store-snapshot-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const generation = (which: "current" | "previous" = "current"): string =>
  (JSON.parse(readFileSync(join(dir, POINTER_FILE_NAME), "utf8")) as Record<string, { generation: string }>)[
    which
  ]?.generation as string;
const snapshotOf = (name: string) => join(dir, name, SNAPSHOT_FILE_NAME);
const model = (store: DataStore) => store.engine?.detect({ "user-agent": "Nokia" }).hd_specs?.general_model;

describe("the engine snapshot of a data directory", () => {
  it("is written by each sync into its generation, and a load takes it", async () => {
    await new DataStore({ dir, source: source(specs("Synced")), logger: silentLogger }).sync();
    const name = generation();
    const logger = recordingLogger();
    const store = new DataStore({ dir, logger });
    await store.load();
    expect(model(store)).toBe("Synced");
    expect(store.engine?.dataInfo).toMatchObject({
      snapshotFile: snapshotOf(name),
      specsFile: join(dir, name, "hd3specs.json"),
      treesFile: join(dir, name, "hd3trees.json"),
      fileSignatures: { specs: expect.any(String), trees: expect.any(String) },
    });
    expect(logger.codes).toEqual([]);
  });

  it("is what a reload after a sync takes: the new generation's", async () => {
    const syncing = new DataStore({ dir, source: source(specs("First")), logger: silentLogger });
    await syncing.sync();
    const follower = new DataStore({ dir, logger: silentLogger });
    await follower.load();
    await syncing.sync().then(() => new DataStore({ dir, source: source(specs("Second!")) }).sync());
    const data = await follower.loadCurrentData();
    expect(data.info.snapshotFile).toBe(snapshotOf(generation()));
    expect(data.info.devices).toBe(1);
  });

  it("gives way to the JSON pair, silently, where a generation has none", async () => {
    await new DataStore({ dir, source: source(specs("Plain")), logger: silentLogger }).sync();
    unlinkSync(snapshotOf(generation()));
    const logger = recordingLogger();
    const store = new DataStore({ dir, logger });
    await store.load();
    expect(model(store)).toBe("Plain");
    expect(store.engine?.dataInfo.snapshotFile).toBeUndefined();
    expect(logger.codes).toEqual([]);
  });

  const damages: [string, (file: string) => void][] = [
    ["truncated", (file) => writeFileSync(file, readFileSync(file).subarray(0, 1000))],
    [
      "damaged",
      (file) => {
        const bytes = readFileSync(file);
        bytes[bytes.length >> 1] = (bytes[bytes.length >> 1] as number) ^ 0xff;
        writeFileSync(file, bytes);
      },
    ],
    [
      "of another format",
      (file) => {
        const bytes = readFileSync(file);
        bytes.writeUInt32LE(SNAPSHOT_FORMAT + 1, 8);
        writeFileSync(file, bytes);
      },
    ],
    ["empty", (file) => writeFileSync(file, "")],
    ["of another kind", (file) => writeFileSync(file, trees)],
  ];
  for (const [what, damage] of damages) {
    it(`gives way to the JSON pair with a warning when it is ${what}`, async () => {
      await new DataStore({ dir, source: source(specs("Sound")), logger: silentLogger }).sync();
      damage(snapshotOf(generation()));
      const logger = recordingLogger();
      const store = new DataStore({ dir, logger });
      await store.load();
      expect(model(store)).toBe("Sound");
      expect(store.engine?.dataInfo.snapshotFile).toBeUndefined();
      expect(logger.codes).toEqual(["HD_STORE_SNAPSHOT_UNUSED"]);
    });
  }

  it("gives way to the JSON pair with a warning when it was made from another pair (stale)", async () => {
    const store = new DataStore({ dir, source: source(specs("Old")), logger: silentLogger });
    await store.sync();
    await new DataStore({ dir, source: source(specs("Newer and longer")), logger: silentLogger }).sync();
    copyFileSync(snapshotOf(generation("previous")), snapshotOf(generation()));
    const logger = recordingLogger();
    const reader = new DataStore({ dir, logger });
    await reader.load();
    expect(model(reader)).toBe("Newer and longer");
    expect(logger.codes).toEqual(["HD_STORE_SNAPSHOT_UNUSED"]);
  });
});
