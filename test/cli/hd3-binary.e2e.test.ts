// The built `hd3` binary as a child process: what only the real binary proves (the shebang, the
// exit code reaching the shell, data and package.json found from dist/, a real pipe whose reader
// goes away). hd3.test.ts covers every command in-process.

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleEngine } from "../../src/engine/sample-engine.js";
import { SAMPLE_DEVICES } from "../../src/engine/sample-facts.js";
import { ApiTestServer } from "../support/api-test-server.js";
import { outputOf, textOf } from "../support/child-output.js";
import { GALAXY_S24_UA } from "../support/user-agents.js";
import { type BuiltPackage, builtPackage, type Hd3Result, REPO_ROOT, runHd3 } from "./support/hd3-binary.js";

let built: BuiltPackage;

beforeAll(() => {
  built = builtPackage();
});

afterAll(() => {
  built?.remove();
});

describe("the hd3 binary", () => {
  it("is package.json's bin, an executable script with a node shebang", () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
      bin?: Record<string, string>;
    };
    expect(pkg.bin).toEqual({ hd3: "dist/cli/main.js", "express-handset-detection": "dist/cli/main.js" });
    expect(readFileSync(built.bin, "utf8").split("\n")[0]).toBe("#!/usr/bin/env node");
  });

  it("prints the version from the package.json beside dist/", async () => {
    const { version } = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
      version: string;
    };
    expect(await runHd3(built, ["--version"])).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it("exits 2 with help on stderr when run with no command", async () => {
    const result = await runHd3(built, []);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("Usage: hd3 <command>");
  });

  it("detects from the sample database shipped in data/, and exits 5 when nothing matches", async () => {
    const found = await runHd3(built, ["detect", GALAXY_S24_UA]);
    expect(found.code).toBe(0);
    expect(found.stdout).toMatch(/^Samsung Galaxy S24 \(Mobile\)\n/);
    expect(found.stderr).toContain("SAMPLE database");
    const unknown = await runHd3(built, ["detect", "--json", "curl/8.5.0"]);
    expect(unknown.code).toBe(5);
    expect(JSON.parse(unknown.stdout)).toMatchObject({ status: 301, class: "Unknown" });
  });

  it("calls the cloud API and exits once the answer is printed", async () => {
    const server = await ApiTestServer.start({ username: "bin-user", secret: "bin-secret-123" });
    try {
      const result = await runHd3(built, ["vendors", "--json"], {
        HD_USERNAME: "bin-user",
        HD_SECRET: "bin-secret-123",
        HD_SITE_ID: "7",
        HD_BASE_URL: server.url,
      });
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({
        status: 0,
        vendor: expect.arrayContaining(["Nokia"]),
      });
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});

/**
 * `hd3 ...args | <reader>` in a shell, as a user types it. The result's code is hd3's own exit
 * status (the shell reports it on fd 3), stdout is what the reader printed, stderr is hd3's.
 */
function pipeHd3Into(reader: string, args: readonly string[]): Promise<Hd3Result> {
  const home = built.scratch("home");
  const script = `{ "$0" "$@" 3>&-; echo $? >&3; } | ${reader}`;
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", script, process.execPath, built.bin, ...args], {
      cwd: home,
      env: { PATH: process.env.PATH ?? "", HOME: home, XDG_CACHE_HOME: join(home, ".cache") },
      stdio: ["ignore", "pipe", "pipe", "pipe"],
    });
    const { stdout, stderr } = outputOf(child);
    const status = textOf(child.stdio[3] as Readable);
    child.on("error", reject);
    child.on("close", () =>
      resolve({ code: Number.parseInt(status(), 10), stdout: stdout(), stderr: stderr() }),
    );
  });
}

describe("the hd3 binary piped into a reader that goes away", () => {
  it.each([
    [["vendors"], "Amazon\n"],
    [["models", "Google"], `${sampleEngine().models("Google").model[0]}\n`],
    [["view", "Google", "Pixel 8"], /^general_vendor +Google\n$/],
    [["whathas", "general_type", "Mobile"], /^id +vendor +model\n$/],
    [["detect", GALAXY_S24_UA], "Samsung Galaxy S24 (Mobile)\n"],
  ] as const)("hd3 %j | head -n 1 prints one line and ends quietly with exit code 0", async (args, first) => {
    const result = await pipeHd3Into("head -n 1", [...args, "--quiet"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(first);
  });

  it("ends quietly when the reader has gone before the first line", async () => {
    const result = await pipeHd3Into("true", ["vendors", "--json"]);
    expect(result).toEqual({
      code: 0,
      stdout: "",
      stderr: `hd3: using the SAMPLE database (${SAMPLE_DEVICES} devices). For the real one: a licence with downloads, then \`hd3 sync\`.\n`,
    });
  });
});
