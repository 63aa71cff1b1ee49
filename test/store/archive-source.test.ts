// DataStore.sync through ArchiveDataSource: one archive download, the same atomic and validated install, tree key order kept.

import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ZipFile } from "yazl";
import { HdClient } from "../../src/client/index.js";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { silentLogger } from "../../src/logger.js";
import { createApiHttpServer } from "../../src/server/api-http-server.js";
import { ArchiveDataSource } from "../../src/store/archive-source.js";
import type { SyncDownloadOptions } from "../../src/store/data-source.js";
import { DataStore } from "../../src/store/data-store.js";
import { FakeEngine } from "../server/fake-engine.js";
import { SAMPLE_DEVICES } from "../support/sample-counts.js";
import { IPHONE_SAFARI_UA } from "../support/user-agents.js";

const SAMPLE_SPECS = "data/sample/sample-specs.json";
const SAMPLE_TREES = "data/sample/sample-trees.json";
const users = [
  { username: "alice", secret: "s3cret", downloads: true },
  { username: "bob", secret: "hunter2", downloads: false },
];
const TREES_VERSION = "2026-02-03 04:05:06";

let scratch: string;
let served: string;
let server: ReturnType<typeof createApiHttpServer>;
let baseUrl: string;
let dir: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "hd3-archive-source-"));
  served = join(scratch, "served");
  await mkdir(served);
  // Integer-like keys after a word key: JSON.parse would move "6620" first.
  const trees = JSON.parse(await readFile(SAMPLE_TREES, "utf8"));
  // A trees version of its own, and a note beyond ASCII: each notice must reach its own file.
  trees._notice = { ...trees._notice, generated: TREES_VERSION, note: "Données d'essai · 試験" };
  const text = JSON.stringify(trees).replace(
    '"trees":{',
    '"trees":{"x-test0":{"10":{"zeta":{"zeta1":"1","6620":"2"}}},',
  );
  await writeFile(join(served, "hd3trees.json"), text);
  await writeFile(join(served, "hd3specs.json"), await readFile(SAMPLE_SPECS));
  server = createApiHttpServer({ engine: new FakeEngine(), users, dataDir: served, logger: silentLogger });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(scratch, { recursive: true, force: true });
});

beforeEach(async () => {
  dir = await mkdtemp(join(scratch, "store-"));
});

const clients: HdClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

function clientAs(user = users[0]!) {
  const client = new HdClient({
    username: user.username,
    secret: user.secret,
    siteId: 1,
    baseUrl,
    retries: 0,
    timeoutMs: 5_000,
    logger: silentLogger,
  });
  clients.push(client);
  return client;
}

