// fetcharchive: a stored ZIP of Device_<id>.json, Extra_<id>.json and <tree>.json, built once per data version.

import { copyFile, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { open as openZip } from "yauzl";
import { createApiHttpServer } from "../../src/server/api-http-server.js";
import { noticeComment } from "../../src/server/archive-builder.js";
import { ArchiveCache } from "../../src/server/archive-cache.js";
import { digestHeader } from "./digest-header.js";
import { FakeEngine } from "./fake-engine.js";
import { readZip } from "./support/read-zip.js";

const SAMPLE_SPECS = "data/sample/sample-specs.json";
const SAMPLE_TREES = "data/sample/sample-trees.json";
const users = [
  { username: "alice", secret: "s3cret", downloads: true },
  { username: "bob", secret: "hunter2", downloads: false },
];

let scratch: string;
let dataDir: string;
let base: string;
let server: ReturnType<typeof createApiHttpServer>;
const logged: { level: "warn" | "info"; message: string; details: Record<string, unknown> | undefined }[] =
  [];

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "hd3-archive-test-"));
  dataDir = join(scratch, "data");
  await mkdir(dataDir);
  await copyFile(SAMPLE_SPECS, join(dataDir, "hd3specs.json"));
  await copyFile(SAMPLE_TREES, join(dataDir, "hd3trees.json"));
  server = createApiHttpServer({
    engine: new FakeEngine(),
    users,
    dataDir,
    logger: {
      warn: (message, details) => logged.push({ level: "warn", message, details }),
      info: (message, details) => logged.push({ level: "info", message, details }),
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(scratch, { recursive: true, force: true });
});

async function fetchArchive(user = users[0]!) {
  const uri = "/apiv3/site/fetcharchive/1.json";
  const response = await fetch(base + uri, {
    method: "POST",
    headers: { authorization: digestHeader(user.username, user.secret, "POST", uri) },
    body: "{}",
  });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

async function entriesOf(bytes: Buffer) {
  const file = join(scratch, `download-${Math.random().toString(36).slice(2)}.zip`);
  await writeFile(file, bytes);
  return readZip(file);
}

const builds = () => logged.filter((entry) => entry.details?.code === "HD_SERVER_ARCHIVE_BUILT").length;

describe("fetcharchive", () => {
  it("answers a stored ZIP holding every device, extra and tree, bytes exactly as in the data files", async () => {
    const { response, bytes } = await fetchArchive();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(Number(response.headers.get("content-length"))).toBe(bytes.length);
    const entries = await entriesOf(bytes);
    expect(entries.every((entry) => entry.compressionMethod === 0)).toBe(true);

    const specs = JSON.parse(await readFile(SAMPLE_SPECS, "utf8"));
    const byName = new Map(entries.map((entry) => [entry.name, entry.bytes.toString("utf8")]));
    for (const record of specs.devices) {
      expect(JSON.parse(byName.get(`Device_${record.Device._id}.json`) ?? "null")).toEqual(record);
    }
    for (const record of specs.extras) {
      expect(JSON.parse(byName.get(`Extra_${record.Extra._id}.json`) ?? "null")).toEqual(record);
    }
    const treesText = await readFile(SAMPLE_TREES, "utf8");
    const treeNames = Object.keys(JSON.parse(treesText).trees);
    expect(
      entries.filter((entry) => !/^(Device|Extra)_/.test(entry.name)).map((entry) => entry.name),
    ).toEqual(treeNames.map((name) => `${name}.json`));
    for (const name of treeNames) {
      // Byte for byte: the entry is a slice of the trees file, key order included.
      expect(treesText).toContain(byName.get(`${name}.json`));
    }
    expect(entries).toHaveLength(specs.devices.length + specs.extras.length + treeNames.length);
  });

  it("carries the data files' _notice (the data version) in the archive comment, as ASCII, beside the same entries", async () => {
    const { bytes } = await fetchArchive();
    const file = join(scratch, "comment.zip");
    await writeFile(file, bytes);
    const comment = await new Promise<string>((resolve, reject) => {
      openZip(file, { lazyEntries: true }, (error, zip) => {
        if (error || zip === undefined) reject(error);
        else {
          resolve(zip.comment);
          zip.close();
        }
      });
    });
    expect(comment).toMatch(/^[\x20-\x7e]+$/);
    const specs = JSON.parse(await readFile(SAMPLE_SPECS, "utf8"));
    const trees = JSON.parse(await readFile(SAMPLE_TREES, "utf8"));
    expect(JSON.parse(comment)).toEqual({ _notice: { specs: specs._notice, trees: trees._notice } });
  });

  it("builds the archive once per data version, even for concurrent downloads", async () => {
    const before = builds();
    const downloads = await Promise.all([fetchArchive(), fetchArchive(), fetchArchive()]);
    expect(downloads.every(({ bytes }) => bytes.equals(downloads[0]!.bytes))).toBe(true);
    expect(builds()).toBe(before);
    const trees = JSON.parse(await readFile(SAMPLE_TREES, "utf8"));
    trees.trees["user-agent9"] = { "10": { abc: { abcd: "1" } } };
    await writeFile(join(dataDir, "next-trees.json"), JSON.stringify(trees));
    await rename(join(dataDir, "next-trees.json"), join(dataDir, "hd3trees.json"));
    const [first, second] = await Promise.all([fetchArchive(), fetchArchive()]);
    expect(builds()).toBe(before + 1);
    expect(first.bytes.equals(second.bytes)).toBe(true);
    const names = (await entriesOf(first.bytes)).map((entry) => entry.name);
    expect(names).toContain("user-agent9.json");
  });

  it("answers 229 to an account without downloads", async () => {
    const { response, bytes } = await fetchArchive(users[1]);
    expect(response.status).toBe(200);
    expect(JSON.parse(bytes.toString("utf8"))).toMatchObject({
      status: 229,
      message: expect.stringMatching(/^Digest/),
    });
  });

  it("answers 503 with one warning when the data cannot make an archive, and recovers when it can", async () => {
    const good = await readFile(join(dataDir, "hd3specs.json"));
    await writeFile(join(dataDir, "hd3specs.json"), '{"devices":[{"Device":{"_id":"../x"}}]}');
    const warningsBefore = logged.filter((entry) => entry.details?.code === "HD_SERVER_ARCHIVE").length;
    for (let i = 0; i < 2; i++) {
      const { response, bytes } = await fetchArchive();
      expect(response.status).toBe(503);
      expect(JSON.parse(bytes.toString("utf8"))).toMatchObject({ status: 503 });
    }
    expect(logged.filter((entry) => entry.details?.code === "HD_SERVER_ARCHIVE").length).toBe(
      warningsBefore + 1,
    );
    await writeFile(join(dataDir, "hd3specs.json"), good);
    expect((await fetchArchive()).response.status).toBe(200);
  });
});

describe("fetcharchive without its data files", () => {
  it("answers 503 and warns HD_SERVER_DATA_FILE when a file is missing", async () => {
    const warnings: unknown[] = [];
    const missing = createApiHttpServer({
      engine: new FakeEngine(),
      users,
      specsFile: join(scratch, "no-such-specs.json"),
      treesFile: SAMPLE_TREES,
      logger: { warn: (_message, details) => warnings.push(details) },
    });
    await new Promise<void>((resolve) => missing.listen(0, "127.0.0.1", resolve));
    try {
      const uri = "/apiv3/site/fetcharchive/1.json";
      const response = await fetch(`http://127.0.0.1:${(missing.address() as AddressInfo).port}${uri}`, {
        method: "POST",
        headers: { authorization: digestHeader("alice", "s3cret", "POST", uri) },
        body: "{}",
      });
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ status: 503 });
      expect(warnings).toEqual([expect.objectContaining({ code: "HD_SERVER_DATA_FILE" })]);
    } finally {
      missing.closeAllConnections();
      await new Promise((resolve) => missing.close(resolve));
    }
  });
});

