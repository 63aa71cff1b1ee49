// `hd3`, run in-process through runCli: every command on the sample database, local data, the cloud, and failures.
// hd3-binary.e2e.test.ts runs the built binary itself.

import { copyFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXIT_CODE_TABLE } from "../../src/cli/exit-codes.js";
import { MAC_SAFARI_UA, REDUCED_ANDROID_UA } from "../middleware/hinted-requests.js";
import { LICENCE_REPLY } from "../support/api-test-fixtures.js";
import { ApiTestServer } from "../support/api-test-server.js";
import { GALAXY_S24_UA, IPHONE_SAFARI_UA } from "../support/user-agents.js";
import { REPO_ROOT, scratchForFile } from "./support/hd3-binary.js";
import { runHd3InProcess } from "./support/run-cli.js";

const tmp = scratchForFile();

/** `hd3 ...args` with a private HOME and cache folder and only `env` for environment. */
const hd3 = (args: readonly string[], env?: Record<string, string>) => runHd3InProcess(tmp, args, env);

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

describe("hd3 basics", () => {
  it("prints the package version", async () => {
    const { version } = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
      version: string;
    };
    const result = await hd3(["--version"]);
    expect(result).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it("lists every command and the exit codes in --help", async () => {
    const result = await hd3(["--help"]);
    expect(result.code).toBe(0);
    for (const command of ["sync", "detect", "vendors", "models", "view", "whathas"]) {
      expect(result.stdout).toContain(`  ${command}`);
    }
    expect(result.stdout).toMatch(/Exit codes:[\s\S]*3 {2}licence/);
    for (const { code, help } of Object.values(EXIT_CODE_TABLE)) {
      expect(result.stdout).toContain(`  ${code}  ${help}\n`);
    }
  });

  it("shows a command's flags with --help", async () => {
    const result = await hd3(["detect", "--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("--header <name:value>");
    expect(result.stdout).toContain("[env HD_SECRET]");
  });

  it("prints help on stderr and exits 2 with no command", async () => {
    const result = await hd3([]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("Usage: hd3 <command>");
  });
});

describe("hd3 on the sample database (no credentials, no synced data)", () => {
  it("detects a device and prints a table, saying the sample database answers", async () => {
    const result = await hd3(["detect", GALAXY_S24_UA]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Samsung Galaxy S24 \(Mobile\)\n/);
    expect(result.stdout).toMatch(/general_platform_version\s+14\n/);
    expect(result.stdout).toMatch(/display_x\s+1080\n/);
    expect(result.stderr).toContain("SAMPLE database");
  });

  it("prints the detect reply as JSON with --json and keeps stdout clean", async () => {
    const result = await hd3(["detect", "--json", IPHONE_SAFARI_UA]);
    expect(result.code).toBe(0);
    const reply = JSON.parse(result.stdout) as {
      status: number;
      class: string;
      hd_specs: Record<string, unknown>;
    };
    expect(reply).toMatchObject({ status: 0, message: "OK", class: "Mobile" });
    expect(reply.hd_specs).toMatchObject({
      general_vendor: "Apple",
      general_model: "iPhone",
      general_platform: "iOS",
      general_platform_version: "17",
      general_browser: "Safari",
    });
  });

  it("takes extra headers with --header, the user-agent included", async () => {
    const result = await hd3(["detect", "--json", "-q", "--header", `User-Agent: ${GALAXY_S24_UA}`]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toMatchObject({ hd_specs: { general_model: "Galaxy S24" } });
  });

  it("answers what the middleware would: client hints complete a reduced user-agent, --bare skips them", async () => {
    const hinted = [
      "detect",
      REDUCED_ANDROID_UA,
      "-H",
      'sec-ch-ua-platform:"Android"',
      "-H",
      'sec-ch-ua-model:"SM-S928B"',
      "-H",
      'sec-ch-ua-platform-version:"14.0.0"',
      "--json",
      "-q",
    ];
    const result = await hd3(hinted);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      decidedBy: "client-hints",
      hd_specs: {
        general_vendor: "Samsung",
        general_model: "Galaxy S24 Ultra",
        general_platform_version: "14",
      },
    });
    const bare = JSON.parse((await hd3([...hinted, "--bare"])).stdout);
    expect(bare.hd_specs.general_model).not.toBe("Galaxy S24 Ultra");
    expect(bare.decidedBy).toBeUndefined();
  });

  it("reads the page script's cookie: a Mac user-agent with a touch screen is an iPad", async () => {
    const result = await hd3([
      "detect",
      MAC_SAFARI_UA,
      "-H",
      "cookie:hd_screen=t5w1024h1366r2",
      "--json",
      "-q",
    ]);
    expect(JSON.parse(result.stdout)).toMatchObject({ decidedBy: "page-script", class: "Tablet" });
  });

  it("exits 5 when no device matches, with the 301 reply under --json", async () => {
    const text = await hd3(["detect", "curl/8.5.0"]);
    expect(text.code).toBe(5);
    expect(text.stdout).toContain("No device found (status 301");
    const json = await hd3(["detect", "--json", "curl/8.5.0"]);
    expect(json.code).toBe(5);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 301, class: "Unknown" });
  });

  it("lists vendors", async () => {
    const result = await hd3(["vendors"]);
    expect(result.code).toBe(0);
    const vendors = result.stdout.trim().split("\n");
    expect(vendors).toEqual(expect.arrayContaining(["Apple", "Google", "Samsung", "Sony"]));
    expect(vendors).toEqual([...vendors].sort());
    const json = await hd3(["vendors", "--json"]);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 0, vendor: vendors });
  });

  it("lists the models of a vendor, case-insensitively", async () => {
    const result = await hd3(["models", "google"]);
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n")).toEqual(
      expect.arrayContaining(["Pixel 8", "Pixel 9 Pro XL", "Pixel Tablet"]),
    );
  });

  it("views one device record", async () => {
    const result = await hd3(["view", "Google", "Pixel 8"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/general_model\s+Pixel 8\n/);
    expect(result.stdout).toMatch(/design_weight\s+187\n/);
    const json = await hd3(["view", "--json", "google", "pixel 8"]);
    const reply = JSON.parse(json.stdout) as { device: Record<string, unknown> };
    expect(reply.device.general_model).toBe("Pixel 8");
    expect(reply.device).not.toHaveProperty("general_browser");
  });

  it("exits 5 for a device that does not exist", async () => {
    const result = await hd3(["view", "Nokia", "3310"]);
    expect(result.code).toBe(5);
    expect(result.stdout).toContain("status 301");
  });

  it("exits 5 for an unknown vendor, naming the nearest one", async () => {
    const models = await hd3(["models", "Googel"]);
    expect(models).toMatchObject({ code: 5, stdout: "" });
    expect(models.stderr).toContain('no vendor "Googel" (did you mean `Google`?)');
    const view = await hd3(["view", "-q", "Samsnug", "Galaxy S24"]);
    expect(view.code).toBe(5);
    expect(view.stderr).toContain("did you mean `Samsung`?");
  });

  it("exits 5 for an unknown model, naming the nearest model of the vendor", async () => {
    const result = await hd3(["view", "Google", "Pixel8"]);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('no model "Pixel8" of Google (did you mean `Pixel 8`?)');
  });

  it("exits 5 for an unknown property, naming the nearest one, and for a value no device has", async () => {
    const typo = await hd3(["whathas", "general_typ", "Console"]);
    expect(typo).toMatchObject({ code: 5, stdout: "" });
    expect(typo.stderr).toContain('no device property "general_typ" (did you mean `general_type`?)');
    const none = await hd3(["whathas", "-q", "general_type", "Toaster"]);
    expect(none.code).toBe(5);
    expect(none.stderr).toContain('no device has general_type containing "Toaster"');
  });

  it("lists the devices that have a property value", async () => {
    const result = await hd3(["whathas", "general_type", "Console"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^id\s+vendor\s+model\n/);
    expect(result.stdout).toContain("PlayStation 5");
    expect(result.stdout).toContain("Switch");
    const json = await hd3(["whathas", "--json", "general_type", "console"]);
    const reply = JSON.parse(json.stdout) as { devices: Array<{ id: string }> };
    const consoles = (
      JSON.parse(readFileSync(join(REPO_ROOT, "data/sample/sample-specs.json"), "utf8")) as {
        devices: Array<{ Device: { _id: string; hd_specs: { general_type: string } } }>;
      }
    ).devices.filter(({ Device }) => Device.hd_specs.general_type === "Console");
    expect(reply.devices.map((d) => d.id)).toEqual(consoles.map(({ Device }) => Device._id));
    expect(reply.devices.map((d) => d.id)).toEqual(expect.arrayContaining(["701", "702", "703", "704"]));
  });
});