describe("ArchiveDataSource", () => {
  it("syncs from one archive download, and the engine detects as from the served files", async () => {
    const client = clientAs();
    let downloads = 0;
    const counting = {
      fetchArchive: (options: SyncDownloadOptions) => {
        downloads++;
        return client.fetchArchive(options);
      },
    };
    const store = new DataStore({
      dir,
      source: new ArchiveDataSource({ client: counting }),
      logger: silentLogger,
    });
    const result = await store.sync();
    expect(downloads).toBe(1);
    expect(result.info.devices).toBe(SAMPLE_DEVICES);
    expect((await readdir(dir)).filter((name) => !/^hd3(gen|flat)-/.test(name)).sort()).toEqual([
      "hd3current.json",
      "hd3pair",
      "hd3specs.json",
      "hd3trees.json",
    ]);
    const reference = await LocalEngine.fromFiles(
      join(served, "hd3specs.json"),
      join(served, "hd3trees.json"),
      {
        logger: silentLogger,
      },
    );
    expect(store.engine?.detect({ "user-agent": IPHONE_SAFARI_UA })).toEqual(
      reference.detect({ "user-agent": IPHONE_SAFARI_UA }),
    );
  });

  it("carries each download's data version (_notice) through the archive", async () => {
    const store = new DataStore({
      dir,
      source: new ArchiveDataSource({ client: clientAs() }),
      logger: silentLogger,
    });
    const { info } = await store.sync();
    const servedSpecs = JSON.parse(await readFile(join(served, "hd3specs.json"), "utf8"));
    const servedTrees = JSON.parse(await readFile(join(served, "hd3trees.json"), "utf8"));
    expect(info.specsGenerated).toBe(servedSpecs._notice.generated);
    expect(info.treesGenerated).toBe(TREES_VERSION);
    expect(JSON.parse(await readFile(join(dir, "hd3specs.json"), "utf8"))._notice).toEqual(
      servedSpecs._notice,
    );
    expect(JSON.parse(await readFile(join(dir, "hd3trees.json"), "utf8"))._notice).toEqual(
      servedTrees._notice,
    );
  });

  it("writes each tree byte for byte, integer-like keys where the server had them", async () => {
    const store = new DataStore({
      dir,
      source: new ArchiveDataSource({ client: clientAs() }),
      logger: silentLogger,
    });
    await store.sync();
    const written = await readFile(join(dir, "hd3trees.json"), "utf8");
    expect(written).toContain('"x-test0":{"10":{"zeta":{"zeta1":"1","6620":"2"}}}');
    const original = JSON.parse(await readFile(join(served, "hd3trees.json"), "utf8"));
    expect(JSON.parse(written)).toEqual({
      ...original,
      message: "OK",
      status: 0,
      trees: original.trees,
    });
  });

  it("keeps the data in use and leaves no archive behind when the account has no downloads (229)", async () => {
    const good = new DataStore({
      dir,
      source: new ArchiveDataSource({ client: clientAs() }),
      logger: silentLogger,
    });
    await good.sync();
    const before = await readFile(join(dir, "hd3specs.json"));
    const source = new ArchiveDataSource({ client: clientAs(users[1]) });
    const refused = new DataStore({ dir, source, logger: silentLogger });
    await expect(refused.sync()).rejects.toMatchObject({ code: "ERR_HD_SYNC", status: 229 });
    await source.close();
    expect(await readFile(join(dir, "hd3specs.json"))).toEqual(before);
    expect((await readdir(dir)).filter((name) => name.includes("archive") || name.endsWith(".tmp"))).toEqual(
      [],
    );
  });

  it("refuses an archive without trees, and one whose record does not match its name", async () => {
    const record = '{"Device":{"_id":"1","hd_specs":{"general_vendor":"A","general_model":"B"}}}';
    for (const [entries, problem] of [
      [[["Device_1.json", record]], "no <tree name>.json entry"],
      [
        [
          ["Device_2.json", record],
          ["user-agent0.json", "{}"],
        ],
        "is not a {",
      ],
      [
        [
          ["Device_1.json", record],
          ["user-agent0.json", '{"a":'],
        ],
        "not one JSON object",
      ],
    ] as const) {
      const source = new ArchiveDataSource({
        client: { fetchArchive: (options) => writeZip(options.toFile, entries) },
      });
      const store = new DataStore({ dir, source, logger: silentLogger });
      await expect(store.sync()).rejects.toMatchObject({
        code: "ERR_HD_SYNC",
        cause: expect.objectContaining({ code: "ERR_HD_DATA", message: expect.stringContaining(problem) }),
      });
      expect(await readdir(dir)).toEqual([]);
    }
  });

  it("reads an archive without our comment (the vendor's, another tool's) as one stating no data version", async () => {
    const record = '{"Device":{"_id":"1","hd_specs":{"general_vendor":"A","general_model":"B"}}}';
    const entries = [
      ["Device_1.json", record],
      ["user-agent0.json", '{"10":{"b":{"bb":"1"}}}'],
    ] as const;
    for (const comment of [
      undefined,
      "Handset Detection data",
      '{"_notice":"2024"}',
      '{"_notice":{"specs":[1]}}',
    ]) {
      const source = new ArchiveDataSource({
        client: { fetchArchive: (options) => writeZip(options.toFile, entries, comment) },
      });
      const { info } = await new DataStore({ dir, source, logger: silentLogger }).sync();
      expect(info).toMatchObject({ devices: 1, specsGenerated: undefined, treesGenerated: undefined });
    }
  });

  it("rejects options without a client that can fetch an archive", () => {
    expect(() => new ArchiveDataSource({ client: {} as never })).toThrow(
      expect.objectContaining({ code: "ERR_HD_INVALID_OPTION", option: "client" }),
    );
    expect(() => new ArchiveDataSource({ client: clientAs(), cleint: 1 } as never)).toThrow(
      expect.objectContaining({ option: "cleint" }),
    );
  });
});

async function writeZip(file: string, entries: readonly (readonly [string, string])[], comment?: string) {
  const zip = new ZipFile();
  for (const [name, text] of entries) zip.addBuffer(Buffer.from(text), name, { compress: false });
  zip.end(comment === undefined ? undefined : ({ comment } as Parameters<ZipFile["end"]>[0]));
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  await writeFile(file, Buffer.concat(chunks));
  return { file, bytes: Buffer.concat(chunks).length };
}
