// After close(), nothing of the package keeps the event loop alive: a process that used it exits by itself.

import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleDataFiles } from "../../src/engine/sample-engine.js";
import { IPHONE_UA } from "../middleware/helpers.js";
import { outputOf } from "../support/child-output.js";

const ROOT = new URL("../../", import.meta.url);
/** How long a process that closed the middleware may take to exit by itself. */
const EXIT_WITHIN_MS = 10_000;

/**
 * A process of a user's: the middleware with a cloud client it builds from credentials (whose
 * keep-alive connection it holds), a `cacheDir` it follows and a monthly quota; one request;
 * then `close()`. It never calls process.exit.
 */
const SCRIPT = `
import { handsetDetection } from ${JSON.stringify(new URL("dist/index.js", ROOT).href)};
const mw = handsetDetection({
  username: "u", secret: "s", siteId: 1, baseUrl: process.env.BASE_URL, mode: "cloud",
  cacheDir: process.env.DATA_DIR, monthlyQuota: 1000, timeoutMs: 15000, logger: { warn() {} },
});
const req = { headers: { "user-agent": ${JSON.stringify(IPHONE_UA)} }, url: "/", method: "GET", ip: "127.0.0.1" };
const res = { locals: {}, headersSent: false, getHeader() {}, setHeader() {} };
await new Promise((next) => mw(req, res, next));
console.log("detected", req.device.source, req.device.class);
await mw.close();
console.log("done");
`;

let cloud: Server;
let scratch: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "hd-close-"));
  const { specsPath, treesPath } = sampleDataFiles();
  writeFileSync(join(scratch, "hd3specs.json"), readFileSync(specsPath));
  writeFileSync(join(scratch, "hd3trees.json"), readFileSync(treesPath));
  writeFileSync(join(scratch, "user.mjs"), SCRIPT);
  // A cloud on loopback that keeps idle connections for a minute, as a real one may.
  cloud = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({ status: 0, message: "OK", class: "Mobile", hd_specs: { general_vendor: "Apple" } }),
      );
    });
  });
  cloud.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => cloud.listen(0, "127.0.0.1", resolve));
});

afterAll(async () => {
  cloud.closeAllConnections();
  await new Promise((resolve) => cloud.close(resolve));
  rmSync(scratch, { recursive: true, force: true });
});

/**
 * Runs the user's process until it exits by itself, or until it has been alive `aliveMs` after
 * printing "done" (then it is killed and `"alive"` is answered). Bounded by `limitMs` in all.
 */
function runUser(aliveMs: number, limitMs: number): Promise<{ exit: number | "alive"; stdout: string }> {
  const child = spawn(process.execPath, [join(scratch, "user.mjs")], {
    env: {
      ...process.env,
      BASE_URL: `http://127.0.0.1:${(cloud.address() as AddressInfo).port}`,
      DATA_DIR: scratch,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = outputOf(child);
  return new Promise((resolve) => {
    const alive = (): void => {
      child.kill("SIGKILL");
      resolve({ exit: "alive", stdout: output.stdout() });
    };
    const limit = setTimeout(alive, limitMs);
    let watch: NodeJS.Timeout | undefined;
    child.stdout?.on("data", () => {
      if (watch === undefined && output.stdout().includes("done")) watch = setTimeout(alive, aliveMs);
    });
    child.on("exit", (code) => {
      clearTimeout(limit);
      clearTimeout(watch);
      resolve({ exit: code ?? -1, stdout: output.stdout() });
    });
  });
}

describe("close()", () => {
  it("lets a process that used the middleware exit by itself", async () => {
    const closed = await runUser(EXIT_WITHIN_MS, 2 * EXIT_WITHIN_MS);
    expect(closed.stdout).toContain("detected cloud Mobile");
    expect(closed.exit).toBe(0);
  }, 30_000);
});
