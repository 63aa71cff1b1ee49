// fetchspecs/fetchtrees always answer a reply with top-level status and message, spliced in without rewriting the file.

import { mkdir, mkdtemp, open, readFile, rename, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiServer } from "../../src/server/api-server.js";
import { planEnvelope } from "../../src/server/download-envelope.js";
import { digestHeader } from "./digest-header.js";
import { FakeEngine } from "./fake-engine.js";

const SAMPLE_SPECS = "data/sample/sample-specs.json";
const SAMPLE_TREES = "data/sample/sample-trees.json";

let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "hd3-envelope-"));
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function planOf(text: string) {
  const file = join(scratch, `plan-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(file, text);
  const handle = await open(file, "r");
  try {
    return await planEnvelope(handle, (await handle.stat()).size);
  } finally {
    await handle.close();
  }
}

function spliced(text: string, plan: Awaited<ReturnType<typeof planOf>>): string {
  if (plan.kind !== "splice") return text;
  const bytes = Buffer.from(text);
  const at = plan.splice.insertAt;
  return Buffer.concat([bytes.subarray(0, at), plan.splice.text, bytes.subarray(at)]).toString("utf8");
}

describe("planEnvelope", () => {
  it("adds message and status before the final brace, keeping the bytes around it", async () => {
    const text = '{"trees":{"user-agent0":{"250":{"b":{"z":"1","6620":"2"}}}}}\n';
    const plan = await planOf(text);
    expect(plan.kind).toBe("splice");
    expect(spliced(text, plan)).toBe(
      '{"trees":{"user-agent0":{"250":{"b":{"z":"1","6620":"2"}}}},"message":"OK","status":0}\n',
    );
  });

  it("leaves a file that already carries both members as it is", async () => {
    expect(await planOf('{"devices":[],"message":"OK","status":0}')).toEqual({ kind: "complete" });
  });

  it("adds only the member that is missing", async () => {
    const text = '{"status":0,"devices":[]}';
    expect(spliced(text, await planOf(text))).toBe('{"status":0,"devices":[],"message":"OK"}');
  });

  it("does not mistake nested status keys or string values for top-level members", async () => {
    const text = '{"devices":[{"status":"0","message":"x"}],"note":"status"}';
    expect(JSON.parse(spliced(text, await planOf(text)))).toEqual({
      devices: [{ status: "0", message: "x" }],
      note: "status",
      message: "OK",
      status: 0,
    });
  });

  it("fills an empty object without a leading comma", async () => {
    const text = "{ }";
    expect(spliced(text, await planOf(text))).toBe('{ "message":"OK","status":0}');
  });

  it("reports a truncated or non-object file as unusable", async () => {
    expect((await planOf('{"devices":[')).kind).toBe("unusable");
    expect((await planOf("[1,2]")).kind).toBe("unusable");
    expect((await planOf("")).kind).toBe("unusable");
  });
});

describe("fetchspecs and fetchtrees on files without status", () => {
  let server: Server;
  let base: string;
  let dataDir: string;
  const warnings: unknown[] = [];
  const user = { username: "alice", secret: "s3cret", downloads: true };

  beforeAll(async () => {
    dataDir = join(scratch, "data");
    await rm(dataDir, { recursive: true, force: true });
    await mkdir(dataDir);
    await writeFile(join(dataDir, "hd3specs.json"), await readFile(SAMPLE_SPECS));
    await writeFile(join(dataDir, "hd3trees.json"), await readFile(SAMPLE_TREES));
    const api = createApiServer({
      engine: new FakeEngine(),
      users: [user],
      dataDir,
      logger: { warn: (message, details) => warnings.push({ message, details }) },
    });
    server = createServer((req, res) => api(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  async function download(call: "fetchspecs" | "fetchtrees") {
    const uri = `/apiv3/site/${call}/1.json`;
    const response = await fetch(base + uri, {
      method: "POST",
      headers: { authorization: digestHeader(user.username, user.secret, "POST", uri) },
      body: "{}",
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    return { response, bytes };
  }

  it("serves the sample specs with status 0 and message OK and a matching Content-Length", async () => {
    const original = await readFile(SAMPLE_SPECS, "utf8");
    const { response, bytes } = await download("fetchspecs");
    expect(response.status).toBe(200);
    expect(Number(response.headers.get("content-length"))).toBe(bytes.length);
    const body = JSON.parse(bytes.toString("utf8"));
    expect(body).toMatchObject({ status: 0, message: "OK" });
    expect(body.devices).toEqual(JSON.parse(original).devices);
  });

  it("serves the sample trees byte for byte except for the two members before the final brace", async () => {
    const original = await readFile(SAMPLE_TREES, "utf8");
    const { bytes } = await download("fetchtrees");
    const text = bytes.toString("utf8");
    const at = original.lastIndexOf("}");
    expect(text).toBe(`${original.slice(0, at)},"message":"OK","status":0${original.slice(at)}`);
  });

  it("plans a replaced file anew, and serves a file that has both members byte for byte", async () => {
    const trees = '{"trees":{"user-agent0":{"9":{"a":{"b":"1"}}}},"message":"OK","status":0}';
    const next = join(dataDir, "hd3trees.json.new");
    await writeFile(next, trees);
    await rename(next, join(dataDir, "hd3trees.json"));
    const { bytes } = await download("fetchtrees");
    expect(bytes.toString("utf8")).toBe(trees);
  });

  it("serves a file that is not one JSON object as it is, with one warning", async () => {
    await writeFile(join(dataDir, "hd3specs.json"), '{"devices":[');
    const first = await download("fetchspecs");
    const second = await download("fetchspecs");
    expect(first.bytes.toString("utf8")).toBe('{"devices":[');
    expect(second.bytes.toString("utf8")).toBe('{"devices":[');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ details: { code: "HD_SERVER_DATA_FILE_SHAPE" } });
  });
});
