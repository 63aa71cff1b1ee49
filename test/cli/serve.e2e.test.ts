// `hd3 serve`, run as the real binary: HdClient and curl --digest against it, signals, reload.
// serve.test.ts covers its usage errors in-process.

import { execFile } from "node:child_process";
import { readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { HdClient } from "../../src/client/index.js";
import { HdAuthError, HdLicenceError } from "../../src/errors.js";
import { silentLogger } from "../../src/logger.js";
import { JsonSpanScanner } from "../../src/server/json-spans.js";
import { digestHeader } from "../server/digest-header.js";
import { kitStyleRequest, rawExchange } from "../server/support/raw-http.js";
import { fixtureSpecsDownload, fixtureTreesDownload } from "../support/api-test-fixtures.js";
import { switchToBrokenPair } from "../support/data-dir.js";
import { missingCommand, skipWhenMissing } from "../support/requirements.js";
import { SAMPLE_DEVICES } from "../support/sample-counts.js";
import { GALAXY_S24_UA } from "../support/user-agents.js";
import { type BuiltPackage, REPO_ROOT, runHd3 } from "./support/hd3-binary.js";
import {
  countingForwarder,
  type ServeFixture,
  type ServeProcess,
  serveFixture,
  SERVE_USERS as USERS,
} from "./support/hd3-serve.js";

const SAMPLE_TREES = join(REPO_ROOT, "data/sample/sample-trees.json");
const SAMPLE_SPECS = join(REPO_ROOT, "data/sample/sample-specs.json");

/** A sample file as the server sends it: the file's bytes with status and message added before its last brace. */
function withStatus(text: string): string {
  const at = text.lastIndexOf("}");
  return `${text.slice(0, at)},"message":"OK","status":0${text.slice(at)}`;
}

let fixture: ServeFixture;
let built: BuiltPackage;
let usersFile: string;

beforeAll(() => {
  fixture = serveFixture();
  ({ built, usersFile } = fixture);
});

afterEach(() => fixture.stopAll());

afterAll(() => fixture?.remove());

const serve = (args: readonly string[], env: Record<string, string> = {}): Promise<ServeProcess> =>
  fixture.serve(args, { env });

function clientOf(url: string, user = USERS[0]): HdClient {
  if (user === undefined) throw new Error("no user");
  return new HdClient({
    username: user.username,
    secret: user.secret,
    siteId: 1,
    baseUrl: url,
    retries: 0,
    timeoutMs: 5_000,
    logger: silentLogger,
  });
}

describe("hd3 serve on the sample database", () => {
  it("prints its URL and answers every call to HdClient with one request per call", async () => {
    const server = await serve(["--users-file", usersFile]);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.stdout()).toMatch(
      new RegExp(`API v3 at http://127\\.0\\.0\\.1:\\d+ \\(${SAMPLE_DEVICES} devices, .*; 2 users\\)`),
    );
    expect(server.stderr()).toContain("serving the SAMPLE database");
    const forwarder = await countingForwarder(server.url);
    const client = clientOf(forwarder.url);
    try {
      const detected = await client.detect({ "user-agent": GALAXY_S24_UA });
      expect(detected).toMatchObject({
        status: 0,
        class: "Mobile",
        hd_specs: { general_vendor: "Samsung", general_model: "Galaxy S24" },
      });
      const vendors = await client.vendors();
      expect(vendors.vendor).toContain("Samsung");
      const models = await client.models("samsung");
      expect(models.model).toContain("Galaxy S24");
      const view = await client.view("Apple", "iPhone");
      expect(view.device).toMatchObject({ general_vendor: "Apple", general_model: "iPhone" });
      const whatHas = await client.whatHas("general_type", "Console");
      expect(whatHas.devices.length).toBeGreaterThan(0);
      const specs = await client.fetchSpecs();
      expect(specs.devices).toHaveLength(SAMPLE_DEVICES);
      const treesFile = join(built.scratch("serve-downloads"), "trees.json");
      const download = await client.fetchTrees({ toFile: treesFile });
      expect(readFileSync(treesFile, "utf8")).toBe(withStatus(readFileSync(SAMPLE_TREES, "utf8")));
      expect(download.bytes).toBe(readFileSync(treesFile).length);
      await expect(client.view("Apple", "No Such Phone")).rejects.toMatchObject({ code: "ERR_HD_NOT_FOUND" });
      await expect(client.detect({ "user-agent": "curl/8.5.0" })).rejects.toMatchObject({
        code: "ERR_HD_NOT_FOUND",
        reply: { class: "Unknown" },
      });
      expect(forwarder.exchanges).toHaveLength(9);
      expect(forwarder.exchanges.every((e) => e.status === 200 && e.authorized)).toBe(true);
      expect(forwarder.exchanges.every((e) => e.method === "POST")).toBe(true);
    } finally {
      await client.close();
      await forwarder.close();
    }
  });

  it("refuses downloads to an account without them (229) and wrong secrets (401)", async () => {
    const server = await serve(["--users-file", usersFile]);
    const bob = clientOf(server.url, USERS[1]);
    const stranger = clientOf(server.url, { username: "alice", secret: "wrong-secret", downloads: true });
    try {
      expect((await bob.vendors()).status).toBe(0);
      await expect(bob.fetchSpecs()).rejects.toBeInstanceOf(HdLicenceError);
      await expect(bob.fetchTrees()).rejects.toMatchObject({ code: "ERR_HD_LICENCE", status: 229 });
      await expect(stranger.vendors()).rejects.toBeInstanceOf(HdAuthError);
    } finally {
      await bob.close();
      await stranger.close();
    }
    expect(server.stdout() + server.stderr()).not.toMatch(/alice-secret-1|bob-secret-22/);
  });

  it("stops cleanly with exit code 0 on SIGTERM and on SIGINT", async () => {
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      const server = await serve(["--users-file", usersFile]);
      const code = await server.stop(signal);
      expect(code).toBe(0);
      expect(server.stderr()).toContain(`${signal}: shutting down`);
      expect(server.stderr()).toContain("stopped");
    }
  });

  it("serves Prometheus metrics on /metrics with --metrics, beside the API", async () => {
    const server = await serve(["--users-file", usersFile, "--metrics"]);
    const client = clientOf(server.url);
    try {
      expect((await client.vendors()).vendor).toContain("Google");
      const response = await fetch(`${server.url}/metrics`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toContain("text/plain");
      const text = await response.text();
      expect(text).toMatch(/^hd_api_requests_total\{call="vendors"\} 1$/m);
      expect(text).toMatch(/^hd_local_data_devices \d+$/m);
      expect(text).toMatch(/^# TYPE process_cpu_user_seconds_total counter$/m);
      expect(server.stderr()).toContain(`Prometheus metrics at ${server.url}/metrics`);
      // Without the flag there is no /metrics: the API's own 404.
      const plain = await serve(["--users-file", usersFile]);
      expect((await fetch(`${plain.url}/metrics`)).status).toBe(404);
    } finally {
      await client.close();
    }
  });

  it("answers a kit-style request line with raw spaces, signed over the raw path", async () => {
    const server = await serve(["--users-file", usersFile]);
    const port = Number(new URL(server.url).port);
    const request = kitStyleRequest("/apiv3/device/view/Samsung/Galaxy S25 Ultra.json", {
      username: "alice",
      secret: "alice-secret-1",
    });
    const { replies } = await rawExchange(port, request);
    expect(replies[0]?.status).toBe(200);
    expect(JSON.parse(replies[0]?.body ?? "")).toMatchObject({
      device: { general_model: "Galaxy S25 Ultra" },
    });
  });

  it("drops an incomplete request within the limits its flags set", async () => {
    const server = await serve([
      "--users-file",
      usersFile,
      "--headers-timeout-ms",
      "300",
      "--request-timeout-ms",
      "600",
      "--keep-alive-timeout-ms",
      "300",
      "--max-body-bytes",
      "2048",
    ]);
    const port = Number(new URL(server.url).port);
    const started = performance.now();
    const slow = await rawExchange(port, "POST /apiv3/device/vendors.json HTTP/1.1\r\nHost: h\r\n");
    expect(slow.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(performance.now() - started).toBeLessThan(3_000);
    const uri = "/apiv3/site/detect/1.json";
    const big = await rawExchange(
      port,
      `POST ${uri} HTTP/1.1\r\nHost: h\r\nAuthorization: ${digestHeader("alice", "alice-secret-1", "POST", uri)}\r\n` +
        `Content-Length: 4096\r\n\r\n${"x".repeat(4096)}`,
    );
    expect(big.replies[0]?.status).toBe(413);
  });

  it("takes the users file from HD_USERS_FILE", async () => {
    const server = await serve([], { HD_USERS_FILE: usersFile });
    const client = clientOf(server.url);
    try {
      expect((await client.vendors()).status).toBe(0);
    } finally {
      await client.close();
    }
  });
});

const skipCurl = skipWhenMissing("test/cli/serve.e2e", missingCommand("curl"));

describe.skipIf(skipCurl)("hd3 serve with curl --digest", () => {
  function curl(url: string, password: string, body?: string) {
    const args = ["--silent", "--show-error", "--noproxy", "*", "--max-time", "10", "--digest"];
    args.push("--user", `alice:${password}`, "--header", "Content-Type: application/json");
    args.push("--write-out", "\n%{http_code}");
    if (body !== undefined) args.push("--data-binary", body);
    args.push(url);
    return new Promise<{ httpStatus: number; body: string }>((resolve, reject) => {
      execFile("curl", args, { encoding: "utf8" }, (error, stdout) => {
        if (error) reject(error);
        else {
          const cut = stdout.lastIndexOf("\n");
          resolve({ httpStatus: Number(stdout.slice(cut + 1)), body: stdout.slice(0, cut) });
        }
      });
    });
  }

  it("answers every call to curl, and 401 to a wrong password", async () => {
    const { url } = await serve(["--users-file", usersFile]);
    const secret = "alice-secret-1";
    const detect = await curl(
      `${url}/apiv3/site/detect/1.json`,
      secret,
      JSON.stringify({ "user-agent": GALAXY_S24_UA }),
    );
    expect(detect.httpStatus).toBe(200);
    expect(JSON.parse(detect.body)).toMatchObject({ status: 0, hd_specs: { general_model: "Galaxy S24" } });
    const vendors = JSON.parse((await curl(`${url}/apiv3/device/vendors.json`, secret)).body);
    expect(vendors).toMatchObject({ status: "0", message: "OK" });
    expect(vendors.vendor).toContain("Apple");
    const models = JSON.parse((await curl(`${url}/apiv3/device/models/Apple.json`, secret)).body);
    expect(models.model).toContain("iPhone");
    const view = JSON.parse((await curl(`${url}/apiv3/device/view/Apple/iPhone.json`, secret)).body);
    expect(view).toMatchObject({ status: "0", device: { general_model: "iPhone" } });
    const whatHas = JSON.parse(
      (await curl(`${url}/apiv3/device/whathas/general_vendor/apple.json`, secret)).body,
    );
    expect(whatHas.devices.length).toBeGreaterThan(0);
    const trees = await curl(`${url}/apiv3/site/fetchtrees/1.json`, secret, "{}");
    expect(trees.body).toBe(withStatus(readFileSync(SAMPLE_TREES, "utf8")));
    const specs = await curl(`${url}/apiv3/site/fetchspecs/1.json`, secret, "{}");
    expect(specs.body).toBe(withStatus(readFileSync(SAMPLE_SPECS, "utf8")));
    expect((await curl(`${url}/apiv3/device/vendors.json`, "wrong")).httpStatus).toBe(401);
  });
});

describe("hd3 serve --data-dir", () => {
  it("serves synced data and reloads it on SIGHUP", async () => {
    const dir = built.scratch("serve-data");
    writeFileSync(join(dir, "hd3specs.json"), JSON.stringify(fixtureSpecsDownload()));
    writeFileSync(join(dir, "hd3trees.json"), JSON.stringify(fixtureTreesDownload()));
    const server = await serve(["--users-file", usersFile, "--data-dir", dir]);
    expect(server.stderr()).toContain(`serving local data in ${dir}`);
    const client = clientOf(server.url);
    try {
      expect((await client.vendors()).vendor).toEqual(["Apple", "Nokia", "Sony Ericsson", "Ünïcødé 端末"]);
      const trees = join(dir, "download.json");
      await client.fetchTrees({ toFile: trees });
      expect(readFileSync(trees, "utf8")).toBe(withStatus(readFileSync(join(dir, "hd3trees.json"), "utf8")));

      writeFileSync(join(dir, "hd3specs.json"), readFileSync(SAMPLE_SPECS));
      writeFileSync(join(dir, "hd3trees.json"), readFileSync(SAMPLE_TREES));
      server.child.kill("SIGHUP");
      await expect.poll(() => server.stderr(), { timeout: 10_000 }).toContain("reloaded");
      expect((await client.vendors()).vendor).toContain("Samsung");
      expect((await client.detect({ "user-agent": GALAXY_S24_UA })).hd_specs?.general_model).toBe(
        "Galaxy S24",
      );
    } finally {
      await client.close();
    }
  });

  it("picks up a `hd3 sync` into its directory without a signal, and refuses a pair that does not load", async () => {
    const dir = built.scratch("serve-follow");
    writeFileSync(join(dir, "hd3specs.json"), JSON.stringify(fixtureSpecsDownload()));
    writeFileSync(join(dir, "hd3trees.json"), JSON.stringify(fixtureTreesDownload()));
    const server = await serve(["--users-file", usersFile, "--data-dir", dir]);
    const vendor = await serve(["--users-file", usersFile]);
    const client = clientOf(server.url);
    try {
      expect((await client.vendors()).vendor).not.toContain("Samsung");
      const synced = await runHd3(built, ["sync", "--quiet", "--data-dir", dir], {
        HD_USERNAME: "alice",
        HD_SECRET: "alice-secret-1",
        HD_SITE_ID: "1",
        HD_BASE_URL: vendor.url,
      });
      expect(synced.code).toBe(0);
      await expect.poll(async () => (await client.vendors()).vendor, { timeout: 5_000 }).toContain("Samsung");
      expect(server.stderr()).toContain(`reloaded ${dir} (${SAMPLE_DEVICES} devices`);

      // What `hd3 sync` left is in use (a download: status and message included): the downloads serve it.
      const pointer = JSON.parse(readFileSync(join(dir, "hd3current.json"), "utf8"));
      const inUse = join(dir, pointer.current.generation, "hd3trees.json");
      const before = join(built.scratch("serve-follow-downloads"), "trees.json");
      await client.fetchTrees({ toFile: before });
      expect(readFileSync(before, "utf8")).toBe(readFileSync(inUse, "utf8"));

      // A new pair that does not load is refused: detections and downloads stay on the pair in use.
      switchToBrokenPair(dir);
      await expect
        .poll(() => server.stderr(), { timeout: 5_000 })
        .toContain(`the data in ${dir} does not load, still serving the previous data`);
      expect((await client.detect({ "user-agent": GALAXY_S24_UA })).hd_specs?.general_model).toBe(
        "Galaxy S24",
      );
      const after = join(built.scratch("serve-follow-downloads"), "trees-after.json");
      await client.fetchTrees({ toFile: after });
      expect(readFileSync(after, "utf8")).toBe(readFileSync(inUse, "utf8"));
      expect((await client.fetchSpecs()).devices).toHaveLength(SAMPLE_DEVICES);
      const archive = join(built.scratch("serve-follow-downloads"), "ultimate.zip");
      expect((await client.fetchArchive({ toFile: archive })).bytes).toBeGreaterThan(1000);
    } finally {
      await client.close();
    }
  });
});

describe("hd3 serve --sync-every", () => {
  const alice = { HD_USERNAME: "alice", HD_SECRET: "alice-secret-1", HD_SITE_ID: "1" };

  it("mirrors another hd3 serve: syncs an empty directory first, then on its schedule", async () => {
    const mirrorDir = built.scratch("mirror-data");
    writeFileSync(join(mirrorDir, "hd3specs.json"), JSON.stringify(fixtureSpecsDownload()));
    writeFileSync(join(mirrorDir, "hd3trees.json"), JSON.stringify(fixtureTreesDownload()));
    const mirror = await serve(["--users-file", usersFile, "--data-dir", mirrorDir]);
    const dir = built.scratch("mirrored-data");
    const server = await serve(["--users-file", usersFile, "--data-dir", dir, "--sync-every", "1s"], {
      ...alice,
      HD_BASE_URL: mirror.url,
    });
    expect(server.stderr()).toContain(`no synced data in ${dir} yet: syncing from ${mirror.url}`);
    const client = clientOf(server.url);
    try {
      expect((await client.vendors()).vendor).toEqual(["Apple", "Nokia", "Sony Ericsson", "Ünïcødé 端末"]);

      // New data reaches the mirror (a sync there, here a rename); the next scheduled sync brings it.
      for (const [from, to] of [
        [SAMPLE_SPECS, "hd3specs.json"],
        [SAMPLE_TREES, "hd3trees.json"],
      ] as const) {
        writeFileSync(join(mirrorDir, `${to}.tmp`), readFileSync(from));
        renameSync(join(mirrorDir, `${to}.tmp`), join(mirrorDir, to));
      }
      await expect.poll(async () => (await client.vendors()).vendor, { timeout: 8_000 }).toContain("Samsung");
      expect(server.stderr()).toMatch(new RegExp(`synced .*mirrored-data \\(${SAMPLE_DEVICES} devices`));
      expect(server.stderr()).not.toContain("reloaded"); // its own syncs are not reloaded twice
    } finally {
      await client.close();
    }
  });

  it("keeps serving when a scheduled sync fails, and says so", async () => {
    const dir = built.scratch("sync-refused");
    writeFileSync(join(dir, "hd3specs.json"), readFileSync(SAMPLE_SPECS));
    writeFileSync(join(dir, "hd3trees.json"), readFileSync(SAMPLE_TREES));
    const mirror = await serve(["--users-file", usersFile]);
    // bob has no downloads: the first scheduled sync, a second later, is refused with 229.
    const server = await serve(["--users-file", usersFile, "--data-dir", dir, "--sync-every", "1s"], {
      HD_USERNAME: "bob",
      HD_SECRET: "bob-secret-22",
      HD_SITE_ID: "1",
      HD_BASE_URL: mirror.url,
    });
    await expect
      .poll(() => server.stderr(), { timeout: 8_000 })
      .toContain("sync failed, still serving the previous data");
    const client = clientOf(server.url);
    try {
      expect((await client.vendors()).vendor).toContain("Samsung");
    } finally {
      await client.close();
    }
    expect(server.stderr()).not.toContain("bob-secret-22");
  });
});

describe("hd3 sync --archive from hd3 serve", () => {
  it("syncs the served data from one fetcharchive download, trees byte for byte", async () => {
    const server = await serve(["--users-file", usersFile]);
    const dir = built.scratch("sync-archive");
    const credentials = {
      HD_USERNAME: "alice",
      HD_SECRET: "alice-secret-1",
      HD_SITE_ID: "1",
      HD_BASE_URL: server.url,
    };
    const result = await runHd3(built, ["sync", "--archive", "--json", "--data-dir", dir], credentials);
    expect(result.code).toBe(0);
    // The archive carries the data version: the summary states it as the served files do.
    const sampleVersion = (file: string) => JSON.parse(readFileSync(file, "utf8"))._notice.generated;
    expect(JSON.parse(result.stdout)).toMatchObject({
      devices: SAMPLE_DEVICES,
      specsGenerated: sampleVersion(SAMPLE_SPECS),
      treesGenerated: sampleVersion(SAMPLE_TREES),
    });
    expect(result.stderr).toContain("from the fetcharchive archive");
    const synced = readFileSync(join(dir, "hd3trees.json"), "utf8");
    const spans = new JsonSpanScanner(["trees"]).push(readFileSync(SAMPLE_TREES));
    expect(spans.length).toBeGreaterThan(3);
    for (const span of spans)
      expect(synced).toContain(`${JSON.stringify(span.name)}:${span.bytes.toString("utf8")}`);
    const detected = await runHd3(built, ["detect", "--json", "--data-dir", dir, GALAXY_S24_UA]);
    expect(JSON.parse(detected.stdout)).toMatchObject({ hd_specs: { general_model: "Galaxy S24" } });
  });

  it("exits 3 for an account without downloads, leaving the data directory empty", async () => {
    const server = await serve(["--users-file", usersFile]);
    const dir = built.scratch("sync-archive-refused");
    const credentials = {
      HD_USERNAME: "bob",
      HD_SECRET: "bob-secret-22",
      HD_SITE_ID: "1",
      HD_BASE_URL: server.url,
    };
    const result = await runHd3(built, ["sync", "--archive", "--data-dir", dir], credentials);
    expect(result.code).toBe(3);
    expect(readdirSync(dir)).toEqual([]);
  });
});
