// Every message hd3 prints on its error paths ends in exactly one full stop: its own usage errors,
// the library's errors it quotes, and the hints under them.

import { copyFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiTestServer } from "../support/api-test-server.js";
import { REPO_ROOT, scratchForFile } from "./support/hd3-binary.js";
import { runHd3InProcess } from "./support/run-cli.js";

const tmp = scratchForFile();
let server: ApiTestServer;
let closedPortUrl: string;

beforeAll(async () => {
  server = await ApiTestServer.start({ username: "msg-user", secret: "msg-secret-123" });
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  closedPortUrl = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await server?.close();
});

/** The error paths, as functions of the scratch folder: argv and environment. */
function errorPaths(): Array<[string, string[], Record<string, string>?]> {
  const creds = { HD_USERNAME: "msg-user", HD_SECRET: "msg-secret-123", HD_SITE_ID: "3" };
  const empty = tmp.scratch("empty");
  const broken = tmp.scratch("broken");
  copyFileSync(join(REPO_ROOT, "data/sample/sample-specs.json"), join(broken, "hd3specs.json"));
  copyFileSync(join(REPO_ROOT, "package.json"), join(broken, "hd3trees.json"));
  const users = join(tmp.scratch("users"), "users.json");
  writeFileSync(users, JSON.stringify([{ username: "a", secret: "a-secret-1", downloads: true }]));
  const badUsers = join(tmp.scratch("users"), "bad-users.json");
  writeFileSync(badUsers, JSON.stringify([{ username: "a" }]));
  return [
    ["unknown command", ["detcet", "x"]],
    ["unknown command, no suggestion", ["zzzzzz"]],
    ["unknown flag", ["detect", "--jsn", "x"]],
    ["flag before the command", ["--json"]],
    ["missing flag value", ["detect", "x", "--timeout-ms"]],
    ["value for a boolean flag", ["detect", "--json=1", "x"]],
    ["flag value starting with a dash", ["detect", "--timeout-ms", "-5", "x"]],
    ["too few arguments", ["view", "Apple"]],
    ["too many arguments", ["vendors", "extra"]],
    ["no user-agent", ["detect"]],
    ["empty user-agent", ["detect", ""]],
    ["blank user-agent", ["detect", "  "]],
    ["header without a colon", ["detect", "-H", "nocolon", "x"]],
    ["header without a value", ["detect", "-H", "x-wap-profile:", "x"]],
    ["user-agent twice", ["detect", "-H", "user-agent:a", "b"]],
    ["bad --source", ["vendors", "--source", "disk"]],
    ["cloud without credentials", ["vendors", "--source", "cloud"]],
    ["incomplete credentials", ["vendors"], { HD_USERNAME: "u" }],
    ["bad --timeout-ms", ["vendors", "--timeout-ms", "abc"]],
    ["bad --base-url", ["vendors", "--base-url", "notaurl"]],
    ["bad --site-id", ["vendors", "--site-id", " 3", "--username", "u", "--secret", "s3cret"]],
    ["--data-dir that does not exist", ["vendors", "--data-dir", "/nonexistent"]],
    ["--data-dir without data", ["vendors", "--data-dir", empty]],
    ["--data-dir that is a file", ["vendors", "--data-dir", join(REPO_ROOT, "package.json")]],
    ["--source local without data", ["vendors", "--source", "local"]],
    ["broken synced data", ["vendors", "-q", "--data-dir", broken]],
    [
      "refused credentials",
      ["vendors", "-q"],
      { ...creds, HD_SECRET: "wrong-secret", HD_BASE_URL: server.url },
    ],
    ["unreachable service", ["vendors", "-q"], { ...creds, HD_BASE_URL: closedPortUrl }],
    ["sync without credentials", ["sync", "--data-dir", empty]],
    [
      "sync from an unreachable service",
      ["sync", "-q", "--data-dir", empty],
      { ...creds, HD_BASE_URL: closedPortUrl },
    ],
    ["serve without a users file", ["serve", "--port", "0"]],
    ["serve with a bad users file", ["serve", "--users-file", badUsers, "--port", "0"]],
    ["serve with a bad --port", ["serve", "--users-file", users, "--port", "http"]],
    ["serve with a bad --host", ["serve", "--users-file", users, "--port", "0", "--host", "a b"]],
    ["serve with a bad limit", ["serve", "--users-file", users, "--port", "0", "--max-body-bytes", "10"]],
    ["serve with a bad --sync-every", ["serve", "--users-file", users, "--port", "0", "--sync-every", "1y"]],
    [
      "serve syncing without --data-dir",
      ["serve", "--users-file", users, "--port", "0", "--sync-every", "1h"],
    ],
    [
      "serve on a directory without data",
      ["serve", "--users-file", users, "--port", "0", "--data-dir", empty],
    ],
  ];
}

describe("hd3 error messages", () => {
  it("end in exactly one full stop on every error path", async () => {
    const paths = errorPaths();
    for (const [what, args, env] of paths) {
      const result = await runHd3InProcess(tmp, args, env);
      expect(result.code, what).toBeGreaterThan(0);
      const lines = result.stderr.split("\n").filter((line) => line !== "");
      expect(lines.length, what).toBeGreaterThan(0);
      for (const line of lines) {
        // The error codes follow the message, e.g. `... unchanged. [ERR_HD_SYNC, cause ERR_HD_NETWORK]`.
        const message = line.replace(/ \[ERR_HD_[A-Z_]+(, cause [A-Z_, ]+)?\]$/, "");
        expect(message, `${what}: ${line}`).toMatch(/[^.]\.$/);
      }
    }
    expect(paths.length).toBeGreaterThan(30);
  });
});
