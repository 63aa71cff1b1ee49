// The self-hosted server over a real LocalEngine, called by our own HdClient with one request per call.

import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HdClient } from "../../src/client/index.js";
import { detectWithEvidence } from "../../src/core/detect-with-evidence.js";
import { LocalEngine } from "../../src/engine/local-engine.js";
import { isHdLicenceError, isHdNotFoundError } from "../../src/errors.js";
import { createApiServer } from "../../src/server/api-server.js";
import { HINTED_GALAXY } from "../middleware/hinted-requests.js";

const sampleDir = fileURLToPath(new URL("../../data/sample/", import.meta.url));
const specsFile = join(sampleDir, "sample-specs.json");
const treesFile = join(sampleDir, "sample-trees.json");
const samplePresent = existsSync(specsFile) && existsSync(treesFile);
if (!samplePresent) console.warn("[test/server/local-engine-server] data/sample is absent: skipping");

interface SampleUserAgents {
  devices: Record<string, { device: string; userAgents: string[] }>;
}

describe.skipIf(!samplePresent)("the self-hosted server on the sample database, called by HdClient", () => {
  let server: Server;
  let baseUrl: string;
  let engine: LocalEngine;
  let requests = 0;
  let unauthorized = 0;
  let sample: SampleUserAgents;
  let scratch: string;

  beforeAll(async () => {
    engine = await LocalEngine.fromFiles(specsFile, treesFile, { logger: { warn() {} } });
    sample = JSON.parse(await readFile(join(sampleDir, "useragents.json"), "utf8")) as SampleUserAgents;
    scratch = await mkdtemp(join(tmpdir(), "hd3-local-server-"));
    const handler = createApiServer({
      engine,
      specsFile,
      treesFile,
      users: [
        { username: "ultimate", secret: "s3cret", downloads: true },
        { username: "basic", secret: "s3cret" },
      ],
    });
    server = createServer((req, res) => {
      requests++;
      res.on("finish", () => {
        if (res.statusCode === 401) unauthorized++;
      });
      handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await rm(scratch, { recursive: true, force: true });
  });

  function client(username = "ultimate") {
    return new HdClient({
      username,
      secret: "s3cret",
      siteId: 12345,
      baseUrl,
      retries: 0,
      logger: { warn() {} },
    });
  }

  async function oneRequest<T>(call: () => Promise<T>): Promise<T> {
    const before = requests;
    try {
      return await call();
    } finally {
      expect(requests - before).toBe(1);
    }
  }

  it("detects every sample device as the middleware does, one request per call", async () => {
    const hd = client();
    let checked = 0;
    for (const { userAgents } of Object.values(sample.devices)) {
      const ua = userAgents[0];
      if (ua === undefined) continue;
      const local = await detectWithEvidence(engine, { "user-agent": ua });
      if (local.status !== 0) continue;
      const remote = await oneRequest(() => hd.detect({ "user-agent": ua }));
      expect(remote.hd_specs).toEqual(local.hd_specs);
      expect(remote.class).toBe(local.class);
      checked++;
    }
    expect(checked).toBeGreaterThan(10);
    expect(unauthorized).toBe(0);
  });

  it("applies the client hints in the detect body as the middleware does", async () => {
    const hd = client();
    const hinted = await oneRequest(() => hd.detect(HINTED_GALAXY));
    expect(hinted.hd_specs).toMatchObject({
      general_model: "Galaxy S24 Ultra",
      general_platform_version: "14",
    });
    const frozen = engine.detect({ "user-agent": HINTED_GALAXY["user-agent"] });
    expect(frozen.hd_specs?.general_model).not.toBe("Galaxy S24 Ultra");
    expect(hinted).not.toHaveProperty("decidedBy");
    await hd.close();
  });

  it("answers an unknown device with 301, which the client raises as HdNotFoundError", async () => {
    const error = await oneRequest(() =>
      client()
        .detect({ "user-agent": "zz" })
        .catch((e: unknown) => e),
    );
    expect(isHdNotFoundError(error)).toBe(true);
    expect((error as { reply: { class?: string } }).reply.class).toBe("Unknown");
  });

  it("answers vendors, models, view and whathas exactly as the engine does", async () => {
    const hd = client();
    const vendors = await oneRequest(() => hd.vendors());
    expect(vendors).toEqual(engine.vendors());
    const vendor = vendors.vendor[0] as string;
    const models = await oneRequest(() => hd.models(vendor));
    expect(models).toEqual(engine.models(vendor));
    const model = models.model.find((m) => engine.view(vendor, m).status === 0) as string;
    const view = await oneRequest(() => hd.view(vendor, model));
    expect(view).toEqual(engine.view(vendor, model));
    const whatHas = await oneRequest(() => hd.whatHas("general_vendor", vendor));
    expect(whatHas).toEqual(engine.whatHas("general_vendor", vendor));
    expect(whatHas.devices.length).toBeGreaterThan(0);
  });

  it("lets the client view devices whose names hold spaces, brackets or /", async () => {
    const pairs = engine
      .vendors()
      .vendor.flatMap((vendor) => engine.models(vendor).model.map((model) => [vendor, model] as const))
      .filter(([vendor, model]) => engine.view(vendor, model).status === 0);
    const odd = pairs.filter(([vendor, model]) => /[ /()]/.test(vendor + model));
    expect(odd.length).toBeGreaterThan(0);
    for (const [vendor, model] of odd) {
      const view = await oneRequest(() => client().view(vendor, model));
      expect(view.device.general_model).toBe(model);
    }
  });

  it("downloads the trees through the client byte for byte, status and message added before the last brace", async () => {
    const target = join(scratch, "trees.json");
    const result = await oneRequest(() => client().fetchTrees({ toFile: target }));
    const original = await readFile(treesFile, "utf8");
    const at = original.lastIndexOf("}");
    expect(await readFile(target, "utf8")).toBe(
      `${original.slice(0, at)},"message":"OK","status":0${original.slice(at)}`,
    );
    expect(result.bytes).toBe((await readFile(target)).length);
  });

  it("downloads the specs through the client", async () => {
    const specs = await oneRequest(() => client().fetchSpecs());
    expect(specs.devices.length).toBe(engine.dataInfo.devices);
  });

  it("answers 229 to a user without downloads, which the client raises as HdLicenceError", async () => {
    for (const call of [() => client("basic").fetchSpecs(), () => client("basic").fetchTrees()]) {
      const error = await oneRequest(() => call().catch((e: unknown) => e));
      expect(isHdLicenceError(error)).toBe(true);
    }
  });

  it("answers detect for a 16 KB user-agent through the client", async () => {
    const ua = `${sample.devices[Object.keys(sample.devices)[0] as string]?.userAgents[0]} ${"x".repeat(16_000)}`;
    const local = engine.detect({ "user-agent": ua });
    // The engine gives an answer for it; the server must give the same one, not refuse the request.
    expect(local.status).toBe(0);
    const reply = await oneRequest(() => client().detect({ "user-agent": ua }));
    expect(reply.hd_specs).toEqual(local.hd_specs);
    expect(reply.class).toBe(local.class);
  });
});
