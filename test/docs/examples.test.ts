// Runs every file of examples/ as a user would (a child Node process importing the package by name) against the sample database or a loopback API server.

import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HdClient } from "../../src/client/index.js";
import { sampleDataFiles } from "../../src/engine/sample-engine.js";
import { silentLogger } from "../../src/logger.js";
import { DESKTOP_UA, IPAD_UA, IPHONE_UA } from "../middleware/helpers.js";
import {
  ANDROID_LOW_ENTROPY_HINTS,
  MAC_SAFARI_UA,
  REDUCED_ANDROID_UA,
} from "../middleware/hinted-requests.js";
import { ApiTestServer, type ApiTestServerOptions } from "../support/api-test-server.js";
import { startRedisCluster } from "../support/redis-cluster.js";
import { hasRedisServer, NO_REDIS_MESSAGE, startRedisServer } from "../support/redis-server.js";
import { SAMPLE_DEVICES } from "../support/sample-counts.js";
import {
  EXAMPLE_TIMEOUT_MS,
  EXAMPLES_DIR,
  type ExampleEnv,
  runExample,
  startExample,
} from "./support/run-example.js";

const PIXEL_8_UA =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240805.005; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.122 Mobile Safari/537.36";

/** Per test: a few child processes, each bounded by EXAMPLE_TIMEOUT_MS. */
const TEST_TIMEOUT_MS = 3 * EXAMPLE_TIMEOUT_MS;

/** The examples this file runs: a new example without a test here fails the last test. */
const TESTED = new Set<string>();
function exampleTest(file: string, name: string, body: () => Promise<void>): void {
  TESTED.add(file);
  it.concurrent(`${file}: ${name}`, body, TEST_TIMEOUT_MS);
}

let scratch: string;
/** A directory holding the sample database under the names `hd3 sync` writes. */
let sampleDir: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "hd-docs-examples-"));
  sampleDir = join(scratch, "sample-data");
  const { specsPath, treesPath } = sampleDataFiles();
  await mkdir(sampleDir);
  await copyFile(specsPath, join(sampleDir, "hd3specs.json"));
  await copyFile(treesPath, join(sampleDir, "hd3trees.json"));
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** A loopback API v3 server on the sample database, and the environment that points an example at it. */
async function withApiServer(
  run: (server: ApiTestServer, env: ExampleEnv) => Promise<void>,
  options: ApiTestServerOptions = {},
): Promise<void> {
  const server = await ApiTestServer.start({ dataDir: sampleDir, ...options });
  try {
    await run(server, {
      HD_USERNAME: server.username,
      HD_SECRET: server.secret,
      HD_SITE_ID: "1",
      HD_BASE_URL: server.url,
    });
  } finally {
    await server.close();
  }
}

/** A fresh empty directory under the test's scratch directory. */
async function emptyDir(name: string): Promise<string> {
  return mkdtemp(join(scratch, `${name}-`));
}

/**
 * Waits until `count` other clients have finished their connection's ready check (ioredis sends
 * INFO, then uses the connection): the store skips commands until then, by design.
 */
async function waitForRedisClients(port: number, count: number): Promise<void> {
  const probe = new Redis(port, "127.0.0.1", { lazyConnect: true, maxRetriesPerRequest: 0 });
  await probe.connect();
  try {
    const own = String(await probe.client("ID"));
    for (let attempt = 0; attempt < 250; attempt++) {
      const list = String(await probe.client("LIST"));
      const ready = list
        .split("\n")
        .filter((line) => line.includes("cmd=") && !line.includes(`id=${own} `) && !/cmd=NULL\b/.test(line));
      if (ready.length >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`fewer than ${count} Redis clients became ready within 5 s`);
  } finally {
    probe.disconnect();
  }
}

/** Unexpected output on stderr: everything but the one-time plain-HTTP warning a loopback server causes. */
function unexpectedStderr(stderr: string): string {
  return stderr
    .split("\n")
    .filter((line) => line !== "" && !line.includes("HD_PLAIN_HTTP"))
    .join("\n");
}

/** The status line a server answers to a request line written as is, raw spaces included. */
async function rawStatusLine(url: string, requestLine: string): Promise<string> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.setTimeout(5_000, () => socket.destroy(new Error("no answer within 5 s")));
  socket.end(`${requestLine}\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`);
  let reply = "";
  for await (const chunk of socket) reply += String(chunk);
  return reply.split("\r\n")[0] ?? "";
}

