// A sync killed at any point leaves one consistent pair, under the pointer and under the flat names; the next sync removes what it left; concurrent syncs do not collide.

import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { readFile, realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HdLicenceError } from "../../src/errors.js";
import { silentLogger } from "../../src/logger.js";
import { pairSignature } from "../../src/store/data-follower.js";
import { FLAT_PAIR_LINK_NAME, POINTER_FILE_NAME } from "../../src/store/data-layout.js";
import type { DataSource, SyncDownloadOptions } from "../../src/store/data-source.js";
import { DataStore, SPECS_FILE_NAME, TREES_FILE_NAME } from "../../src/store/data-store.js";
import { nodeStoreFileSystem, type StoreFileSystem } from "../../src/store/store-fs.js";
import { specsDownload } from "../engine/fixtures.js";

const OLD = "2024-01-01 00:00:00";
const NEW = "2025-06-01 00:00:00";
const specsOf = (version: string, id: string, model: string) =>
  JSON.stringify({ ...specsDownload({ [id]: { general_model: model } }), _notice: { generated: version } });
const treesOf = (version: string, id: string) =>
  `{"_notice":{"generated":"${version}"},"trees":{"user-agent0":{"1":{"nokia":{"nokia":"${id}"}}}}}`;
const OLD_SPECS = specsOf(OLD, "1", "Old");
const OLD_TREES = treesOf(OLD, "1");
const NEW_SPECS = specsOf(NEW, "2", "New");
const NEW_TREES = treesOf(NEW, "2");
/** A process id no process has (above Linux's and macOS's largest). */
const DEAD_PID = 2 ** 22 + 1;
const GENERATION = /^hd3gen-\d{8}T\d{9}Z-\d+-[0-9a-f]{8}$/;
const FLAT_DIR = /^hd3flat-\d+-[0-9a-f]{8}$/;

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hd-crash-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Never settles: what a killed process does next. */
const never = () => new Promise<never>(() => {});

/**
 * A sync whose file-system calls and download progress are numbered steps; at step `killAt` the
 * process "dies": that call and every later one never happen (no clean-up runs).
 */
function killableSync(killAt: number) {
  const steps: string[] = [];
  let dead = false;
  let died: () => void = () => {};
  const killed = new Promise<void>((resolve) => {
    died = resolve;
  });
  const step = (name: string): boolean => {
    if (!dead && steps.length === killAt) {
      dead = true;
      died();
    }
    if (dead) return false;
    steps.push(name);
    return true;
  };
  const wrap =
    <A extends unknown[], R>(op: string, call: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      step(`${op} ${args.map((arg) => String(arg).replace(dir, "")).join(" ")}`) ? call(...args) : never();
  const real = nodeStoreFileSystem;
  const fileSystem: StoreFileSystem = {
    mkdir: wrap("mkdir", real.mkdir),
    stat: real.stat,
    rename: wrap("rename", real.rename),
    unlink: wrap("unlink", real.unlink),
    copy: wrap("copy", real.copy),
    copyFile: wrap("copyFile", real.copyFile),
    fsync: wrap("fsync", real.fsync),
    writeFile: wrap("writeFile", real.writeFile),
    readdir: real.readdir,
    remove: wrap("remove", real.remove),
    symlink: wrap("symlink", real.symlink),
    readlink: real.readlink,
  };
  // A download is three steps: started (empty file), half written, complete.
  const download = async (what: string, text: string, options: SyncDownloadOptions) => {
    if (!step(`${what} download starts`)) return never();
    writeFileSync(options.toFile, "");
    if (!step(`${what} download half written`)) return never();
    writeFileSync(options.toFile, text.slice(0, text.length / 2));
    if (!step(`${what} download complete`)) return never();
    writeFileSync(options.toFile, text);
    return { file: options.toFile, bytes: Buffer.byteLength(text) };
  };
  const source: DataSource = {
    fetchSpecs: (options) => download("specs", NEW_SPECS, options),
    fetchTrees: (options) => download("trees", NEW_TREES, options),
  };
  return { fileSystem, source, steps, killed };
}

/** The version a fresh store loads from the directory, checking that specs and trees agree. */
async function versionInUse(): Promise<string> {
  const store = new DataStore({ dir, logger: silentLogger });
  const engine = await store.load();
  const { specsGenerated, treesGenerated } = engine.dataInfo;
  expect(specsGenerated, "specs and trees of one pair").toBe(treesGenerated);
  const model = engine.detect({ "user-agent": "Nokia" }).hd_specs?.general_model;
  expect(model).toBe(specsGenerated === NEW ? "New" : "Old");
  return specsGenerated ?? "";
}

/** The version of each flat file, as a program naming them reads them now; `""` for a missing one. */
function flatVersions(): { specs: string; trees: string } {
  const version = (name: string) => {
    try {
      return /"generated":"([^"]+)"/.exec(readFileSync(join(dir, name), "utf8"))?.[1] ?? "?";
    } catch {
      return "";
    }
  };
  return { specs: version(SPECS_FILE_NAME), trees: version(TREES_FILE_NAME) };
}