describe("ArchiveCache", () => {
  it("keeps the archive open but unlinked, and closes a superseded one after its last download", async () => {
    const root = await mkdtemp(join(scratch, "temp-root-"));
    const dir = await mkdtemp(join(scratch, "cache-data-"));
    const specs = join(dir, "specs.json");
    const trees = join(dir, "trees.json");
    await copyFile(SAMPLE_SPECS, specs);
    await copyFile(SAMPLE_TREES, trees);
    let built = 0;
    const cache = new ArchiveCache({ built: () => built++, failed: () => undefined }, root);
    const first = await cache.acquire(specs, trees);
    const again = await cache.acquire(specs, trees);
    expect(again.handle).toBe(first.handle);
    expect(built).toBe(1);
    expect(await readdir(root)).toEqual([]);
    again.release();

    await writeFile(join(dir, "next.json"), await readFile(trees));
    await rename(join(dir, "next.json"), trees);
    const next = await cache.acquire(specs, trees);
    expect(built).toBe(2);
    expect(next.handle).not.toBe(first.handle);
    expect((await first.handle.stat()).size).toBe(first.size);
    first.release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await expect(first.handle.stat()).rejects.toMatchObject({ code: "EBADF" });
    next.release();
    // The current archive stays open until the cache lets go of it: a cache dropped without
    // release() leaves its FileHandle to the garbage collector (Node's DEP0137 warning).
    cache.release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await expect(next.handle.stat()).rejects.toMatchObject({ code: "EBADF" });
  });

  it("closes the archive on release() once its downloads end, and builds it again when asked", async () => {
    const dir = await mkdtemp(join(scratch, "release-data-"));
    const specs = join(dir, "specs.json");
    const trees = join(dir, "trees.json");
    await copyFile(SAMPLE_SPECS, specs);
    await copyFile(SAMPLE_TREES, trees);
    let built = 0;
    const cache = new ArchiveCache({ built: () => built++, failed: () => undefined });
    const reading = await cache.acquire(specs, trees);
    cache.release();
    expect((await reading.handle.stat()).size).toBe(reading.size); // a download in progress keeps it
    reading.release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await expect(reading.handle.stat()).rejects.toMatchObject({ code: "EBADF" });
    const again = await cache.acquire(specs, trees);
    expect(built).toBe(2);
    expect((await again.handle.stat()).size).toBe(again.size);
    again.release();
    cache.release();
  });
});

describe("noticeComment", () => {
  it("escapes what is not ASCII, keeps what parses, and gives up on what does not fit a ZIP comment", () => {
    const comment = noticeComment({
      specs: Buffer.from('{"generated":"2025-01-01 00:00:00","note":"Ünïcødé 端末 📱"}'),
      trees: Buffer.from("not json"),
    });
    expect(comment).toMatch(/^[\x20-\x7e]+$/);
    expect(JSON.parse(comment ?? "")).toEqual({
      _notice: { specs: { generated: "2025-01-01 00:00:00", note: "Ünïcødé 端末 📱" } },
    });
    expect(noticeComment({})).toBeUndefined();
    expect(
      noticeComment({ specs: Buffer.from(JSON.stringify({ note: "x".repeat(70_000) })) }),
    ).toBeUndefined();
  });
});
