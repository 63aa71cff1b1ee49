import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
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
  FLAT_PAIR_LINK_NAME,
  hasCachedData,
  POINTER_FILE_NAME,
  PREVIOUS_SUFFIX,
  SNAPSHOT_FILE_NAME,
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

/** Every file under the directory, by relative path, with its text. */
function snapshot(under = dir, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(under).sort()) {
    const path = join(under, name);
    if (lstatSync(path).isSymbolicLink()) out[prefix + name] = `-> ${readlinkSync(path)}`;
    else if (statSync(path).isDirectory()) Object.assign(out, snapshot(path, `${prefix}${name}/`));
    else out[prefix + name] = readFileSync(path, "utf8");
  }
  return out;
}

/** The pointer of the directory, parsed. */
function pointer(): { current: { generation: string }; previous?: { generation: string } } {
  return JSON.parse(readFileSync(join(dir, POINTER_FILE_NAME), "utf8"));
}

const GENERATION = /^hd3gen-\d{8}T\d{9}Z-\d+-[0-9a-f]{8}$/;

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

  /** A directory synced twice: OLD is the previous generation, NEW the current one. */
  async function syncedTwice(): Promise<{ current: string; previous: string }> {
    await new DataStore({ dir, source: fakeSource(OLD_SPECS, OLD_TREES), logger: silentLogger }).sync();
    await new DataStore({ dir, source: fakeSource(NEW_SPECS, NEW_TREES), logger: silentLogger }).sync();
    const { current, previous } = pointer();
    return { current: current.generation, previous: previous?.generation ?? "" };
  }

  it("loads the generation the pointer names, whatever the flat files hold", async () => {
    await syncedTwice();
    writeFileSync(join(dir, SPECS_FILE_NAME), OLD_SPECS); // a hand copy, or a reader's stale file
    writeFileSync(join(dir, TREES_FILE_NAME), "{broken");
    const store = new DataStore({ dir, logger: silentLogger });
    await store.load();
    expect(model(store)).toBe("New");
    expect(await store.hasCachedData()).toBe(true);
  });

  it.each([
    ["does not load", (file: string) => writeFileSync(file, `{"trees": ${"[".repeat(10)}`)],
    ["was cut short since its sync", (file: string) => writeFileSync(file, NEW_TREES.slice(0, -1))],
    ["is gone", (file: string) => rmSync(file)],
  ])(
    "falls back to the previous generation when the current one %s, with a warning",
    async (_name, damage) => {
      const { current, previous } = await syncedTwice();
      damage(join(dir, current, TREES_FILE_NAME));
      const warnings: { message: string; code: unknown }[] = [];
      const store = new DataStore({
        dir,
        logger: { warn: (message, details) => warnings.push({ message, code: details?.code }) },
      });
      await store.load();
      expect(model(store)).toBe("Old");
      const warning = warnings.find((w) => w.code === "HD_STORE_PREVIOUS_DATA");
      expect(warning?.message).toContain(previous);
      expect(warning?.message).not.toMatch(/\.\.|\.;/);
      // A process following the directory takes the current pair or nothing.
      await expect(new DataStore({ dir, logger: silentLogger }).loadCurrentData()).rejects.toMatchObject({
        code: "ERR_HD_DATA",
        file: join(dir, current, TREES_FILE_NAME),
      });
    },
  );

  it.each([
    ["not JSON", "{format"],
    ["another format", '{"format":2}'],
    [
      "a path outside the directory",
      '{"format":1,"current":{"generation":"../elsewhere","specsBytes":1,"treesBytes":1}}',
    ],
  ])("refuses a pointer that is %s, naming it", async (_name, text) => {
    seed();
    writeFileSync(join(dir, POINTER_FILE_NAME), text);
    await expect(new DataStore({ dir, logger: silentLogger }).load()).rejects.toMatchObject({
      code: "ERR_HD_DATA",
      file: join(dir, POINTER_FILE_NAME),
    });
    expect(await hasCachedData(dir)).toBe(false);
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
  it("downloads into a generation directory, switches the pointer to it, keeps the previous pair and swaps the engine", async () => {
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
    const { current, previous } = pointer();
    expect(current.generation).toMatch(GENERATION);
    expect(previous?.generation).toMatch(GENERATION);
    expect(source.calls[0]).toBe(`specs -> ${join(dir, current.generation, SPECS_FILE_NAME)}`);
    // The old flat pair became the previous generation; the flat names are links through
    // hd3pair to copies of the new one.
    const { [POINTER_FILE_NAME]: _pointer, ...files } = snapshot();
    const flatDir = readlinkSync(join(dir, FLAT_PAIR_LINK_NAME));
    expect(flatDir).toMatch(/^hd3flat-\d+-[0-9a-f]{8}$/);
    expect(readFileSync(join(dir, SPECS_FILE_NAME), "utf8")).toBe(NEW_SPECS);
    expect(readFileSync(join(dir, TREES_FILE_NAME), "utf8")).toBe(NEW_TREES);
    expect(files).toEqual({
      [SPECS_FILE_NAME]: `-> ${FLAT_PAIR_LINK_NAME}/${SPECS_FILE_NAME}`,
      [TREES_FILE_NAME]: `-> ${FLAT_PAIR_LINK_NAME}/${TREES_FILE_NAME}`,
      [FLAT_PAIR_LINK_NAME]: `-> ${flatDir}`,
      [`${flatDir}/${SPECS_FILE_NAME}`]: NEW_SPECS,
      [`${flatDir}/${TREES_FILE_NAME}`]: NEW_TREES,
      [`${current.generation}/${SPECS_FILE_NAME}`]: NEW_SPECS,
      [`${current.generation}/${TREES_FILE_NAME}`]: NEW_TREES,
      [`${current.generation}/${SNAPSHOT_FILE_NAME}`]: expect.any(String),
      [`${previous?.generation}/${SPECS_FILE_NAME}`]: OLD_SPECS,
      [`${previous?.generation}/${TREES_FILE_NAME}`]: OLD_TREES,
    });
  });

  it("keeps the previous generation and removes older ones at the next sync", async () => {
    const first = new DataStore({ dir, source: fakeSource(OLD_SPECS, OLD_TREES), logger: silentLogger });
    await first.sync();
    const oldest = pointer().current.generation;
    const store = new DataStore({ dir, source: fakeSource(NEW_SPECS, NEW_TREES), logger: silentLogger });
    await store.sync();
    const middle = pointer().current.generation;
    expect(pointer().previous?.generation).toBe(oldest);
    await store.sync();
    expect(pointer().previous?.generation).toBe(middle);
    const generations = readdirSync(dir).filter((name) => GENERATION.test(name));
    expect(generations.sort()).toEqual([middle, pointer().current.generation].sort());
    expect(model(store)).toBe("New");
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
    const names = readdirSync(target).sort();
    expect(names).toEqual([
      POINTER_FILE_NAME,
      expect.stringMatching(/^hd3flat-/),
      expect.stringMatching(GENERATION),
      FLAT_PAIR_LINK_NAME,
      SPECS_FILE_NAME,
      TREES_FILE_NAME,
    ]);
    expect(readdirSync(join(target, names[2] ?? "")).sort()).toEqual([
      SNAPSHOT_FILE_NAME,
      SPECS_FILE_NAME,
      TREES_FILE_NAME,
    ]);
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
      copyFile: wrap("copyFile", nodeStoreFileSystem.copyFile),
      fsync: wrap("fsync", nodeStoreFileSystem.fsync),
      writeFile: wrap("writeFile", nodeStoreFileSystem.writeFile),
      readdir: nodeStoreFileSystem.readdir,
      remove: nodeStoreFileSystem.remove,
      symlink: wrap("symlink", nodeStoreFileSystem.symlink),
      readlink: nodeStoreFileSystem.readlink,
    };
  };

  it.each([
    ["creating the generation directory", (op: string, args: string[]) => op === "mkdir" && args[0] !== dir],
    ["flushing the new files", (op: string) => op === "fsync"],
    ["keeping the previous pair", (op: string) => op === "copyFile"],
    ["writing the pointer", (op: string) => op === "writeFile"],
    [
      "switching the pointer",
      (op: string, args: string[]) => op === "rename" && args[1] === join(dir, POINTER_FILE_NAME),
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
    expect(snapshot()).toEqual({ [SPECS_FILE_NAME]: OLD_SPECS, [TREES_FILE_NAME]: OLD_TREES });
    expect(model(store)).toBe("Old");
  });

  it("reports a failed flat copy after the switch as a warning: the sync has succeeded", async () => {
    const warnings: unknown[] = [];
    const store = new DataStore({
      dir,
      source: fakeSource(NEW_SPECS, NEW_TREES),
      logger: { warn: (_message, details) => warnings.push(details?.code) },
      fileSystem: failingFs((op, args) => op === "rename" && args[1] === join(dir, TREES_FILE_NAME)),
    });
    await store.sync();
    expect(warnings.filter((code) => String(code).startsWith("HD_STORE_"))).toEqual(["HD_STORE_FLAT_COPY"]);
    expect(model(store)).toBe("New");
    expect(Object.keys(snapshot()).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    await expect(new DataStore({ dir, logger: silentLogger }).load()).resolves.toBeDefined();
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
