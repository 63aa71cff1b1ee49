// DataFollower: a completed sync (a pointer, or a flat pair, renamed into place) is noticed once, by the watch or by the poll.

import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { DataFollower, filesSignature, pairSignature } from "../../src/store/data-follower.js";

const followers: DataFollower[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const follower of followers.splice(0)) follower.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A directory holding a pair, and its two paths. */
function pairDir(): { dir: string; specs: string; trees: string } {
  const dir = mkdtempSync(join(tmpdir(), "hd-follow-"));
  dirs.push(dir);
  const specs = join(dir, "hd3specs.json");
  const trees = join(dir, "hd3trees.json");
  writeFileSync(specs, '{"v":1}');
  writeFileSync(trees, '{"v":1}');
  return { dir, specs, trees };
}

/** What a sync does: a complete file written beside the current one, then renamed over it. */
function install(file: string, text: string): void {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

function follow(
  files: readonly string[],
  options: { watch?: boolean; pollIntervalMs?: number; settleMs?: number } = {},
) {
  const changes: number[] = [];
  const follower = new DataFollower({
    files,
    onChange: () => {
      changes.push(Date.now());
    },
    settleMs: 50,
    ...options,
  });
  followers.push(follower);
  return { follower, changes };
}

describe("DataFollower", () => {
  it("notices a new pair renamed into place, once, through the watch", async () => {
    const { specs, trees } = pairDir();
    const { follower, changes } = follow([specs, trees], { pollIntervalMs: 60_000 });
    expect(follower.watching).toBe(true);
    install(specs, '{"v":2}');
    install(trees, '{"v":2}');
    await expect.poll(() => changes.length, { timeout: 3_000 }).toBe(1);
    await delay(300);
    expect(changes).toHaveLength(1);
  });

  it("notices it through the stat poll when the directory is not watched", async () => {
    const { specs, trees } = pairDir();
    const { follower, changes } = follow([specs, trees], { watch: false, pollIntervalMs: 40 });
    expect(follower.watching).toBe(false);
    install(specs, '{"v":2}');
    install(trees, '{"v":2}');
    await expect.poll(() => changes.length, { timeout: 3_000 }).toBe(1);
    await delay(200);
    expect(changes).toHaveLength(1);
  });

  it("waits for both renames of a slow sync: one change, after the second file", async () => {
    const { specs, trees } = pairDir();
    const { changes } = follow([specs, trees], { settleMs: 150, pollIntervalMs: 60_000 });
    install(specs, '{"v":2}');
    await delay(60);
    const second = Date.now();
    install(trees, '{"v":2}');
    await expect.poll(() => changes.length, { timeout: 3_000 }).toBe(1);
    expect(changes[0]).toBeGreaterThanOrEqual(second);
    await delay(300);
    expect(changes).toHaveLength(1);
  });

  it("ignores what a download writes beside the pair, and a pair with a file missing", async () => {
    const { dir, specs, trees } = pairDir();
    const { follower, changes } = follow([specs, trees], { pollIntervalMs: 40 });
    writeFileSync(join(dir, "hd3specs.json.1234.tmp"), "partial download");
    rmSync(trees);
    await delay(300);
    await follower.check();
    expect(changes).toEqual([]);
    writeFileSync(trees, '{"v":2}');
    await expect.poll(() => changes.length, { timeout: 3_000 }).toBe(1);
  });

  it("does not count what this process writes between pause() and resume()", async () => {
    const { specs, trees } = pairDir();
    const { follower, changes } = follow([specs, trees], { pollIntervalMs: 40 });
    follower.pause();
    install(specs, '{"v":2}');
    install(trees, '{"v":2}');
    await delay(200);
    await follower.resume();
    await delay(200);
    expect(changes).toEqual([]);
    install(trees, '{"v":3}');
    await expect.poll(() => changes.length, { timeout: 3_000 }).toBe(1);
  });

  it("keeps following after onChange throws, and stops on close()", async () => {
    const { specs, trees } = pairDir();
    let calls = 0;
    const follower = new DataFollower({
      files: [specs, trees],
      settleMs: 30,
      pollIntervalMs: 40,
      onChange: () => {
        calls++;
        throw new Error("bad pair");
      },
    });
    followers.push(follower);
    install(specs, '{"v":2}');
    await expect.poll(() => calls, { timeout: 3_000 }).toBe(1);
    install(specs, '{"v":3}');
    await expect.poll(() => calls, { timeout: 3_000 }).toBe(2);
    follower.close();
    install(specs, '{"v":4}');
    await delay(200);
    expect(calls).toBe(2);
  });

  it("with a pointer, counts only the pointer's rename: flat files and generation directories are no change", async () => {
    const { dir, specs, trees } = pairDir();
    const pointerFile = join(dir, "hd3current.json");
    install(pointerFile, '{"v":1}');
    const changes: number[] = [];
    const follower = new DataFollower({
      files: [specs, trees],
      pointerFile,
      settleMs: 30,
      pollIntervalMs: 40,
      onChange: () => {
        changes.push(Date.now());
      },
    });
    followers.push(follower);
    // What a sync writes before the switch (its generation) and after it (the flat copies).
    mkdirSync(join(dir, "hd3gen-20250101T000000000Z-1-00000000"));
    writeFileSync(join(dir, "hd3gen-20250101T000000000Z-1-00000000", "hd3specs.json"), '{"v":2}');
    install(specs, '{"v":2}');
    install(trees, '{"v":2}');
    await delay(300);
    await follower.check();
    expect(changes).toEqual([]);
    install(pointerFile, '{"v":2}');
    await expect.poll(() => changes.length, { timeout: 3_000 }).toBe(1);
    await delay(200);
    expect(changes).toHaveLength(1);
  });

  it("signs a directory by its pointer while there is one, else by its flat files", async () => {
    const { dir, specs, trees } = pairDir();
    const pointerFile = join(dir, "hd3current.json");
    expect(await pairSignature(pointerFile, [specs, trees])).toBe(await filesSignature([specs, trees]));
    install(pointerFile, '{"v":1}');
    const withPointer = await pairSignature(pointerFile, [specs, trees]);
    expect(withPointer).toBe(`pointer:${await filesSignature([pointerFile])}`);
    install(specs, '{"v":2}');
    expect(await pairSignature(pointerFile, [specs, trees])).toBe(withPointer);
  });

  it("signs a pair by its files, and not at all while one is missing or empty", async () => {
    const { specs, trees } = pairDir();
    const before = await filesSignature([specs, trees]);
    expect(before).toMatch(/^\d+:\d+:7:[\d.]+\|\d+:\d+:7:[\d.]+$/);
    install(specs, '{"v":2}');
    expect(await filesSignature([specs, trees])).not.toBe(before);
    writeFileSync(trees, "");
    expect(await filesSignature([specs, trees])).toBeUndefined();
    expect(await filesSignature([specs, join(specs, "..", "absent.json")])).toBeUndefined();
  });
});
