// The self-hosted API v3 server answers every call in the wire shapes of the cloud service.

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import express from "express";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiServer, NO_DOWNLOAD_LICENCE } from "../../src/server/api-server.js";
import { digestHeader } from "./digest-header.js";
import { FakeEngine } from "./fake-engine.js";

const { default: express4 } = (await import("express4" as string)) as { default: typeof express };

const users = [
  { username: "alice", secret: "s3cret", downloads: true },
  { username: "bob", secret: "hunter2" },
];

// Integer-like keys ("6620") come first when JSON.parse'd: byte-for-byte serving must keep them last.
const TREES_TEXT =
  '{"_notice":{"note":"test","generated":"2024-01-02 03:04:05","source":"local"},"trees":{"user-agent0":{"250":{"spreadtrum":{"zeta":"1","6620":"41305"}}}},"message":"OK","status":0}';
const SPECS_TEXT = JSON.stringify({
  _notice: { note: "test", generated: "2024-01-02 03:04:05", source: "local" },
  devices: [],
});

let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "hd3-server-"));
  await writeFile(join(dataDir, "hd3trees.json"), TREES_TEXT);
  await writeFile(join(dataDir, "hd3specs.json"), SPECS_TEXT);
});

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

function auth(method: string, uri: string, user = users[0]!) {
  return digestHeader(user.username, user.secret, method, uri);
}