/**
 * Two instances of a fleet example sharing one store: the first asks the cloud for a device, the
 * second answers it from the shared memo, and the API server saw one detection. `ready` runs once
 * both are up.
 */
async function expectOneDetectionForTwo(
  file: string,
  env: ExampleEnv,
  server: ApiTestServer,
  ready: () => Promise<void> = async () => {},
): Promise<void> {
  const first = await startExample(file, env);
  const second = await startExample(file, env);
  try {
    await ready();
    expect(await (await get(`${first.url}/`, PIXEL_8_UA)).json()).toEqual({
      model: "Pixel 8",
      source: "cloud",
    });
    expect(await (await get(`${second.url}/`, PIXEL_8_UA)).json()).toEqual({
      model: "Pixel 8",
      source: "memo",
    });
    expect(server.count("detect")).toBe(1);
  } finally {
    expect((await first.stop()).code).toBe(0);
    expect((await second.stop()).code).toBe(0);
  }
}

async function get(url: string, userAgent = IPHONE_UA): Promise<Response> {
  return fetch(url, { headers: { "user-agent": userAgent }, redirect: "manual" });
}

async function text(url: string, userAgent?: string): Promise<string> {
  return (await get(url, userAgent)).text();
}

describe("examples/", () => {
  exampleTest(
    "core-node-http.js",
    "names devices from a plain node:http server, with no Express",
    async () => {
      const app = await startExample("core-node-http.js");
      try {
        expect(await text(`${app.url}/`, IPHONE_UA)).toBe("Apple iPhone (Mobile)");
        expect(await text(`${app.url}/`, PIXEL_8_UA)).toBe("Google Pixel 8 (Mobile)");
      } finally {
        await app.stop();
      }
    },
  );

  exampleTest("core-fastify.js", "names devices in a Fastify hook", async () => {
    const app = await startExample("core-fastify.js");
    try {
      expect(await text(`${app.url}/`, IPHONE_UA)).toBe("iPhone (Mobile)");
      expect(await text(`${app.url}/`, DESKTOP_UA)).toContain("(Computer)");
    } finally {
      await app.stop();
    }
  });

  exampleTest("ten-lines.js", "names a phone's model and a computer's class, with no account", async () => {
    const app = await startExample("ten-lines.js");
    try {
      expect(await text(`${app.url}/`, IPHONE_UA)).toBe("A Apple iPhone phone");
      expect(await text(`${app.url}/`, PIXEL_8_UA)).toBe("A Google Pixel 8 phone");
      expect(await text(`${app.url}/`, DESKTOP_UA)).toBe("A Computer device");
    } finally {
      await app.stop();
    }
  });

  exampleTest("ten-lines.cjs", "the same from CommonJS, loading the package with import()", async () => {
    const app = await startExample("ten-lines.cjs");
    try {
      expect(await text(`${app.url}/`, PIXEL_8_UA)).toBe("A Google Pixel 8 phone");
      expect(await text(`${app.url}/`, DESKTOP_UA)).toBe("A Computer device");
    } finally {
      await app.stop();
    }
  });

  exampleTest(
    "client-hints.js",
    "names a Pixel 8 from its hints and an iPad from the page script",
    async () => {
      const app = await startExample("client-hints.js");
      const pixel8 = {
        "user-agent": REDUCED_ANDROID_UA,
        ...ANDROID_LOW_ENTROPY_HINTS,
        "sec-ch-ua-model": '"Pixel 8"',
        "sec-ch-ua-platform-version": '"14.0.0"',
      };
      try {
        const named = await fetch(`${app.url}/`, { headers: pixel8 });
        expect(await named.text()).toContain("<body>Google Pixel 8 (client-hints)</body>");
        expect(named.headers.get("accept-ch")).toContain("Sec-CH-UA-Model");
        expect(named.headers.get("accept-ch")).toContain("Sec-CH-UA-Form-Factors");
        expect(named.headers.get("permissions-policy")).toContain('"https://images.example"');
        expect(named.headers.get("critical-ch")).toBeNull();

        const firstPage = await fetch(`${app.url}/`, {
          headers: { "user-agent": REDUCED_ANDROID_UA, ...ANDROID_LOW_ENTROPY_HINTS },
        });
        expect(await firstPage.text()).toContain("(user-agent)");
        expect(firstPage.headers.get("critical-ch")).toBe("Sec-CH-UA-Model, Sec-CH-UA-Platform-Version");

        const iPad = await fetch(`${app.url}/`, {
          headers: { "user-agent": MAC_SAFARI_UA, cookie: "hd_screen=t5w1024h1366r2" },
        });
        expect(await iPad.text()).toMatch(/<body>Apple iPad[^<]*\(page-script\)<\/body>/);
        expect(await text(`${app.url}/`, MAC_SAFARI_UA)).toContain("(user-agent)");

        for (const path of ["/hd-device.js", "/assets/device.js"]) {
          const script = await fetch(`${app.url}${path}`);
          expect(script.status).toBe(200);
          expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
          expect(await script.text()).toContain("maxTouchPoints");
        }

        const csp = await fetch(`${app.url}/csp`, { headers: { "user-agent": IPHONE_UA } });
        const nonce = /'nonce-([^']+)'/.exec(csp.headers.get("content-security-policy") ?? "")?.[1];
        expect(nonce).toBeDefined();
        expect(await csp.text()).toContain(`<script nonce="${nonce}">`);

        const hints = await fetch(`${app.url}/hints`, { headers: pixel8 });
        expect(await hints.json()).toMatchObject({ mobile: true, platform: "Android", model: "Pixel 8" });
      } finally {
        await app.stop();
      }
    },
  );

  exampleTest("archive-sync.js", "downloads the archive, then syncs a data directory from it", async () => {
    await withApiServer(async (server, env) => {
      const dir = await emptyDir("archive");
      const result = await runExample("archive-sync.js", { ...env, HD_DATA_DIR: dir });
      expect(unexpectedStderr(result.stderr)).toBe("");
      expect(result.code).toBe(0);
      // The archive carries the data version: the trees' date is stated.
      expect(result.stdout).toMatch(
        new RegExp(`^archive of \\d+ bytes\\n${SAMPLE_DEVICES} devices, trees of \\d{4}-\\d\\d-\\d\\d`),
      );
      expect(server.count("fetcharchive")).toBe(2);
      expect(server.count("fetchspecs")).toBe(0);
      expect((await readdir(dir)).filter((name) => name.endsWith(".json")).sort()).toEqual([
        "hd3current.json",
        "hd3specs.json",
        "hd3trees.json",
      ]);
    });
  });

  exampleTest("cloud-middleware.js", "detects through the cloud client, geoip included", async () => {
    await withApiServer(async (server, env) => {
      const app = await startExample("cloud-middleware.js", env);
      try {
        expect(await text(`${app.url}/`, PIXEL_8_UA)).toBe(
          "Google Pixel 8 (Mobile) in Australia; mobile: true",
        );
        expect(await text(`${app.url}/`, PIXEL_8_UA)).toBe(
          "Google Pixel 8 (Mobile) in Australia; mobile: true",
        );
        expect(server.count("detect")).toBe(1);
      } finally {
        await app.stop();
      }
    });
  });

  exampleTest("cloud-middleware.js", "refuses to start without an account, naming the option", async () => {
    const result = await runExample("cloud-middleware.js");
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("ERR_HD_INVALID_OPTION");
  });

  exampleTest("local-data.js", "detects locally from a synced directory", async () => {
    const app = await startExample("local-data.js", { HD_DATA_DIR: sampleDir });
    try {
      expect(await (await get(`${app.url}/`, PIXEL_8_UA)).json()).toEqual({
        model: "Pixel 8",
        source: "local",
      });
      expect((await get(`${app.url}/readyz`)).status).toBe(200);
    } finally {
      await app.stop();
    }
  });

  exampleTest("serverless.js", "answers an event from the snapshot it loaded at module scope", async () => {
    const functionData = join(scratch, "function-data");
    await mkdir(functionData);
    await copyFile(sampleDataFiles().snapshotPath, join(functionData, "hd3snapshot.bin"));
    const result = await runExample("serverless.js", { HD_DATA_DIR: functionData });
    expect(unexpectedStderr(result.stderr)).toBe("");
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ class: "Mobile", vendor: "Apple", model: "iPhone" });
  });

  exampleTest("branching.js", "branches by class, picks an image and redirects phones", async () => {
    const app = await startExample("branching.js");
    try {
      expect(await text(`${app.url}/`, IPHONE_UA)).toBe("home for phones");
      expect(await text(`${app.url}/`, IPAD_UA)).toBe("home for tablets");
      expect(await text(`${app.url}/`, DESKTOP_UA)).toBe("home");
      expect((await get(`${app.url}/app`, IPHONE_UA)).headers.get("location")).toBe("/app/mobile");
      expect(await text(`${app.url}/app`, DESKTOP_UA)).toBe("the app");
      expect((await get(`${app.url}/hero.jpg`, IPHONE_UA)).headers.get("location")).toBe(
        "/img/hero-1280.jpg",
      );
      expect((await get(`${app.url}/hero.jpg`, DESKTOP_UA)).headers.get("location")).toBe(
        "/img/hero-1280.jpg",
      );
      const redirected = await get(`${app.url}/shop?page=2`, IPHONE_UA);
      expect(redirected.status).toBe(302);
      expect(redirected.headers.get("location")).toBe("https://m.example.com/shop?page=2");
      expect(await text(`${app.url}/shop?full=1`, IPHONE_UA)).toBe("the full shop");
      expect(await text(`${app.url}/shop`, DESKTOP_UA)).toBe("the full shop");
    } finally {
      await app.stop();
    }
  });

  exampleTest("fail-closed.js", "answers 503 when the cloud does not answer in time", async () => {
    await withApiServer(async (server, env) => {
      const app = await startExample("fail-closed.js", env);
      try {
        expect(await text(`${app.url}/`, IPHONE_UA)).toBe("Mobile");
        server.handle("detect", () => ({ kind: "hang" }));
        const late = await get(`${app.url}/`, DESKTOP_UA);
        expect(late.status).toBe(503);
        expect(await late.text()).toBe("Try again");
      } finally {
        await app.stop();
      }
    });
  });

  exampleTest("client.js", "detects a phone with the cloud client", async () => {
    await withApiServer(async (_server, env) => {
      const result = await runExample("client.js", env);
      expect(unexpectedStderr(result.stderr)).toBe("");
      expect(result.stdout).toBe("Mobile Apple iPhone\n");
      expect(result.code).toBe(0);
    });
  });

  exampleTest("client-calls.js", "makes every call of the API", async () => {
    await withApiServer(async (server, env) => {
      const result = await runExample("client-calls.js", env);
      expect(unexpectedStderr(result.stderr)).toBe("");
      expect(result.code).toBe(0);
      const lines = result.stdout.trim().split("\n");
      expect(lines[0]).toBe("0 Mobile Pixel 8");
      expect(lines[1]).toBe("301 Unknown");
      expect(lines[2]).toMatch(/^\d+ \d+ Pixel 8 \d+$/);
      expect(lines.at(-2)).toMatch(/^\d+ bytes in .*hd3trees\.json\.tmp$/);
      expect(lines.at(-1)).toBe(`${SAMPLE_DEVICES} devices`);
      for (const call of [
        "detect",
        "vendors",
        "models",
        "view",
        "whathas",
        "fetchtrees",
        "fetchspecs",
      ] as const) {
        expect(server.count(call), call).toBeGreaterThan(0);
      }
    });
  });

  exampleTest("errors.js", "tells a licence error apart", async () => {
    await withApiServer(
      async (_server, env) => {
        const result = await runExample("errors.js", env);
        expect(result.code).toBe(0);
        expect(result.stderr).toContain("downloads need an Ultimate licence: Digest authentication:");
      },
      { downloads: false },
    );
  });

  exampleTest("errors.js", "downloads with a licence", async () => {
    await withApiServer(async (_server, env) => {
      const result = await runExample("errors.js", env);
      expect(unexpectedStderr(result.stderr)).toBe("");
      expect(result.stdout).toBe("downloaded\n");
    });
  });

  exampleTest("local-engine.js", "detects, explains and browses the sample database", async () => {
    const result = await runExample("local-engine.js");
    expect(unexpectedStderr(result.stderr)).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`${SAMPLE_DEVICES} ${SAMPLE_DEVICES}\n0 Console Sony PlayStation 5\n`);
    expect(result.stdout).toContain("status: 301, message: 'Nothing found'");
  });

  exampleTest("report.js", "reports the device mix of a few lines, bad one included", async () => {
    const result = await runExample("report.js");
    expect(unexpectedStderr(result.stderr)).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("2 1\nCrawler 50 %, Mobile 50 %\n");
    expect(result.stdout).toContain("Vendor,Requests,Share\r\nApple,1,1.000000\n");
  });

  exampleTest("data-store.js", "syncs into an empty directory, then loads what is there", async () => {
    await withApiServer(async (server, env) => {
      const dir = await emptyDir("store");
      const first = await runExample("data-store.js", { ...env, HD_DATA_DIR: dir });
      expect(unexpectedStderr(first.stderr)).toBe("");
      expect(first.code).toBe(0);
      expect(first.stdout.startsWith(`${SAMPLE_DEVICES} devices, trees of `)).toBe(true);
      expect(first.stdout).toContain("now using trees of");
      // Two syncs: the pointer, the flat copies, the current and the previous generation, the
      // link to the flat copies and the flat names through it.
      expect((await readdir(dir)).sort()).toEqual([
        "hd3current.json",
        expect.stringMatching(/^hd3flat-/),
        expect.stringMatching(/^hd3gen-/),
        expect.stringMatching(/^hd3gen-/),
        "hd3pair",
        "hd3specs.json",
        "hd3trees.json",
      ]);
      const downloads = server.count("fetchspecs");
      const second = await runExample("data-store.js", { ...env, HD_DATA_DIR: dir });
      expect(second.code).toBe(0);
      expect(server.count("fetchspecs")).toBe(downloads + 1); // the load needs none; the nightly sync one
    });
  });

  exampleTest("api-server.js", "serves API v3 to a client with an account from the users file", async () => {
    const dir = await emptyDir("users");
    const usersFile = join(dir, "users.json");
    await writeFile(usersFile, JSON.stringify([{ username: "alice", secret: "s3cret", downloads: true }]));
    const app = await startExample("api-server.js", { HD_DATA_DIR: sampleDir, HD_USERS_FILE: usersFile });
    const client = new HdClient({
      username: "alice",
      secret: "s3cret",
      siteId: 1,
      baseUrl: app.url,
      logger: silentLogger,
    });
    try {
      const reply = await client.detect({ "user-agent": PIXEL_8_UA });
      expect(reply.hd_specs?.general_model).toBe("Pixel 8");
      expect((await client.vendors()).vendor).toContain("Google");
      expect((await client.fetchSpecs()).devices).toHaveLength(SAMPLE_DEVICES);
      const wrong = new HdClient({
        username: "alice",
        secret: "nope",
        siteId: 1,
        baseUrl: app.url,
        logger: silentLogger,
      });
      await expect(wrong.vendors()).rejects.toMatchObject({ code: "ERR_HD_AUTH" });
    } finally {
      await client.close();
      await app.stop();
    }
  });

  exampleTest("raw-spaces.js", "lets a request line with raw spaces reach the API", async () => {
    const app = await startExample("raw-spaces.js");
    try {
      // A request line as the PHP kit writes it reaches the API (401, not Node's 400).
      expect(await rawStatusLine(app.url, "GET /apiv3/device/view/Google/Pixel 8.json HTTP/1.1")).toBe(
        "HTTP/1.1 401 Unauthorized",
      );
    } finally {
      await app.stop();
    }
  });

  exampleTest("refresher.js", "loads or syncs on start, reports readiness, stops on SIGTERM", async () => {
    await withApiServer(async (_server, env) => {
      const app = await startExample("refresher.js", { ...env, HD_DATA_DIR: await emptyDir("refresh") });
      let stopped = false;
      try {
        const ready = await get(`${app.url}/readyz`);
        expect(ready.status).toBe(200);
        expect(await ready.json()).toMatchObject({
          ready: true,
          state: "idle",
          devices: SAMPLE_DEVICES,
          consecutiveFailures: 0,
        });
        expect(await text(`${app.url}/`, PIXEL_8_UA)).toBe("Pixel 8");
        const end = await app.stop();
        stopped = true;
        expect(end.code).toBe(0);
      } finally {
        if (!stopped) await app.stop();
      }
    });
  });

  exampleTest("metrics.js", "counts requests and cloud calls and reports each call", async () => {
    await withApiServer(async (_server, env) => {
      const app = await startExample("metrics.js", env);
      try {
        expect((await get(`${app.url}/readyz`)).status).toBe(200);
        expect(await text(`${app.url}/`, IPHONE_UA)).toBe("Mobile");
        expect(await text(`${app.url}/`, IPHONE_UA)).toBe("Mobile");
        const metrics = await (await get(`${app.url}/healthz/detection`)).json();
        expect(metrics).toMatchObject({
          mode: "cloud",
          requests: 3,
          memo: { hits: 2, misses: 1 },
          cloud: { calls: 1 },
        });
        expect(app.stdout()).toMatch(/cloud call ok \d+ ms/);
      } finally {
        await app.stop();
      }
    });
  });

  exampleTest("prometheus.js", "serves hd_ series and Node's default metrics on /metrics", async () => {
    const app = await startExample("prometheus.js");
    try {
      expect(await text(`${app.url}/`, IPHONE_UA)).toBe("Mobile");
      const scrape = await text(`${app.url}/metrics`);
      expect(scrape).toMatch(/^hd_requests_total\{source="local"\} 1$/m);
      expect(scrape).toMatch(/^# TYPE hd_cloud_latency_seconds histogram$/m);
      expect(scrape).toMatch(/^# TYPE process_cpu_user_seconds_total counter$/m);
    } finally {
      await app.stop();
    }
  });

  exampleTest("testing.js", "tests an app's device routes with fakeDevice and supertest", async () => {
    const result = await runExample("testing.js");
    expect(result).toMatchObject({ code: 0, stdout: "ok\n" });
  });

  const redisAvailable = hasRedisServer();
  describe.skipIf(!redisAvailable)(redisAvailable ? "with a real Redis" : NO_REDIS_MESSAGE, () => {
    exampleTest("redis-memo.js", "two instances share one detection through Redis", async () => {
      const redis = await startRedisServer();
      try {
        await withApiServer(async (server, env) => {
          const withRedis = { ...env, REDIS_URL: `redis://127.0.0.1:${redis.port}` };
          await expectOneDetectionForTwo("redis-memo.js", withRedis, server, () =>
            waitForRedisClients(redis.port, 2),
          );
        });
      } finally {
        await redis.stop();
      }
    });
  });

  describe.skipIf(!redisAvailable)(redisAvailable ? "with a real Redis Cluster" : NO_REDIS_MESSAGE, () => {
    exampleTest("redis-cluster.js", "two instances share one detection through a Redis Cluster", async () => {
      const cluster = await startRedisCluster(3);
      try {
        await withApiServer(async (server, env) => {
          const nodes = cluster.ports.map((port) => `127.0.0.1:${port}`).join(",");
          const withCluster = { ...env, REDIS_CLUSTER_NODES: nodes };
          await expectOneDetectionForTwo("redis-cluster.js", withCluster, server);
        });
      } finally {
        await cluster.stop();
      }
    });
  });

  it("has a test for every file in examples/", async () => {
    const files = (await readdir(EXAMPLES_DIR)).filter((name) => /\.([mc]?js|ts)$/.test(name));
    expect(files.filter((name) => !TESTED.has(name))).toEqual([]);
  });
});
