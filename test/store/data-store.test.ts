import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HdLicenceError, HdNetworkError } from "../../src/errors.js";
import { silentLogger } from "../../src/logger.js";
import type { DataSource, SyncDownloadOptions } from "../../src/store/data-source.js";
import {
  DataStore,
  hasCachedData,
  PREVIOUS_SUFFIX,
  SPECS_FILE_NAME,
  TREES_FILE_NAME,
} from "../../src/store/data-store.js";
import { nodeStoreFileSystem, type StoreFileSystem } from "../../src/store/store-fs.js";
import { specsDownload, treesText } from "../engine/fixtures.js";

const OLD_SPECS = JSON.stringify(specsDownload({ "1": { general_model: "Old" } }));
const OLD_TREES = treesText('{"user-agent0":{"1":{"nokia":{"nokia":"1"}}}}');
const NEW_SPECS = JSON.stringify(specsDownload({ "2": { general_model: "New" } }));
const NEW_TREES = treesText('{"user-agent0":{"1":{"nokia":{"nokia":"2"}}}}');

type Behaviour = string | Error | ((options: SyncDownloadOptions) => Promise<void>);

/** A download source that writes given text (or fails) like HdClient's `toFile` downloads. */
function fakeSource(specs: Behaviour, trees: Behaviour): DataSource & { calls: string[] } {
  const calls: string[] = [];
  const run = async (what: string, behaviour: Behaviour, options: SyncDownloadOptions) => {
    calls.push(`${what} -> ${options.toFile}`);
    if (behaviour instanceof Error) throw behaviour;
    if (typeof behaviour === "function") {
      await behaviour(options);
      return { file: options.toFile, bytes: readFileSync(options.toFile).length };
    }
    options.onProgress?.({ receivedBytes: behaviour.length, totalBytes: behaviour.length });
    writeFileSync(options.toFile, behaviour);
    return { file: options.toFile, bytes: Buffer.byteLength(behaviour) };
  };
  return {
    calls,
    fetchSpecs: (options) => run("specs", specs, options),
    fetchTrees: (options) => run("trees", trees, options),
  };
}

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hd-store-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function seed(specs = OLD_SPECS, trees = OLD_TREES): void {
  writeFileSync(join(dir, SPECS_FILE_NAME), specs);
  writeFileSync(join(dir, TREES_FILE_NAME), trees);
}

function snapshot(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) out[name] = readFileSync(join(dir, name), "utf8");
  return out;
}

const model = (store: DataStore) => store.engine?.detect({ "user-agent": "Nokia" }).hd_specs?.general_model;

describe("DataStore.load", () => {
  it("loads the pair from the cache directory", async () => {
    seed();
    const store = new DataStore({ dir, logger: silentLogger });
    expect(store.engine).toBeUndefined();
    const engine = await store.load();
    expect(store.engine).toBe(engine);
    expect(model(store)).toBe("Old");
  });

  it("tells whether a directory holds both files", async () => {
    expect(await hasCachedData(dir)).toBe(false);
    expect(await hasCachedData(join(dir, "missing"))).toBe(false);
    writeFileSync(join(dir, SPECS_FILE_NAME), OLD_SPECS);
    expect(await hasCachedData(dir)).toBe(false);
    writeFileSync(join(dir, TREES_FILE_NAME), "");
    expect(await new DataStore({ dir }).hasCachedData()).toBe(false);
    writeFileSync(join(dir, TREES_FILE_NAME), OLD_TREES);
    expect(await hasCachedData(dir)).toBe(true);
  });

  it("rejects with an HdDataError naming the file and the problem", async () => {
    seed(OLD_SPECS, '{"trees": [1, 2]}');
    const store = new DataStore({ dir, logger: silentLogger });
    await expect(store.load()).rejects.toMatchObject({
      code: "ERR_HD_DATA",
      file: join(dir, TREES_FILE_NAME),
      message: expect.stringContaining("should be an object"),
    });
    seed("[]", OLD_TREES);
    await expect(store.load()).rejects.toMatchObject({
      code: "ERR_HD_DATA",
      file: join(dir, SPECS_FILE_NAME),
    });
    rmSync(join(dir, SPECS_FILE_NAME));
    await expect(store.load()).rejects.toMatchObject({ code: "ERR_HD_DATA" });
  });

  it("falls back to the previous pair when the current one is unusable, with a warning", async () => {
    seed("{truncated", OLD_TREES);
    writeFileSync(join(dir, SPECS_FILE_NAME + PREVIOUS_SUFFIX), OLD_SPECS);
    writeFileSync(join(dir, TREES_FILE_NAME + PREVIOUS_SUFFIX), OLD_TREES);
    const codes: unknown[] = [];
    const store = new DataStore({ dir, logger: { warn: (_m, details) => codes.push(details?.code) } });
    await store.load();
    expect(model(store)).toBe("Old");
    expect(codes).toContain("HD_STORE_PREVIOUS_DATA");
  });

  it("validates its options, naming the option", () => {
    expect(() => new DataStore({ dir: "" })).toThrow(expect.objectContaining({ option: "dir" }));
    expect(() => new DataStore({ dir, source: {} as DataSource })).toThrow(
      expect.objectContaining({ option: "source" }),
    );
    expect(() => new DataStore({ dir, dri: "x" } as never)).toThrow(
      expect.objectContaining({ option: "dri" }),
    );
  });
});

