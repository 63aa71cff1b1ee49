// What a fresh process loads from the built package: only what the caller uses (the cloud client's transport once a client exists).

import { describe, expect, it } from "vitest";
import { runWithModuleLog } from "../support/module-log.js";

/** npm packages only a cloud call, an archive, a Redis store, the server or the metrics need. */
const NOT_FOR_LOCAL = ["digest-fetch", "ioredis", "prom-client", "undici", "yauzl", "yazl"];

/** Built modules only those need: the client's HTTP side, the Redis glue, the report, the server. */
const NOT_FOR_LOCAL_FILES =
  /^dist\/(client\/(calls|transport|digest|download|download-archive|read-body|stream-to-file)\.js|cache\/(redis|tiered)-store\.js|report\/|server\/|prometheus\/|cli\/)/;

/** A phone's user-agent the sample database knows. */
const IPHONE_UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

/** Runs an ES module source in a fresh `node` with the module log on, after `nodeArgs`. */
function runModule(source: string, nodeArgs: readonly string[] = []) {
  return runWithModuleLog([...nodeArgs, "--input-type=module", "-e", source]);
}

/** `--import` of a hook that fails the first `times` loads of the client's HTTP side, as a broken install would. */
function failingClientLoads(times: number): string[] {
  const hooks = `
    let failures = 0;
    export async function resolve(specifier, context, next) {
      const result = await next(specifier, context);
      if (result.url.endsWith("/dist/client/calls.js") && failures < ${times}) {
        failures++;
        throw new Error("the HTTP side failed to load");
      }
      return result;
    }`;
  const register = `import { register } from "node:module"; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
  return ["--import", `data:text/javascript,${encodeURIComponent(register)}`];
}

/** A child script: a loopback server answering every call with `reply`, and a client built against it. */
function withLoopbackApi(reply: unknown, body: string): string {
  return `
    import { createServer } from "node:http";
    import { HdClient } from "./dist/index.js";
    const server = createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        response.setHeader("content-type", "application/json");
        response.end(${JSON.stringify(JSON.stringify(reply))});
      });
    });
    await new Promise((done) => server.listen(0, "127.0.0.1", done));
    const baseUrl = "http://127.0.0.1:" + server.address().port;
    const logger = { warn() {}, error() {} };
    const client = new HdClient({ username: "u", secret: "s", siteId: 1, baseUrl, retries: 0, logger });
    try {
      ${body}
    } finally {
      await client.close();
      server.close();
    }`;
}

describe("a fresh process", () => {
  it("loads neither the cloud client's transport nor the Redis, report or server modules when it imports the root", async () => {
    const run = await runModule(`await import("./dist/index.js");`);
    expect(run.code, run.stderr).toBe(0);
    // The log works: the root and the engine are in it.
    expect(run.files).toEqual(expect.arrayContaining(["dist/index.js", "dist/engine/local-engine.js"]));
    expect(run.packages.filter((name) => NOT_FOR_LOCAL.includes(name))).toEqual([]);
    expect(run.files.filter((file) => NOT_FOR_LOCAL_FILES.test(file))).toEqual([]);
  });

  it("gives its first local answer without loading them either", async () => {
    const run = await runModule(`
      const { createDeviceDetector, sampleEngine } = await import("./dist/index.js");
      const detector = createDeviceDetector({ engine: sampleEngine(), cacheSize: 0 });
      const device = await detector.detect({ "user-agent": ${JSON.stringify(IPHONE_UA)} });
      console.log(device.specs.general_vendor, device.specs.general_model);`);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe("Apple iPhone");
    expect(run.packages.filter((name) => NOT_FOR_LOCAL.includes(name))).toEqual([]);
    expect(run.files.filter((file) => NOT_FOR_LOCAL_FILES.test(file))).toEqual([]);
  });

  it("loads a cloud client's transport once a client is built, and its first calls answer", async () => {
    const run = await runModule(
      withLoopbackApi(
        { status: 0, message: "OK", vendor: ["Apple", "Nokia"] },
        `const [first, second] = await Promise.all([client.vendors(), client.vendors()]);
         console.log(first.vendor.join(","), second.vendor.join(","));`,
      ),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe("Apple,Nokia Apple,Nokia");
    expect(run.packages).toEqual(expect.arrayContaining(["digest-fetch", "undici"]));
    expect(run.files).toEqual(expect.arrayContaining(["dist/client/calls.js", "dist/client/transport.js"]));
    // The archive reader (yauzl) waits for an archive download.
    expect(run.packages).not.toContain("yauzl");
  });

  it("loads no ZIP writer with the server entry, nor a Redis client with the Redis entry", async () => {
    const run = await runModule(`
      const server = await import("./dist/server/index.js");
      const redis = await import("./dist/cache/index.js");
      console.log(typeof server.createApiServer, typeof redis.createRedisStore);`);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe("function function");
    expect(run.files).toContain("dist/server/archive-cache.js");
    expect(run.files).not.toContain("dist/server/archive-builder.js");
    expect(run.packages.filter((name) => NOT_FOR_LOCAL.includes(name))).toEqual([]);
  });

  it("rejects the calls waiting on a failed load with its error, and loads again for the next call", async () => {
    const body = `
      const first = await client.vendors().catch((error) => error.message);
      const second = await client.vendors();
      console.log(first, "|", second.vendor.join(","));`;
    const once = await runModule(withLoopbackApi({ status: 0, message: "OK", vendor: ["Apple"] }, body), [
      ...failingClientLoads(1),
    ]);
    expect(once.code, once.stderr).toBe(0);
    expect(once.stdout.trim()).toBe("the HTTP side failed to load | Apple");
    const always = await runModule(
      withLoopbackApi(
        { status: 0, message: "OK", vendor: ["Apple"] },
        `console.log(await client.vendors().catch((error) => error.message));`,
      ),
      failingClientLoads(Number.MAX_SAFE_INTEGER),
    );
    // Closing a client whose HTTP side never loaded (withLoopbackApi closes it) opens nothing.
    expect(always.code, always.stderr).toBe(0);
    expect(always.stdout.trim()).toBe("the HTTP side failed to load");
  });

  it("closes a client that never called", async () => {
    const run = await runModule(`
      const { HdClient } = await import("./dist/index.js");
      const client = new HdClient({ username: "u", secret: "s", siteId: 1, proxy: "http://127.0.0.1:9" });
      await client.close();
      console.log("closed");`);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe("closed");
  });
});
