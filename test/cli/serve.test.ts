// `hd3 serve` in-process through runCli: the usage errors and failures that end it before it
// serves. serve.e2e.test.ts runs the binary as a server (HdClient, curl, signals, reload).

import { copyFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, scratchForFile } from "./support/hd3-binary.js";
import { SERVE_USERS as USERS } from "./support/hd3-serve.js";
import { runHd3InProcess } from "./support/run-cli.js";

const tmp = scratchForFile();
let usersFile: string;

beforeAll(() => {
  usersFile = join(tmp.scratch("users"), "users.json");
  writeFileSync(usersFile, JSON.stringify(USERS));
});

/** `hd3 ...args` with a private HOME and cache folder. */
const hd3 = (args: readonly string[], env: Record<string, string> = {}) => runHd3InProcess(tmp, args, env);

/** A port on 127.0.0.1 that something else is listening on, and a way to free it. */
async function busyPort(): Promise<{ port: number; release(): Promise<void> }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return {
    port: address.port,
    release: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("hd3 serve: usage errors and failures before it serves", () => {
  it("exits 1 when the directory holds no synced data", async () => {
    const dir = tmp.scratch("serve-empty");
    const result = await hd3(["serve", "--users-file", usersFile, "--data-dir", dir, "--port", "0"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^hd3: no synced data in .*serve-empty: run `hd3 sync/m);
  });

  it.each([
    ["not JSON", "{ half a pointer", /hd3current\.json is unusable: it is not JSON/],
    [
      "naming a generation that is not there",
      JSON.stringify({
        format: 1,
        current: { generation: "hd3gen-20300101T000000000Z-1-0badda7a", specsBytes: 10, treesBytes: 10 },
      }),
      /hd3current\.json names hd3gen-20300101T000000000Z-1-0badda7a, whose files are missing or empty/,
    ],
  ])(
    "exits 1 saying the pointer is bad, not that nothing was synced, for a pointer %s beside valid files",
    async (_name, pointer, expected) => {
      const dir = tmp.scratch(`serve-bad-pointer-${pointer.length}`);
      copyFileSync(join(REPO_ROOT, "data/sample/sample-specs.json"), join(dir, "hd3specs.json"));
      copyFileSync(join(REPO_ROOT, "data/sample/sample-trees.json"), join(dir, "hd3trees.json"));
      writeFileSync(join(dir, "hd3current.json"), pointer);
      const result = await hd3(["serve", "--users-file", usersFile, "--data-dir", dir, "--port", "0"]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(expected);
      expect(result.stderr).toContain(`Run \`hd3 sync --data-dir ${dir}\` to replace it.`);
      expect(result.stderr).not.toContain("no synced data");
      const detect = await hd3(["vendors", "--data-dir", dir]);
      expect(detect.code).toBe(2);
      expect(detect.stderr).toMatch(expected);
    },
  );

  it("exits 2 without --users-file, saying what the file holds", async () => {
    const result = await hd3(["serve", "--port", "0"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^hd3: `serve` needs --users-file <file>: a JSON array of/m);
    expect(result.stderr).toContain("hd3 serve --help");
  });

  it.each([
    ["an entry without a secret", JSON.stringify([{ username: "alice" }]), "usersFile[0].secret"],
    [
      "a non-boolean downloads",
      JSON.stringify([{ username: "a", secret: "s", downloads: "yes" }]),
      "usersFile[0].downloads",
    ],
    [
      "an unknown key",
      JSON.stringify([{ username: "a", secret: "s", password: "p" }]),
      "usersFile[0].password",
    ],
    ["a username twice", JSON.stringify([USERS[0], USERS[0]]), "usersFile[1].username"],
    ["an empty list", "[]", "usersFile"],
    ["text that is not JSON", "{ not json", "is not valid JSON"],
  ])(
    "exits 2 for a users file with %s, naming the problem and never a secret",
    async (_what, text, expected) => {
      const file = join(tmp.scratch("bad-users"), "users.json");
      writeFileSync(file, text);
      const result = await hd3(["serve", "--users-file", file, "--port", "0"]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^hd3: bad users file .*users\.json: /m);
      expect(result.stderr).toContain(expected);
      expect(result.stderr).not.toContain("alice-secret-1");
    },
  );

  it("exits 2 for a users file that does not exist", async () => {
    const result = await hd3(["serve", "--users-file", "no-such-users.json", "--port", "0"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^hd3: bad users file .*no-such-users\.json: .*cannot read/m);
  });

  it.each([["-1"], ["65536"], ["http"], ["80.5"]])("exits 2 for --port %s", async (value) => {
    const result = await hd3(["serve", "--users-file", usersFile, `--port=${value}`]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--port must be a whole number");
  });

  it.each([
    ["--headers-timeout-ms", "soon", "--headers-timeout-ms must be a whole number"],
    ["--request-timeout-ms", "0", "--request-timeout-ms: expected a whole number of milliseconds"],
    [
      "--keep-alive-timeout-ms",
      "99999999999",
      "--keep-alive-timeout-ms: expected a whole number of milliseconds",
    ],
    ["--max-body-bytes", "10", "--max-body-bytes: expected a whole number of bytes of at least 1024"],
    ["--send-timeout-ms", "0", "--send-timeout-ms: expected a whole number of milliseconds"],
    ["--max-downloads-per-user", "0", "--max-downloads-per-user: expected a whole number of downloads"],
  ])("exits 2 for %s %s, naming the flag", async (name, value, expected) => {
    const result = await hd3(["serve", "--users-file", usersFile, "--port", "0", name, value]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(expected);
  });

  it("exits 2 for a bad --base-url or --timeout-ms without --sync-every too", async () => {
    const url = await hd3(["serve", "--users-file", usersFile, "--port", "0", "--base-url", "notaurl"]);
    expect(url.code).toBe(2);
    expect(url.stderr).toMatch(/^hd3: --base-url: /m);
    const timeout = await hd3(["serve", "--users-file", usersFile, "--port", "0", "--timeout-ms=abc"]);
    expect(timeout.code).toBe(2);
    expect(timeout.stderr).toContain("--timeout-ms must be a positive whole number");
  });

  it("exits 2 for a request timeout shorter than the headers timeout", async () => {
    const result = await hd3([
      "serve",
      "--users-file",
      usersFile,
      "--port",
      "0",
      "--headers-timeout-ms",
      "5000",
      "--request-timeout-ms",
      "1000",
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--request-timeout-ms: must be at least headersTimeoutMs (5000)");
  });

  it("exits 1 when the port is taken", async () => {
    const busy = await busyPort();
    try {
      const result = await hd3(["serve", "--users-file", usersFile, "--port", String(busy.port)]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^hd3: cannot listen on 127\.0\.0\.1:\d+: EADDRINUSE/m);
    } finally {
      await busy.release();
    }
  });

  const alice = { HD_USERNAME: "alice", HD_SECRET: "alice-secret-1", HD_SITE_ID: "1" };

  it("exits 2 for a duration without a unit, without --data-dir, or without credentials", async () => {
    const base = ["serve", "--users-file", usersFile, "--port", "0"];
    const dir = tmp.scratch("sync-usage");
    const noUnit = await hd3([...base, "--data-dir", dir, "--sync-every", "60"], alice);
    expect(noUnit.code).toBe(2);
    expect(noUnit.stderr).toContain("--sync-every takes a duration from 1s to 22d");
    const noDir = await hd3([...base, "--sync-every", "1h"], alice);
    expect(noDir.code).toBe(2);
    expect(noDir.stderr).toContain("--sync-every needs --data-dir");
    const noCredentials = await hd3([...base, "--data-dir", dir, "--sync-every", "1h"]);
    expect(noCredentials.code).toBe(2);
    expect(noCredentials.stderr).toContain("the cloud needs credentials");
  });

  it("documents its flags in --help and is listed in hd3 --help", async () => {
    const help = await hd3(["serve", "--help"]);
    expect(help.code).toBe(0);
    for (const flag of [
      "--users-file <file>",
      "--data-dir <dir>",
      "--port <port>",
      "--host <address>",
      "--headers-timeout-ms <ms>",
      "--request-timeout-ms <ms>",
      "--keep-alive-timeout-ms <ms>",
      "--max-body-bytes <bytes>",
      "--send-timeout-ms <ms>",
      "--max-downloads-per-user <n>",
      "--sync-every <duration>",
      "--base-url <url>",
    ]) {
      expect(help.stdout).toContain(flag);
    }
    expect((await hd3(["--help"])).stdout).toContain("  serve");
  });
});