describe("hd3 bad usage", () => {
  it.each([
    [["detcet", "x"], /unknown command "detcet" \(did you mean `detect`\?\)/],
    [["detect", "--jsn", "x"], /unknown flag --jsn for `detect` \(did you mean --json\?\)/],
    [["view", "Apple"], /`view` takes <vendor> <model>, got 1 argument/],
    [["vendors", "extra"], /`vendors` takes no arguments/],
    [["detect"], /detect needs a user-agent/],
    [["detect", "--header", "no-colon", "x"], /--header needs name:value/],
    [["detect", "--source", "disk", "x"], /--source must be one of auto, local, cloud, sample/],
    [["detect", "--source", "cloud", "x"], /the cloud needs credentials/],
    [
      ["detect", "--timeout-ms", "soon", "--username", "u", "--secret", "s", "--site-id", "1", "x"],
      /--timeout-ms/,
    ],
    [["--json"], /expected a command before --json/],
    [["detect", ""], /the user-agent is empty/],
    [["detect", " \t "], /the user-agent is empty/],
    [["detect", "-H", "user-agent:  "], /--header user-agent has an empty value/],
    [["detect", "-H", "x-wap-profile:", "x"], /--header x-wap-profile has an empty value/],
    [["detect", "--timeout-ms", "abc", "x"], /--timeout-ms must be a positive whole number/],
    [["vendors", "--timeout-ms", "0"], /--timeout-ms must be a positive whole number/],
    [["detect", "--base-url", "notaurl", "x"], /^hd3: --base-url: .*"notaurl"/m],
    [["vendors", "--base-url", "ftp://127.0.0.1/"], /^hd3: --base-url: .*http/m],
    [["vendors", "--site-id", " 7", "--username", "u", "--secret", "s"], /^hd3: --site-id: /m],
  ])("exits 2 for hd3 %j", async (args, message) => {
    const result = await hd3(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain("--help` for usage");
  });

  it.each([
    ["detect", GALAXY_S24_UA],
    ["vendors"],
    ["models", "Google"],
    ["view", "Google", "Pixel 8"],
    ["whathas", "general_type", "Console"],
  ])("exits 2 for hd3 %s ... --data-dir naming a directory that does not exist", async (...args) => {
    const result = await hd3([...args, "--data-dir", "/nonexistent"]);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr: expect.stringMatching(/^hd3: --data-dir \/nonexistent does not exist: .*\n.*--help` for usage/),
    });
    expect(result.stderr).not.toContain("SAMPLE");
  });

  it("exits 2 when the data directory given holds no synced data or is not a directory, whatever the source", async () => {
    const empty = tmp.scratch("given-empty");
    for (const source of ["auto", "local", "sample", "cloud"]) {
      const result = await hd3(["vendors", "--source", source, "--data-dir", empty]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        `--data-dir ${empty} holds no synced data: run \`hd3 sync --data-dir ${empty}\``,
      );
    }
    const file = join(REPO_ROOT, "package.json");
    const notADirectory = await hd3(["vendors", "--data-dir", file]);
    expect(notADirectory.code).toBe(2);
    expect(notADirectory.stderr).toContain(`--data-dir ${file} is not a directory.`);
    const underAFile = await hd3(["vendors", "--data-dir", join(file, "data")]);
    expect(underAFile.code).toBe(2);
    expect(underAFile.stderr).toContain(`--data-dir ${join(file, "data")} does not exist:`);
    const fromEnv = await hd3(["vendors"], { HD_DATA_DIR: empty });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toContain(`HD_DATA_DIR ${empty} holds no synced data`);
  });

  it("checks --timeout-ms and --base-url when synced local data answers too", async () => {
    const dir = tmp.scratch("synced-bad-flags");
    copyFileSync(join(REPO_ROOT, "data/sample/sample-specs.json"), join(dir, "hd3specs.json"));
    copyFileSync(join(REPO_ROOT, "data/sample/sample-trees.json"), join(dir, "hd3trees.json"));
    const timeout = await hd3(["vendors", "--data-dir", dir, "--timeout-ms", "abc"]);
    expect(timeout.code).toBe(2);
    expect(timeout.stderr).toContain("--timeout-ms");
    const url = await hd3(["vendors", "--data-dir", dir], { HD_BASE_URL: "notaurl" });
    expect(url.code).toBe(2);
    expect(url.stderr).toContain("--base-url");
    expect(url.stdout + timeout.stdout).toBe("");
  });

  it("names the missing credentials and never prints the secret", async () => {
    const result = await hd3(["detect", "x"], { HD_SECRET: "s3cr3t-value", HD_USERNAME: "me" });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("missing --site-id (HD_SITE_ID)");
    expect(result.stderr).not.toContain("s3cr3t-value");
  });

  it("exits 1 when --source local finds no synced data in the default directory", async () => {
    const result = await hd3(["vendors", "--source", "local"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("run `hd3 sync` first");
  });
});

describe("hd3 on synced local data", () => {
  it("uses the data directory when it holds hd3specs.json and hd3trees.json", async () => {
    const dir = tmp.scratch("synced");
    copyFileSync(join(REPO_ROOT, "data/sample/sample-specs.json"), join(dir, "hd3specs.json"));
    copyFileSync(join(REPO_ROOT, "data/sample/sample-trees.json"), join(dir, "hd3trees.json"));
    const result = await hd3(["detect", GALAXY_S24_UA], { HD_DATA_DIR: dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`using local data in ${dir}`);
    expect(result.stdout).toContain("Galaxy S24");
  });

  it("exits 1 with a clean message when the synced data is broken", async () => {
    const dir = tmp.scratch("broken");
    copyFileSync(join(REPO_ROOT, "data/sample/sample-specs.json"), join(dir, "hd3specs.json"));
    copyFileSync(join(REPO_ROOT, "package.json"), join(dir, "hd3trees.json"));
    const result = await hd3(["vendors", "--data-dir", dir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^hd3: .*hd3trees\.json.*\[ERR_HD_DATA\]/m);
    expect(result.stderr).not.toContain("    at ");
  });
});

describe("hd3 against the cloud API (loopback test server)", () => {
  let server: ApiTestServer;
  let creds: Record<string, string>;

  beforeAll(async () => {
    server = await ApiTestServer.start({ username: "cli-user", secret: "cli-secret-123" });
    creds = {
      HD_USERNAME: "cli-user",
      HD_SECRET: "cli-secret-123",
      HD_SITE_ID: "77",
      HD_BASE_URL: server.url,
    };
  });
  afterAll(async () => {
    await server?.close();
  });

  it("detects through the cloud when credentials are set and no data is synced", async () => {
    server.reset();
    const result = await hd3(["detect", "--json", "Mozilla/4.0 NokiaN95_8GB/1.0"], creds);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 0, hd_specs: { general_model: "N95/8GB" } });
    expect(result.stderr).toContain(`using the cloud API at ${server.url}`);
    expect(server.requests[0]).toMatchObject({ call: "detect", params: ["77"], authenticated: true });
    expect(result.stdout + result.stderr).not.toContain("cli-secret-123");
  });

  it("takes credentials from flags too", async () => {
    const flags = [
      "--username",
      "cli-user",
      "--secret",
      "cli-secret-123",
      "--site-id",
      "77",
      "--base-url",
      server.url,
    ];
    const result = await hd3(["vendors", ...flags]);
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split("\n")).toEqual(["Apple", "Nokia", "Sony Ericsson", "Ünïcødé 端末"]);
  });

  it("answers models, view and whathas through the cloud", async () => {
    const models = await hd3(["models", "Nokia", "--json"], creds);
    // The model and the alias "Nokia N95 8GB" with the vendor prefix removed, as the real server lists them.
    expect(JSON.parse(models.stdout)).toMatchObject({ status: 0, model: ["N95 8GB", "N95/8GB"] });
    const view = await hd3(["view", "Nokia", "N95/8GB"], creds);
    expect(view.code).toBe(0);
    expect(view.stdout).toMatch(/general_model\s+N95\/8GB\n/);
    const whathas = await hd3(["whathas", "network", "hsdpa", "--json"], creds);
    expect(JSON.parse(whathas.stdout)).toMatchObject({ devices: [{ id: "1" }, { id: "10" }] });
  });

  it("exits 5 when the cloud finds nothing (301)", async () => {
    const detect = await hd3(["detect", "--json", "curl/8.5.0"], creds);
    expect(detect.code).toBe(5);
    expect(JSON.parse(detect.stdout)).toMatchObject({ status: 301, class: "Unknown" });
    const view = await hd3(["view", "Nokia", "Nothing"], creds);
    expect(view.code).toBe(5);
  });

  it("exits 2 for an argument the API cannot take (HdArgumentError)", async () => {
    const result = await hd3(["view", "Nokia", ".."], creds);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^hd3: view: `model` cannot be "\." or "\.\."/m);
  });

  it("exits 3 when the credentials are refused, without printing the secret", async () => {
    const result = await hd3(["vendors"], { ...creds, HD_SECRET: "wrong-secret-456" });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^hd3: .*\[ERR_HD_AUTH\]/m);
    expect(result.stderr).not.toContain("wrong-secret-456");
  });

  it("exits 4 when the service cannot be reached", async () => {
    const port = await closedPort();
    const result = await hd3(["detect", "x"], {
      ...creds,
      HD_BASE_URL: `http://127.0.0.1:${port}`,
    });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^hd3: .*\[ERR_HD_NETWORK\]/m);
    expect(result.stderr).toContain("Check the network");
  });
});