describe.each([
  ["Express 5", express],
  ["Express 4", express4],
])("createApiServer in %s", (_name, expressFactory) => {
  let engine: FakeEngine;
  let app: ReturnType<typeof express>;

  beforeAll(() => {
    engine = new FakeEngine();
    app = expressFactory();
    app.use(createApiServer({ engine, users, dataDir, logger: { warn() {} } }));
    app.use((_req, res) => {
      res.status(404).send("fell through");
    });
  });

  const post = (uri: string, body?: unknown, user = users[0]!) => {
    const call = request(app)
      .post(uri)
      .set("Authorization", auth("POST", uri, user));
    return body === undefined ? call : call.send(body as object);
  };

  it("detects a device from lower-cased headers with an integer status", async () => {
    const uri = "/apiv3/site/detect/42.json";
    const res = await post(uri, { "user-agent": "Mozilla/5.0 (iPhone) apple", options: "hd_specs,geoip" });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({ status: 0, message: "OK", class: "Mobile" });
    expect(res.body.hd_specs.general_model).toBe("iPhone");
    expect(engine.calls.at(-1)?.args[1]).toEqual({ options: ["hd_specs", "geoip"] });
  });

  it("passes ipaddress through as the detect parameter ipAddress", async () => {
    await post("/apiv3/site/detect/42.json", { "user-agent": "x", ipaddress: "203.0.113.9" });
    expect(engine.calls.at(-1)?.args[1]).toEqual({ ipAddress: "203.0.113.9" });
  });

  it("answers 301 Nothing Found with class Unknown for an unknown device", async () => {
    const res = await post("/apiv3/site/detect/42.json", { "user-agent": "curl/8" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 301, message: "Nothing Found", class: "Unknown" });
  });

  it("treats an empty body and the kits' [] as no headers", async () => {
    expect((await post("/apiv3/site/detect/42.json")).body.status).toBe(301);
    expect((await post("/apiv3/site/detect/42.json", [])).body.status).toBe(301);
  });

  it("refuses GET on detect with 405", async () => {
    const uri = "/apiv3/site/detect/42.json";
    const res = await request(app).get(uri).set("Authorization", auth("GET", uri));
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("POST");
  });

  it("lists vendors with a string status", async () => {
    const res = await post("/apiv3/device/vendors.json", {});
    expect(res.body).toEqual({ message: "OK", status: "0", vendor: ["AC/DC", "Apple", "Nokia"] });
  });

  it("answers device calls to GET as well as POST", async () => {
    const uri = "/apiv3/device/vendors.json";
    const res = await request(app).get(uri).set("Authorization", auth("GET", uri));
    expect(res.body.status).toBe("0");
  });

  it("lists the models of a vendor", async () => {
    const res = await post("/apiv3/device/models/Nokia.json", {});
    expect(res.body).toEqual({ message: "OK", status: "0", model: ["N95"] });
  });

  it("views one device with a string status", async () => {
    const res = await post("/apiv3/device/view/Apple/iPhone.json", {});
    expect(res.body.status).toBe("0");
    expect(res.body.message).toBe("OK");
    expect(res.body.device.general_vendor).toBe("Apple");
    expect(res.body.device).not.toHaveProperty("general_browser");
  });

  it('answers view of an unknown device with status "301" and nothing else', async () => {
    const res = await post("/apiv3/device/view/Apple/Newton.json", {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: "Nothing found", status: "301" });
  });

  it('answers whathas with devices beside status "0" and message OK, as the vendor kits require', async () => {
    const res = await post("/apiv3/device/whathas/network/gsm.json", {});
    expect(res.body).toEqual({
      devices: [
        { id: "10", general_vendor: "Apple", general_model: "iPhone" },
        { id: "20", general_vendor: "Nokia", general_model: "N95" },
      ],
      message: "OK",
      status: "0",
    });
  });

  it("decodes vendor and model names holding / from %2F", async () => {
    const res = await post("/apiv3/device/view/AC%2FDC/Back%2FIn%20Black.json", {});
    expect(res.body.status).toBe("0");
    expect(engine.calls.at(-1)?.args).toEqual(["AC/DC", "Back/In Black"]);
  });

  it("serves the trees file byte for byte, key order kept", async () => {
    const res = await post("/apiv3/site/fetchtrees/42.json", {})
      .buffer(true)
      .parse((r, cb) => {
        let text = "";
        r.setEncoding("utf8");
        r.on("data", (chunk: string) => {
          text += chunk;
        });
        r.on("end", () => cb(null, text));
      });
    expect(res.status).toBe(200);
    expect(res.headers["content-length"]).toBe(String(Buffer.byteLength(TREES_TEXT)));
    expect(res.body).toBe(TREES_TEXT);
  });

  it("serves the specs file", async () => {
    const res = await post("/apiv3/site/fetchspecs/42.json", {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...JSON.parse(SPECS_TEXT), message: "OK", status: 0 });
  });

  it("answers 229 on fetchspecs and fetchtrees for a user without downloads", async () => {
    for (const call of ["fetchspecs", "fetchtrees"]) {
      const res = await post(`/apiv3/site/${call}/42.json`, {}, users[1]);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 229, message: NO_DOWNLOAD_LICENCE.message });
      expect(res.body.message).toMatch(/^Digest/);
    }
  });

  it("answers 401 with the APIv3 challenge to a wrong secret", async () => {
    const uri = "/apiv3/device/vendors.json";
    const res = await request(app)
      .post(uri)
      .set("Authorization", digestHeader("alice", "nope", "POST", uri));
    expect(res.status).toBe(401);
    expect(res.headers["www-authenticate"]).toBe(
      'Digest realm="APIv3", nonce="APIv3", opaque="APIv3", qop="auth"',
    );
  });

  it("answers 401 to a request without credentials", async () => {
    const res = await request(app).post("/apiv3/site/detect/42.json").send({ "user-agent": "apple" });
    expect(res.status).toBe(401);
    expect(res.body.status).toBe(401);
  });

  it("answers 401 when the signed uri is another path", async () => {
    const res = await request(app)
      .post("/apiv3/device/vendors.json")
      .set("Authorization", auth("POST", "/apiv3/device/models/Apple.json"));
    expect(res.status).toBe(401);
  });

  it("passes other paths on to the next handler", async () => {
    const res = await request(app).get("/elsewhere");
    expect(res.status).toBe(404);
    expect(res.text).toBe("fell through");
    expect((await request(app).get("/apiv3/device/unknown.json")).text).toBe("fell through");
  });
});

describe("createApiServer mounted under a prefix", () => {
  it("checks the signed uri against the full original path", async () => {
    const app = express();
    app.use("/hd", createApiServer({ engine: new FakeEngine(), users }));
    const uri = "/hd/apiv3/device/vendors.json";
    const res = await request(app).post(uri).set("Authorization", auth("POST", uri));
    expect(res.body.status).toBe("0");
  });

  it("uses the body an upstream express.json() already read", async () => {
    const app = express();
    app.use(express.json());
    app.use(createApiServer({ engine: new FakeEngine(), users }));
    const uri = "/apiv3/site/detect/1.json";
    const res = await request(app)
      .post(uri)
      .set("Authorization", auth("POST", uri))
      .send({ "user-agent": "nokia" });
    expect(res.body.hd_specs.general_model).toBe("N95");
  });
});