const follow = () =>
  pairSignature(join(dir, POINTER_FILE_NAME), [join(dir, SPECS_FILE_NAME), join(dir, TREES_FILE_NAME)]);

const starts: Array<[string, () => Promise<void>]> = [
  [
    "flat files of an earlier version",
    async () => {
      writeFileSync(join(dir, SPECS_FILE_NAME), OLD_SPECS);
      writeFileSync(join(dir, TREES_FILE_NAME), OLD_TREES);
    },
  ],
  [
    "a generation from an earlier sync",
    async () => {
      const source = { fetchSpecs: write(OLD_SPECS), fetchTrees: write(OLD_TREES) };
      await new DataStore({ dir, source, logger: silentLogger }).sync();
    },
  ],
];

function write(text: string) {
  return async (options: SyncDownloadOptions) => {
    writeFileSync(options.toFile, text);
    return { file: options.toFile, bytes: Buffer.byteLength(text) };
  };
}

/** Renames what this process left to a dead process's name, as if the killed process were gone. */
function orphanLeftovers(): void {
  const pointer = (() => {
    try {
      return readFileSync(join(dir, POINTER_FILE_NAME), "utf8");
    } catch {
      return "";
    }
  })();
  const linked = (() => {
    try {
      return readlinkSync(join(dir, FLAT_PAIR_LINK_NAME));
    } catch {
      return "";
    }
  })();
  // The pid between its separators: the same digits may also appear in a generation's time.
  const ownPid = new RegExp(`([-.])${process.pid}-`);
  for (const name of readdirSync(dir)) {
    if (!ownPid.test(name) || pointer.includes(name) || name === linked) continue;
    renameSync(join(dir, name), join(dir, name.replace(ownPid, `$1${DEAD_PID}-`)));
  }
}

