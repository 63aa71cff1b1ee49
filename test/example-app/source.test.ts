// How the example app picks its detection source (cloud, synced local data, sample database), and that each one answers.

import { copyFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import request from "supertest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiTestServer } from "../support/api-test-server.js";
import { IPHONE_UA, loadApp, loadSource, ROOT, sampleEnvironment } from "./support.js";

let sample: Awaited<ReturnType<typeof sampleEnvironment>>;

beforeEach(async () => {
  sample = await sampleEnvironment();
});

afterEach(async () => {
  await sample.cleanup();
});

/** Copies the sample files into `dir`, as `hd3 sync` would leave a real download. */
async function fakeSync(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await copyFile(join(ROOT, "data", "sample", "sample-specs.json"), join(dir, "hd3specs.json"));
  await copyFile(join(ROOT, "data", "sample", "sample-trees.json"), join(dir, "hd3trees.json"));
}

describe("chooseSource", () => {
  it("uses the sample database with no credentials and nothing synced", async () => {
    const { chooseSource } = await loadSource();
    const source = await chooseSource(sample.env);
    expect(source.kind).toBe("sample");
    expect(source.description).toContain("SAMPLE");
    expect(source.options.engine).toBeDefined();
  });

  it("uses synced data in HD_DATA_DIR", async () => {
    const { chooseSource } = await loadSource();
    const dir = join(sample.dir, "hd-data");
    await fakeSync(dir);
    const source = await chooseSource({ ...sample.env, HD_DATA_DIR: dir });
    expect(source).toMatchObject({ kind: "local", options: { cacheDir: dir } });
    expect(source.description).toContain(dir);
  });

  it("uses synced data in the CLI's default directory", async () => {
    const { chooseSource, dataDirFrom } = await loadSource();
    const dir = dataDirFrom(sample.env);
    expect(dir).toBe(join(sample.dir, "handset-detection"));
    await fakeSync(dir);
    expect((await chooseSource(sample.env)).kind).toBe("local");
  });

  it("uses the cloud when HD_USERNAME, HD_SECRET and HD_SITE_ID are all set, even with synced data", async () => {
    const { chooseSource } = await loadSource();
    await fakeSync(join(sample.dir, "handset-detection"));
    const source = await chooseSource({
      ...sample.env,
      HD_USERNAME: "u",
      HD_SECRET: "s",
      HD_SITE_ID: "7",
      HD_BASE_URL: "http://127.0.0.1:9",
    });
    expect(source).toMatchObject({
      kind: "cloud",
      options: { username: "u", secret: "s", siteId: "7", baseUrl: "http://127.0.0.1:9", mode: "cloud" },
    });
    expect(source.description).not.toContain("s)");
  });

  it("refuses an HD_DATA_DIR without synced data, rather than falling back to the sample database", async () => {
    const { chooseSource } = await loadSource();
    const missing = join(sample.dir, "no-such-dir");
    await expect(chooseSource({ ...sample.env, HD_DATA_DIR: missing })).rejects.toThrow(
      /^HD_DATA_DIR=.*no-such-dir holds no synced data .*sync --data-dir/,
    );
    const empty = join(sample.dir, "empty");
    await mkdir(empty);
    await expect(chooseSource({ ...sample.env, HD_DATA_DIR: empty })).rejects.toThrow(/holds no synced data/);
  });

  it("refuses an incomplete set of credentials, naming the missing ones", async () => {
    const { chooseSource } = await loadSource();
    await expect(chooseSource({ ...sample.env, HD_USERNAME: "u" })).rejects.toThrow(/HD_SECRET, HD_SITE_ID/);
  });
});

describe("the app on each source", () => {
  it("detects with synced local data and says so", async () => {
    const { createApp } = await loadApp();
    const dir = join(sample.dir, "hd-data");
    await fakeSync(dir);
    const app = await createApp({ env: { ...sample.env, HD_DATA_DIR: dir } });
    const res = await request(app).get("/").set("User-Agent", IPHONE_UA).expect(200);
    expect(res.text).toContain("Apple iPhone");
    expect(res.text).toContain("synced local database");
    expect(res.text).not.toContain("<strong>Sample data.</strong>");
  });

  it("detects with the cloud API and says so", async () => {
    // The app's client loads its HTTP side in the background once built, and a deployed app gets
    // its first request well after that; this one gets it at once. Loaded here first (the app
    // imports the built package), so that the request's budget times the call, not the load.
    await import(new URL("../../dist/client/calls.js", import.meta.url).href);
    const server = await ApiTestServer.start();
    try {
      const { createApp } = await loadApp();
      const app = await createApp({
        env: {
          ...sample.env,
          HD_USERNAME: server.username,
          HD_SECRET: server.secret,
          HD_SITE_ID: "54321",
          HD_BASE_URL: server.url,
        },
      });
      const res = await request(app)
        .get("/")
        .set("User-Agent", "Mozilla/5.0 (SymbianOS/9.2; U; Series60/3.1 NokiaN95_8GB/31.0.015)")
        .expect(200);
      expect(res.text).toContain("Nokia");
      expect(res.text).toContain("cloud API · Handset Detection cloud API");
      expect(server.count("detect")).toBe(1);
    } finally {
      await server.close();
    }
  });
});