describe("createApiServer on a plain node:http server", () => {
  it("answers API calls and 404s other paths", async () => {
    const handler = createApiServer({ engine: new FakeEngine(), users });
    const server = createServer((req, res) => handler(req, res));
    const uri = "/apiv3/device/models/Apple.json";
    const ok = await request(server).post(uri).set("Authorization", auth("POST", uri));
    expect(ok.body).toEqual({ message: "OK", status: "0", model: ["iPhone"] });
    expect((await request(server).get("/nope")).status).toBe(404);
    expect(handler.counts.models).toBe(1);
  });
});

describe("createApiServer data files", () => {
  it("answers 503 when no data file is configured", async () => {
    const app = express();
    app.use(createApiServer({ engine: new FakeEngine(), users }));
    const uri = "/apiv3/site/fetchtrees/1.json";
    const res = await request(app).post(uri).set("Authorization", auth("POST", uri));
    expect(res.status).toBe(503);
    expect(res.body.status).toBe(503);
  });

  it("answers 503 when the configured file is missing, and warns", async () => {
    const warnings: unknown[] = [];
    const app = express();
    app.use(
      createApiServer({
        engine: new FakeEngine(),
        users,
        specsFile: join(dataDir, "absent.json"),
        logger: { warn: (_m, details) => warnings.push(details) },
      }),
    );
    const uri = "/apiv3/site/fetchspecs/1.json";
    const res = await request(app).post(uri).set("Authorization", auth("POST", uri));
    expect(res.status).toBe(503);
    expect(warnings).toEqual([expect.objectContaining({ code: "HD_SERVER_DATA_FILE" })]);
  });

  it("lets explicit specsFile and treesFile win over dataDir", async () => {
    const other = join(dataDir, "other-trees.json");
    await writeFile(other, '{"trees":{},"message":"OK","status":0}');
    const app = express();
    app.use(createApiServer({ engine: new FakeEngine(), users, dataDir, treesFile: other }));
    const uri = "/apiv3/site/fetchtrees/1.json";
    const res = await request(app).post(uri).set("Authorization", auth("POST", uri));
    expect(res.body).toEqual({ trees: {}, message: "OK", status: 0 });
  });
});

describe("createApiServer engine failures", () => {
  it("answers 500 and warns when the engine throws, and keeps serving", async () => {
    const engine = new FakeEngine();
    engine.vendors = () => {
      throw new Error("boom");
    };
    const warnings: unknown[] = [];
    const app = express();
    app.use(createApiServer({ engine, users, logger: { warn: (_m, d) => warnings.push(d) } }));
    const uri = "/apiv3/device/vendors.json";
    const res = await request(app).post(uri).set("Authorization", auth("POST", uri));
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ message: expect.stringMatching(/^Internal error/), status: "500" });
    expect(warnings).toEqual([expect.objectContaining({ code: "HD_SERVER_CALL_FAILED", call: "vendors" })]);
    const again = "/apiv3/device/models/Apple.json";
    expect((await request(app).post(again).set("Authorization", auth("POST", again))).status).toBe(200);
  });
});

describe("createApiServer options", () => {
  const engine = new FakeEngine();

  it.each([
    ["engine", { engine: {}, users }],
    ["users", { engine, users: [] }],
    ["users[0].secret", { engine, users: [{ username: "a", secret: "" }] }],
    ["users[0].downloads", { engine, users: [{ username: "a", secret: "b", downloads: "yes" }] }],
    ["users[0].download", { engine, users: [{ username: "a", secret: "b", download: true }] }],
    ["users[1].username", { engine, users: [users[0], users[0]] }],
    ["maxBodyBytes", { engine, users, maxBodyBytes: 10 }],
    ["dataDir", { engine, users, dataDir: 3 }],
    ["logger", { engine, users, logger: {} }],
    ["dataDirectory", { engine, users, dataDirectory: "x" }],
  ])("rejects a bad %s with HdOptionError naming it", (option, options) => {
    expect(() => createApiServer(options as never)).toThrow(
      expect.objectContaining({ code: "ERR_HD_INVALID_OPTION", option }),
    );
  });

  it("suggests the option a typo meant", () => {
    expect(() => createApiServer({ engine, users, dataDri: "x" } as never)).toThrow(/Did you mean `dataDir`/);
  });

  it("never shows a secret in an option error", () => {
    try {
      createApiServer({ engine, users: [{ username: "a", secret: "topsecret", downloads: 1 }] } as never);
    } catch (error) {
      expect(String(error)).not.toContain("topsecret");
      return;
    }
    expect.unreachable();
  });
});
