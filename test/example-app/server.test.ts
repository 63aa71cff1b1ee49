// `node example-app/server.js` (what `npm start` runs): starts, says its URL and detection source, answers, stops.

import { type ChildProcess, spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { envWithoutHd, IPHONE_UA, ROOT, SERVER_SCRIPT, sampleEnvironment } from "./support.js";

const children: ChildProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
  }
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/** Spawns the server and waits until it prints both its URL and its source line (or exits). */
async function startServer(extraEnv: Record<string, string>): Promise<Started> {
  const sample = await sampleEnvironment();
  cleanups.push(sample.cleanup);
  const child = spawn(process.execPath, [SERVER_SCRIPT], {
    cwd: ROOT,
    env: { ...envWithoutHd(), ...sample.env, HOST: "127.0.0.1", PORT: "0", ...extraEnv },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let text = "";
  child.stdout?.setEncoding("utf8");
  child.stderr?.setEncoding("utf8");
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${text}`)), 15_000);
    timer.unref();
    const check = (chunk: string) => {
      text += chunk;
      const match = /Example app: (http:\/\/127\.0\.0\.1:\d+)/.exec(text);
      if (match && /Detection source: .*\n/.test(text)) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout?.on("data", check);
    child.stderr?.on("data", check);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${text}`));
    });
  });
  return { child, url, output: () => text };
}

/** Runs the server expecting it to fail at once; gives its exit code and output. */
async function failingServer(
  extraEnv: Record<string, string>,
): Promise<{ code: number | null; text: string }> {
  const sample = await sampleEnvironment();
  cleanups.push(sample.cleanup);
  const child = spawn(process.execPath, [SERVER_SCRIPT], {
    cwd: ROOT,
    env: { ...envWithoutHd(), ...sample.env, HOST: "127.0.0.1", ...extraEnv },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let text = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, text };
}

describe("node example-app/server.js", () => {
  it("starts on PORT, prints its URL and that it uses the sample database, and answers", async () => {
    const { child, url, output } = await startServer({});
    expect(output()).toMatch(/Detection source: sample: SAMPLE database \(\d+ devices\)/);
    const res = await fetch(`${url}/api/device`, { headers: { "user-agent": IPHONE_UA } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ class: "Mobile", specs: { general_model: "iPhone" } });
    const page = await fetch(`${url}/`, { headers: { "user-agent": IPHONE_UA } });
    expect(await page.text()).toContain("Apple iPhone");

    const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve(code ?? signal)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });

  it("refuses a bad PORT with a message and exit code 1", async () => {
    const { code, text } = await failingServer({ PORT: "eighty" });
    expect(code).toBe(1);
    expect(text).toContain("PORT must be a whole number");
  });

  it("refuses an HD_DATA_DIR without synced data with a message and exit code 1", async () => {
    const { code, text } = await failingServer({ PORT: "0", HD_DATA_DIR: "/nonexistent/hd-data" });
    expect(code).toBe(1);
    expect(text).toContain("HD_DATA_DIR=/nonexistent/hd-data holds no synced data");
  });

  it("refuses incomplete credentials, naming the missing variables", async () => {
    const { code, text } = await failingServer({ PORT: "0", HD_USERNAME: "someone" });
    expect(code).toBe(1);
    expect(text).toContain("HD_SECRET, HD_SITE_ID missing");
  });
});
