// A sync whose engine snapshot cannot be written still succeeds: the pair is the truth, the failure a warning.

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HdDataError } from "../../src/errors.js";
import type { Logger } from "../../src/logger.js";
import { DataStore, POINTER_FILE_NAME, SNAPSHOT_FILE_NAME } from "../../src/store/data-store.js";
import { specsDownload, treesText } from "../engine/fixtures.js";

vi.mock("../../src/engine/snapshot-writer.js", () => ({
  writeSnapshotFile: async (_data: unknown, file: string) => {
    throw new HdDataError(`${file}: cannot write the engine snapshot (ENOSPC: no space left on device)`, {
      file,
    });
  },
}));

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hd-store-snapshot-write-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("a sync whose snapshot cannot be written", () => {
  it("switches to the new pair all the same, warns, and the pair loads without a snapshot", async () => {
    const specs = JSON.stringify(specsDownload({ "1": { general_model: "Written" } }));
    const trees = treesText('{"user-agent0":{"1":{"nokia":{"nokia":"1"}}}}');
    const warnings: string[] = [];
    const logger: Logger = {
      warn: (_message, details) => {
        warnings.push(String((details as { code?: unknown } | undefined)?.code));
      },
    };
    const store = new DataStore({
      dir,
      logger,
      source: {
        fetchSpecs: async ({ toFile }) => {
          writeFileSync(toFile, specs);
          return { file: toFile, bytes: specs.length };
        },
        fetchTrees: async ({ toFile }) => {
          writeFileSync(toFile, trees);
          return { file: toFile, bytes: trees.length };
        },
      },
    });
    await store.sync();
    expect(warnings).toContain("HD_STORE_SNAPSHOT_WRITE");
    const { current } = JSON.parse(readFileSync(join(dir, POINTER_FILE_NAME), "utf8")) as {
      current: { generation: string };
    };
    expect(existsSync(join(dir, current.generation, SNAPSHOT_FILE_NAME))).toBe(false);
    const reader = new DataStore({ dir, logger });
    await reader.load();
    expect(reader.engine?.detect({ "user-agent": "Nokia" }).hd_specs?.general_model).toBe("Written");
  });
});