describe("DataStore.sync", () => {
  it("downloads to temporary files, installs the pair, keeps the previous one and swaps the engine", async () => {
    seed();
    const source = fakeSource(NEW_SPECS, NEW_TREES);
    const store = new DataStore({ dir, source, logger: silentLogger });
    const engine = await store.load();
    const progress: string[] = [];
    const result = await store.sync({ onProgress: (p) => progress.push(`${p.file}:${p.receivedBytes}`) });
    expect(store.engine).toBe(engine);
    expect(model(store)).toBe("New");
    expect(result).toMatchObject({ specsBytes: NEW_SPECS.length, treesBytes: NEW_TREES.length });
    expect(result.previous?.devices).toBe(1);
    expect(progress).toEqual([`specs:${NEW_SPECS.length}`, `trees:${NEW_TREES.length}`]);
    expect(source.calls[0]).toMatch(new RegExp(`${SPECS_FILE_NAME}\\.[^/]+\\.tmp$`));
    expect(snapshot()).toEqual({
      [SPECS_FILE_NAME]: NEW_SPECS,
      [SPECS_FILE_NAME + PREVIOUS_SUFFIX]: OLD_SPECS,
      [TREES_FILE_NAME]: NEW_TREES,
      [TREES_FILE_NAME + PREVIOUS_SUFFIX]: OLD_TREES,
    });
  });

  it("creates the directory and the engine on a first sync", async () => {
    const target = join(dir, "cache", "hd");
    const store = new DataStore({
      dir: target,
      source: fakeSource(NEW_SPECS, NEW_TREES),
      logger: silentLogger,
    });
    await store.sync();
    expect(model(store)).toBe("New");
    expect(readdirSync(target).sort()).toEqual([SPECS_FILE_NAME, TREES_FILE_NAME]);
  });

  const failures: Array<[string, () => DataSource, string]> = [
    [
      "a 229 licence error",
      () => fakeSource(new HdLicenceError({ status: 229, message: "no permission" }), NEW_TREES),
      "ERR_HD_LICENCE",
    ],
    [
      "a network failure",
      () => fakeSource(NEW_SPECS, new HdNetworkError("socket hang up")),
      "ERR_HD_NETWORK",
    ],
    ["a truncated download", () => fakeSource(NEW_SPECS, NEW_TREES.slice(0, 40)), "ERR_HD_DATA"],
    ["a malformed download", () => fakeSource('{"devices":"nope"}', NEW_TREES), "ERR_HD_DATA"],
    [
      "a disk-full write",
      () =>
        fakeSource(NEW_SPECS, async (options) => {
          writeFileSync(options.toFile, NEW_TREES.slice(0, 10));
          throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
        }),
      "ENOSPC",
    ],
  ];

  it.each(failures)(
    "leaves the files and the data in use untouched after %s",
    async (_name, source, causeCode) => {
      seed();
      const store = new DataStore({ dir, source: source(), logger: silentLogger });
      await store.load();
      const before = snapshot();
      const error = await store.sync().then(
        () => undefined,
        (e: unknown) => e as Error & { code: string; cause: { code: string } },
      );
      expect(error?.code).toBe("ERR_HD_SYNC");
      expect(error?.cause.code).toBe(causeCode);
      expect(error?.message).toContain("unchanged");
      expect(snapshot()).toEqual(before);
      expect(model(store)).toBe("Old");
    },
  );

  it("carries the licence status on the sync error", async () => {
    const store = new DataStore({
      dir,
      source: fakeSource(new HdLicenceError({ status: 229, message: "no permission" }), NEW_TREES),
      logger: silentLogger,
    });
    await expect(store.sync()).rejects.toMatchObject({
      code: "ERR_HD_SYNC",
      status: 229,
      cause: { status: 229 },
    });
    expect(store.engine).toBeUndefined();
  });

  const failingFs = (failOn: (op: string, args: string[]) => boolean): StoreFileSystem => {
    const wrap =
      <A extends string[], R>(op: string, call: (...args: A) => Promise<R>) =>
      async (...args: A): Promise<R> => {
        if (failOn(op, args))
          throw Object.assign(new Error(`ENOSPC: no space left on device, ${op}`), { code: "ENOSPC" });
        return call(...args);
      };
    return {
      mkdir: wrap("mkdir", nodeStoreFileSystem.mkdir),
      stat: nodeStoreFileSystem.stat,
      rename: wrap("rename", nodeStoreFileSystem.rename),
      unlink: nodeStoreFileSystem.unlink,
      copy: wrap("copy", nodeStoreFileSystem.copy),
      fsync: wrap("fsync", nodeStoreFileSystem.fsync),
    };
  };

  it.each([
    ["flushing the new files", (op: string) => op === "fsync"],
    ["keeping the previous pair", (op: string) => op === "copy"],
    [
      "installing the specs",
      (op: string, args: string[]) => op === "rename" && args[1] === join(dir, SPECS_FILE_NAME),
    ],
    [
      "installing the trees",
      (op: string, args: string[]) => op === "rename" && args[1] === join(dir, TREES_FILE_NAME),
    ],
  ])("leaves the current pair in place when the disk fails while %s", async (_name, failOn) => {
    seed();
    const store = new DataStore({
      dir,
      source: fakeSource(NEW_SPECS, NEW_TREES),
      logger: silentLogger,
      fileSystem: failingFs(failOn),
    });
    await store.load();
    const error = await store.sync().catch((e: unknown) => e as { code: string; cause: { code: string } });
    expect(error).toMatchObject({ code: "ERR_HD_SYNC", cause: { code: "ENOSPC" } });
    const files = snapshot();
    expect(files[SPECS_FILE_NAME]).toBe(OLD_SPECS);
    expect(files[TREES_FILE_NAME]).toBe(OLD_TREES);
    expect(Object.keys(files).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    expect(model(store)).toBe("Old");
  });

  it("shares one sync between concurrent callers", async () => {
    const source = fakeSource(NEW_SPECS, NEW_TREES);
    const store = new DataStore({ dir, source, logger: silentLogger });
    const [a, b] = await Promise.all([store.sync(), store.sync()]);
    expect(a).toBe(b);
    expect(source.calls).toHaveLength(2);
  });

  it("keeps answering detections while a sync runs", async () => {
    seed();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const source = fakeSource(NEW_SPECS, async (options) => {
      await gate;
      writeFileSync(options.toFile, NEW_TREES);
    });
    const store = new DataStore({ dir, source, logger: silentLogger });
    await store.load();
    const syncing = store.sync();
    for (let i = 0; i < 5; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      expect(model(store)).toBe("Old");
    }
    release();
    await syncing;
    expect(model(store)).toBe("New");
  });

  it("rejects sync without a source, naming the option", async () => {
    await expect(new DataStore({ dir }).sync()).rejects.toMatchObject({ option: "source" });
  });

  it("fails cleanly, creating no files, when the source cannot write its download", async () => {
    const locked = join(dir, "locked");
    mkdirSync(locked);
    const store = new DataStore({
      dir: locked,
      source: fakeSource(new Error("EACCES: permission denied"), NEW_TREES),
      logger: silentLogger,
    });
    await expect(store.sync()).rejects.toMatchObject({ code: "ERR_HD_SYNC" });
    expect(existsSync(join(locked, SPECS_FILE_NAME))).toBe(false);
  });
});
