// A sync on a read-only file system or a full disk says so plainly: EROFS (not Node's ENOENT for a recursive mkdir), ENOSPC.
//
// These need two small tmpfs mounts (one read-only, one full): they run as root where `mount`
// works, and are skipped with a note elsewhere. A directory where Node's recursive mkdir never
// returns (below a link to nothing, under /proc) is refused at once, on any machine.

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HdClient } from "../../src/client/index.js";
import { silentLogger } from "../../src/logger.js";
import { DataStore } from "../../src/store/data-store.js";
import { nodeStoreFileSystem } from "../../src/store/store-fs.js";
import { ApiTestServer } from "../support/api-test-server.js";

const root = mkdtempSync(join(tmpdir(), "hd-store-fs-"));
const readOnly = join(root, "read-only");
const full = join(root, "full");

/** Mounts a small tmpfs at `dir`; false when this process may not mount. */
function mountTmpfs(dir: string, options: string): boolean {
  mkdirSync(dir);
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", options, "tmpfs", dir], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

const mounted =
  process.getuid?.() === 0 && mountTmpfs(readOnly, "ro,size=64k") && mountTmpfs(full, "size=64k");
if (!mounted) console.warn("test/store/store-fs.test.ts: skipped: needs root and `mount -t tmpfs`");

let server: ApiTestServer;
beforeAll(async () => {
  if (!mounted) return;
  server = await ApiTestServer.start();
  // Fill the disk: write until it refuses.
  try {
    writeFileSync(join(full, "filler"), Buffer.alloc(128 * 1024));
  } catch {
    // ENOSPC: full now
  }
});

afterAll(async () => {
  await server?.close();
  for (const dir of [readOnly, full]) {
    try {
      execFileSync("umount", [dir], { stdio: "ignore" });
    } catch {
      // not mounted
    }
  }
  rmSync(root, { recursive: true, force: true });
});

function client(): HdClient {
  return new HdClient({
    username: server.username,
    secret: server.secret,
    siteId: 1,
    baseUrl: server.url,
    retries: 0,
    logger: silentLogger,
  });
}

describe.skipIf(!mounted)("a data directory on a read-only file system", () => {
  it("makes mkdir report EROFS for a directory it cannot create, where a recursive mkdir says ENOENT", async () => {
    await expect(nodeStoreFileSystem.mkdir(join(readOnly, "hd-data", "deeper"))).rejects.toMatchObject({
      code: "EROFS",
    });
    await expect(nodeStoreFileSystem.mkdir(readOnly)).resolves.toBeUndefined();
  });

  it.each([
    ["that does not exist yet", join(readOnly, "hd-data")],
    ["that exists", readOnly],
  ])("fails a sync into a directory %s saying the file system is read-only", async (_name, dir) => {
    const hd = client();
    const failure = await new DataStore({ dir, source: hd, logger: silentLogger })
      .sync()
      .catch((e: Error) => e);
    await hd.close();
    expect(failure).toMatchObject({ code: "ERR_HD_SYNC" });
    expect((failure as Error).message).toContain("the file system is read-only (EROFS)");
    expect((failure as Error).message).not.toContain("ENOENT");
  });
});

describe.skipIf(!mounted)("a data directory on a full disk", () => {
  it("fails a download to a file there saying the disk is full (ENOSPC)", async () => {
    const hd = client();
    const failure = await hd.fetchTrees({ toFile: join(full, "trees.json") }).catch((e: Error) => e);
    await hd.close();
    expect(failure).toMatchObject({ code: "ERR_HD_DATA" });
    expect((failure as Error).message).toContain("the disk is full (ENOSPC)");
  });

  it("fails a sync there saying the disk is full (ENOSPC)", async () => {
    const hd = client();
    const dir = join(full, "hd-data");
    const failure = await new DataStore({ dir, source: hd, logger: silentLogger })
      .sync()
      .catch((e: Error) => e);
    await hd.close();
    expect(failure).toMatchObject({ code: "ERR_HD_SYNC" });
    expect((failure as Error).message).toContain("the disk is full (ENOSPC)");
    expect((failure as Error).message).toContain("The data in use is unchanged.");
  });
});

describe("nodeStoreFileSystem.mkdir where a recursive mkdir never returns", () => {
  it("rejects below a symbolic link to nothing, and under /proc, at once", async () => {
    const dangling = join(root, "dangling");
    symlinkSync(join(root, "nothing-here"), dangling);
    await expect(nodeStoreFileSystem.mkdir(join(dangling, "hd-data", "deeper"))).rejects.toMatchObject({
      code: "ENOENT",
    });
    if (existsSync("/proc/self")) {
      await expect(nodeStoreFileSystem.mkdir("/proc/hd-data/deeper")).rejects.toMatchObject({
        code: "ENOENT",
      });
    }
    await expect(nodeStoreFileSystem.mkdir(join(root, "a", "b", "c"))).resolves.toBeUndefined();
    await expect(nodeStoreFileSystem.mkdir(join(root, "a", "b", "c"))).resolves.toBeUndefined();
  });
});