describe.each(starts)("a sync killed between any two of its steps, from %s", (_name, seed) => {
  it("leaves the old pair or the new one, never a mix; the pointer's rename alone decides, and the follower sees only it", async () => {
    // A sync that is never killed: how many steps, and which one switches the pointer.
    await seed();
    const complete = killableSync(Number.POSITIVE_INFINITY);
    await new DataStore({
      dir,
      source: complete.source,
      logger: silentLogger,
      fileSystem: complete.fileSystem,
    }).sync();
    const switchStep = complete.steps.findIndex(
      (s) => s.startsWith("rename") && s.endsWith(`/${POINTER_FILE_NAME}`),
    );
    expect(switchStep).toBeGreaterThan(0);
    expect(complete.steps.length).toBeGreaterThan(switchStep + 2);

    const outcomes: string[] = [];
    for (let killAt = 0; killAt <= complete.steps.length; killAt++) {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir);
      await seed();
      const before = await follow();
      const run = killableSync(killAt);
      const store = new DataStore({
        dir,
        source: run.source,
        logger: silentLogger,
        fileSystem: run.fileSystem,
      });
      const syncing = store.sync();
      if (killAt < complete.steps.length) await run.killed;
      else await syncing;

      const version = await versionInUse();
      outcomes.push(version);
      // Killed before the pointer's rename ran: the old pair; once it has run: the new one.
      expect(version, `killed before step ${killAt} (${complete.steps[killAt]})`).toBe(
        killAt > switchStep ? NEW : OLD,
      );
      // The flat names hold one pair: both old, both new, or (a first sync killed early) none.
      const flat = flatVersions();
      expect(flat.specs, `flat names after a kill before step ${killAt} (${complete.steps[killAt]})`).toBe(
        flat.trees,
      );
      expect([OLD, NEW]).toContain(flat.specs);
      // A follower switches exactly when the pointer does.
      expect((await follow()) !== before, `follower after a kill before step ${killAt}`).toBe(
        version === NEW,
      );

      // Once the killed process is gone, later syncs remove everything it left. Here it lives on,
      // hung, so what it wrote is renamed to a dead process's name once no pointer names it: its
      // generation may stay named (current, then previous) for two more syncs.
      const next = new DataStore({
        dir,
        source: { fetchSpecs: write(NEW_SPECS), fetchTrees: write(NEW_TREES) },
        logger: silentLogger,
      });
      for (let round = 0; round < 3; round++) {
        orphanLeftovers();
        await next.sync();
      }
      const names = readdirSync(dir).sort();
      expect(names.filter((name) => name.endsWith(".tmp"))).toEqual([]);
      expect(names.filter((name) => GENERATION.test(name))).toHaveLength(2);
      expect(names.filter((name) => FLAT_DIR.test(name))).toEqual([
        readlinkSync(join(dir, FLAT_PAIR_LINK_NAME)),
      ]);
      expect(names.filter((name) => !GENERATION.test(name) && !FLAT_DIR.test(name))).toEqual([
        POINTER_FILE_NAME,
        FLAT_PAIR_LINK_NAME,
        SPECS_FILE_NAME,
        TREES_FILE_NAME,
      ]);
      expect(flatVersions()).toEqual({ specs: NEW, trees: NEW });
      expect(realpathSync(join(dir, SPECS_FILE_NAME))).toBe(
        join(realpathSync(join(dir, FLAT_PAIR_LINK_NAME)), SPECS_FILE_NAME),
      );
    }
    expect(outcomes.indexOf(NEW)).toBe(switchStep + 1);
    // About forty kills, each followed by three syncs with real fsyncs: seconds on a loaded machine.
  }, 90_000);
});

describe("a reader polling the flat names while syncs run", () => {
  it("reads one pair each time it resolves hd3pair once, never a mix", async () => {
    writeFileSync(join(dir, SPECS_FILE_NAME), OLD_SPECS);
    writeFileSync(join(dir, TREES_FILE_NAME), OLD_TREES);
    let running = true;
    const seen = new Map<string, number>();
    const mixes: string[] = [];
    const poll = async () => {
      while (running) {
        try {
          const pair = await realpath(join(dir, FLAT_PAIR_LINK_NAME));
          const specs = /"generated":"([^"]+)"/.exec(
            await readFile(join(pair, SPECS_FILE_NAME), "utf8"),
          )?.[1];
          const trees = /"generated":"([^"]+)"/.exec(
            await readFile(join(pair, TREES_FILE_NAME), "utf8"),
          )?.[1];
          if (specs !== trees) mixes.push(`${specs} with ${trees}`);
          seen.set(String(specs), (seen.get(String(specs)) ?? 0) + 1);
        } catch {
          // Not linked yet, or a superseded pair removed between two reads: nothing was mixed.
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const pollers = [poll(), poll()];
    for (let round = 0; round < 20; round++) {
      const [specs, trees] = round % 2 === 0 ? [NEW_SPECS, NEW_TREES] : [OLD_SPECS, OLD_TREES];
      await new DataStore({
        dir,
        source: { fetchSpecs: write(specs), fetchTrees: write(trees) },
        logger: silentLogger,
      }).sync();
      // Between syncs the plain flat names hold the pair just synced.
      expect(flatVersions()).toEqual(
        round % 2 === 0 ? { specs: NEW, trees: NEW } : { specs: OLD, trees: OLD },
      );
    }
    running = false;
    await Promise.all(pollers);
    expect(mixes).toEqual([]);
    expect(seen.get(OLD) ?? 0).toBeGreaterThan(0);
    expect(seen.get(NEW) ?? 0).toBeGreaterThan(0);
  });
});