describe("hd3 sync (loopback test server)", () => {
  let server: ApiTestServer;
  let creds: Record<string, string>;

  beforeAll(async () => {
    server = await ApiTestServer.start({ username: "sync-user", secret: "sync-secret-789" });
    creds = {
      HD_USERNAME: "sync-user",
      HD_SECRET: "sync-secret-789",
      HD_SITE_ID: "5",
      HD_BASE_URL: server.url,
    };
  });
  afterAll(async () => {
    await server?.close();
  });

  it("downloads specs and trees into the data directory, prints a summary, and later commands use them", async () => {
    server.reset();
    const dir = tmp.scratch("sync-ok");
    const result = await hd3(["sync", "--data-dir", dir], creds);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Synced the device database into ${dir}`);
    expect(result.stdout).toMatch(/devices\s+4\n/);
    expect(result.stderr).toMatch(/^specs .*\d+(\.\d)? (B|KB)$/m);
    expect(readdirSync(dir).sort()).toEqual([
      "hd3current.json",
      expect.stringMatching(/^hd3flat-/),
      expect.stringMatching(/^hd3gen-/),
      "hd3pair",
      "hd3specs.json",
      "hd3trees.json",
    ]);
    expect(server.requests.map((r) => r.call)).toEqual(["fetchspecs", "fetchtrees"]);
    expect(result.stdout + result.stderr).not.toContain("sync-secret-789");

    const after = await hd3(["vendors"], { ...creds, HD_DATA_DIR: dir });
    expect(after.stderr).toContain(`using local data in ${dir}`);
    // The fixture has only some of the trees: the engine's warning goes to stderr like every note.
    expect(after.stderr).toContain("hd3: warning: the trees download lacks user-agent1");
    expect(after.stdout).toContain("Nokia");
  });

  it("writes an engine snapshot into the new generation, which later commands load; a damaged one gives way to the pair", async () => {
    server.reset();
    const dir = tmp.scratch("sync-snapshot");
    expect((await hd3(["sync", "--quiet", "--data-dir", dir], creds)).code).toBe(0);
    const generation = readdirSync(dir).find((name) => name.startsWith("hd3gen-")) as string;
    expect(readdirSync(join(dir, generation)).sort()).toEqual([
      "hd3snapshot.bin",
      "hd3specs.json",
      "hd3trees.json",
    ]);

    const fromSnapshot = await hd3(["detect", "--json", "--bare", "Nokia6300"], { HD_DATA_DIR: dir });
    expect(fromSnapshot.stderr).not.toContain("hd3snapshot.bin");
    const snapshot = join(dir, generation, "hd3snapshot.bin");
    writeFileSync(snapshot, readFileSync(snapshot).subarray(0, 100));
    const fromPair = await hd3(["detect", "--json", "--bare", "Nokia6300"], { HD_DATA_DIR: dir });
    expect(fromPair.stderr).toMatch(/hd3: warning: .*hd3snapshot\.bin.*truncated.*JSON pair/);
    expect(fromPair.code).toBe(fromSnapshot.code);
    expect(fromPair.stdout).toBe(fromSnapshot.stdout);
  });

  it("prints the summary as JSON with --json and no progress with --quiet", async () => {
    const dir = tmp.scratch("sync-json");
    const result = await hd3(["sync", "--json", "--quiet", "--data-dir", dir], creds);
    expect(result.code).toBe(0);
    // --quiet drops the notes and the progress bar; warnings (plain HTTP here) still show.
    expect(result.stderr).not.toContain("syncing into");
    expect(result.stderr).not.toMatch(/^(specs|trees) /m);
    expect(JSON.parse(result.stdout)).toMatchObject({
      dir,
      devices: 4,
      specsGenerated: "2024-01-02 03:04:05",
    });
  });

  it("exits 3 on a licence error (229) and leaves the previous data untouched", async () => {
    server.reset();
    server.script("fetchtrees", { kind: "json", body: LICENCE_REPLY });
    const dir = tmp.scratch("sync-229");
    copyFileSync(join(REPO_ROOT, "data/sample/sample-specs.json"), join(dir, "hd3specs.json"));
    copyFileSync(join(REPO_ROOT, "data/sample/sample-trees.json"), join(dir, "hd3trees.json"));
    const before = readFileSync(join(dir, "hd3specs.json"), "utf8");
    const result = await hd3(["sync", "--data-dir", dir], creds);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^hd3: Sync failed .*229.*\[ERR_HD_SYNC, cause ERR_HD_LICENCE\]$/m);
    expect(result.stderr).toContain("Ultimate Detection");
    expect(result.stderr).toContain("Your licence may have expired. The data in use is unchanged.");
    expect(readdirSync(dir).sort()).toEqual(["hd3specs.json", "hd3trees.json"]);
    expect(readFileSync(join(dir, "hd3specs.json"), "utf8")).toBe(before);
  });

  it("exits 3 on a licence error for specs and writes nothing", async () => {
    server.reset();
    server.script("fetchspecs", { kind: "json", body: LICENCE_REPLY });
    const dir = tmp.scratch("sync-229-specs");
    const result = await hd3(["sync", "--data-dir", dir], creds);
    expect(result.code).toBe(3);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("exits 4 when the service cannot be reached", async () => {
    const port = await closedPort();
    const dir = tmp.scratch("sync-down");
    const result = await hd3(["sync", "--data-dir", dir], {
      ...creds,
      HD_BASE_URL: `http://127.0.0.1:${port}`,
    });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^hd3: Sync failed .*\[ERR_HD_SYNC, cause ERR_HD_NETWORK\]$/m);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("exits 2 without credentials", async () => {
    const result = await hd3(["sync", "--data-dir", tmp.scratch("sync-nocreds")]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("needs credentials");
  });
});
