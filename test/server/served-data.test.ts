// Downloads serve the pair the engine answers from: a new pair that does not load changes neither.

import { copyFile, mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { silentLogger } from "../../src/logger.js";
import { createApiHttpServer } from "../../src/server/api-http-server.js";
import { servedFiles } from "../../src/server/served-data.js";
import type { SyncDownloadOptions } from "../../src/store/data-source.js";
import { DataStore } from "../../src/store/data-store.js";
import { switchToBrokenPair } from "../support/data-dir.js";
import { digestHeader } from "./digest-header.js";

const SAMPLE_SPECS = "data/sample/sample-specs.json";
const SAMPLE_TREES = "data/sample/sample-trees.json";
const user = { username: "alice", secret: "s3cret", downloads: true };

let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "hd3-served-data-"));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** A source that "downloads" local files. */
function copying(specs: string, trees: string) {
  const copy = (from: string) => async (options: SyncDownloadOptions) => {
    const bytes = await readFile(from);
    await writeFile(options.toFile, bytes);
    return { file: options.toFile, bytes: bytes.length };
  };
  return { fetchSpecs: copy(specs), fetchTrees: copy(trees) };
}

async function call(base: string, path: string) {
  const uri = `/apiv3/site/${path}/1.json`;
  const response = await fetch(base + uri, {
    method: "POST",
    headers: { authorization: digestHeader(user.username, user.secret, "POST", uri) },
    body: "{}",
  });
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** A served file as a download: its bytes with status and message spliced in before the last brace. */
async function asDownload(file: string): Promise<string> {
  const text = await readFile(file, "utf8");
  const at = text.lastIndexOf("}");
  return `${text.slice(0, at)},"message":"OK","status":0${text.slice(at)}`;
}

describe("downloads from a data directory", () => {
  it("serve the pair the engine answers from after a new pair was refused, and follow the next good one", async () => {
    const dir = join(scratch, "refused");
    const store = new DataStore({ dir, source: copying(SAMPLE_SPECS, SAMPLE_TREES), logger: silentLogger });
    await store.sync();
    const engine = store.engine as LocalEngine;
    const inUse = { specs: engine.dataInfo.specsFile ?? "", trees: engine.dataInfo.treesFile ?? "" };
    const server = createApiHttpServer({ engine, users: [user], dataDir: dir, logger: silentLogger });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      // A bad new pair: the pointer names it, and the flat copies hold it too.
      const broken = switchToBrokenPair(dir);
      await writeFile(join(dir, "hd3trees.json"), await readFile(broken));
      await expect(store.loadCurrentData()).rejects.toMatchObject({ code: "ERR_HD_DATA" });

      const trees = await call(base, "fetchtrees");
      expect(trees.status).toBe(200);
      expect(trees.bytes.toString("utf8")).toBe(await asDownload(inUse.trees));
      const specs = await call(base, "fetchspecs");
      expect(specs.bytes.toString("utf8")).toBe(await asDownload(inUse.specs));
      expect((await call(base, "fetcharchive")).status).toBe(200);

      // The next good sync: the engine takes it, and the downloads with it.
      const next = join(scratch, "next-trees.json");
      const sample = JSON.parse(await readFile(SAMPLE_TREES, "utf8"));
      await writeFile(
        next,
        JSON.stringify({ ...sample, _notice: { ...sample._notice, generated: "2031-01-01 00:00:00" } }),
      );
      const later = new DataStore({ dir, source: copying(SAMPLE_SPECS, next), logger: silentLogger });
      await later.sync();
      engine.replaceData(await later.loadCurrentData());
      expect(engine.dataInfo.treesFile).not.toBe(inUse.trees);
      expect((await call(base, "fetchtrees")).bytes.toString("utf8")).toContain("2031-01-01 00:00:00");
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("in a directory without a pointer, never serve a pair written over the engine's that it refused", async () => {
    const dir = join(scratch, "pointerless");
    await mkdir(dir);
    await copyFile(SAMPLE_SPECS, join(dir, "hd3specs.json"));
    await copyFile(SAMPLE_TREES, join(dir, "hd3trees.json"));
    const store = new DataStore({ dir, logger: silentLogger });
    const engine = await store.load();
    const server = createApiHttpServer({ engine, users: [user], dataDir: dir, logger: silentLogger });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect((await call(base, "fetchtrees")).status).toBe(200);
      // A trees file that does not load, renamed over the one the engine answers from.
      await writeFile(join(dir, "hd3trees.json.new"), '{"trees": {"user-agent0": ');
      await rename(join(dir, "hd3trees.json.new"), join(dir, "hd3trees.json"));
      await expect(store.loadCurrentData()).rejects.toMatchObject({ code: "ERR_HD_DATA" });
      for (const download of ["fetchtrees", "fetchspecs", "fetcharchive"]) {
        const reply = await call(base, download);
        expect(reply.status, download).toBe(503);
        expect(reply.bytes.toString("utf8"), download).not.toContain('"user-agent0": ');
      }
      // A good pair again: the engine takes it, and the downloads follow.
      await copyFile(SAMPLE_TREES, join(dir, "hd3trees.json"));
      engine.replaceData(await store.loadCurrentData());
      expect((await call(base, "fetchtrees")).status).toBe(200);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("serve the pair the directory selects when the engine was not loaded from it, and named files as they are", async () => {
    const dir = join(scratch, "selected");
    const store = new DataStore({ dir, source: copying(SAMPLE_SPECS, SAMPLE_TREES), logger: silentLogger });
    await store.sync();
    const current = await store.loadCurrentData();
    const elsewhere = await LocalEngine.fromFiles(SAMPLE_SPECS, SAMPLE_TREES, { logger: silentLogger });
    expect(await servedFiles(elsewhere, dir, { specsFile: undefined, treesFile: undefined })).toEqual({
      specsFile: current.info.specsFile,
      treesFile: current.info.treesFile,
    });
    expect(await servedFiles(elsewhere, dir, { specsFile: "/x/specs.json", treesFile: undefined })).toEqual({
      specsFile: "/x/specs.json",
      treesFile: current.info.treesFile,
    });
    expect(await servedFiles(elsewhere, undefined, { specsFile: undefined, treesFile: undefined })).toEqual({
      specsFile: undefined,
      treesFile: undefined,
    });
  });
});