describe("leftovers of interrupted syncs", () => {
  it("are removed at the start of the next sync; another live process's files and foreign files stay", async () => {
    writeFileSync(join(dir, SPECS_FILE_NAME), OLD_SPECS);
    writeFileSync(join(dir, TREES_FILE_NAME), OLD_TREES);
    const big = "x".repeat(1_000_000);
    const dead = [
      `hd3specs.json.${DEAD_PID}-0a1b2c3d.tmp`, // a download of an earlier version
      `hd3trees.json.${DEAD_PID}-0a1b2c3d.tmp`,
      `hd3specs.json.prev.${DEAD_PID}-0a1b2c3d.tmp`,
      `hd3current.json.${DEAD_PID}-99aa88bb.tmp`,
      `hd3gen-20240101T000000000Z-${DEAD_PID}-deadbeef`,
    ];
    // The parent process is alive: its files may be a sync in progress.
    const live = [
      `hd3trees.json.${process.ppid}-12345678.tmp`,
      `hd3gen-20240101T000000000Z-${process.ppid}-cafebabe`,
    ];
    for (const name of [...dead, ...live]) {
      if (name.startsWith("hd3gen-")) {
        mkdirSync(join(dir, name));
        writeFileSync(join(dir, name, SPECS_FILE_NAME), big);
      } else writeFileSync(join(dir, name), big);
    }
    writeFileSync(join(dir, "notes.txt"), "mine");

    const seen: string[][] = [];
    const source: DataSource = {
      fetchSpecs: async (options) => {
        seen.push(readdirSync(dir)); // cleaned before the first download
        return write(NEW_SPECS)(options);
      },
      fetchTrees: write(NEW_TREES),
    };
    await new DataStore({ dir, source, logger: silentLogger }).sync();

    const names = readdirSync(dir);
    for (const name of dead) {
      expect(seen[0]).not.toContain(name);
      expect(names).not.toContain(name);
    }
    for (const name of [...live, "notes.txt"]) expect(names).toContain(name);
  });

  it("never include what a concurrent sync of the same directory is writing", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = new DataStore({
      dir,
      source: {
        fetchSpecs: write(OLD_SPECS),
        fetchTrees: async (options) => {
          await gate;
          return write(OLD_TREES)(options);
        },
      },
      logger: silentLogger,
    });
    let specsWritten: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      specsWritten = resolve;
    });
    const slowSync = slow.sync();
    // Wait until the slow sync is inside its download, then run a whole sync beside it.
    const fast = new DataStore({
      dir,
      source: { fetchSpecs: write(NEW_SPECS), fetchTrees: write(NEW_TREES) },
      logger: silentLogger,
    });
    const poll = setInterval(() => {
      if (readdirSync(dir).some((name) => GENERATION.test(name))) specsWritten();
    }, 5);
    await started;
    clearInterval(poll);
    await fast.sync();
    release();
    await slowSync;
    // The slow sync switched last: its pair is in use, whole, and the fast one is kept as previous.
    expect(await versionInUse()).toBe(OLD);
    const pointer = JSON.parse(readFileSync(join(dir, POINTER_FILE_NAME), "utf8"));
    expect(
      readdirSync(dir)
        .filter((name) => GENERATION.test(name))
        .sort(),
    ).toEqual([pointer.current.generation, pointer.previous.generation].sort());
  });
});

describe("a failed sync's message", () => {
  it("ends the cause's sentence with exactly one full stop", async () => {
    const refusal = new HdLicenceError({
      status: 229,
      message:
        "Digest authentication: you have no permission to download this file. Perhaps your licence has expired.",
    });
    const store = new DataStore({
      dir,
      source: { fetchSpecs: () => Promise.reject(refusal), fetchTrees: write(NEW_TREES) },
      logger: silentLogger,
    });
    const error = await store.sync().then(
      () => new Error("the sync succeeded"),
      (thrown: unknown) => thrown as Error,
    );
    expect(error.message).toContain("Perhaps your licence has expired. The data in use is unchanged.");
    expect(error.message).not.toMatch(/\.\./);
  });
});
