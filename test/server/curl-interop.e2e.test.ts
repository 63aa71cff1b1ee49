// Interop: the real curl (a Digest client nobody here wrote) calls every endpoint of the server.

import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiServer } from "../../src/server/api-server.js";
import { missingCommand, skipWhenMissing } from "../support/requirements.js";
import { FakeEngine } from "./fake-engine.js";
import { readZip } from "./support/read-zip.js";

const SPECS_TEXT =
  '{"devices":[{"Device":{"_id":"10","hd_specs":{"general_vendor":"Apple","general_model":"iPhone"}}}],"extras":[{"Extra":{"_id":"7","hd_specs":{"general_browser":"Safari"}}}]}';
const TREES_TEXT = '{"trees":{"user-agent0":{"250":{"b":{"z":"1","6620":"2"}}}},"message":"OK","status":0}';

interface CurlReply {
  httpStatus: number;
  body: string;
}

const skip = skipWhenMissing("test/server/curl-interop.e2e", missingCommand("curl"));

describe.skipIf(skip)("curl --digest against the self-hosted server", () => {
  let server: Server;
  let base: string;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "hd3-curl-"));
    await writeFile(join(dataDir, "hd3trees.json"), TREES_TEXT);
    await writeFile(join(dataDir, "hd3specs.json"), SPECS_TEXT);
    const app = express();
    app.use(
      createApiServer({
        engine: new FakeEngine(),
        users: [{ username: "alice", secret: "s3 cret!", downloads: true }],
        dataDir,
      }),
    );
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await rm(dataDir, { recursive: true, force: true });
  });

  function curl(
    path: string,
    options: { password?: string; method?: string; body?: string; output?: string } = {},
  ) {
    const args = [
      "--silent",
      "--show-error",
      "--noproxy",
      "*",
      "--max-time",
      "10",
      "--digest",
      "--user",
      `alice:${options.password ?? "s3 cret!"}`,
      "--request",
      options.method ?? "POST",
      "--header",
      "Content-Type: application/json",
      "--write-out",
      "\n%{http_code}",
    ];
    if (options.body !== undefined) args.push("--data-binary", options.body);
    if (options.output !== undefined) args.push("--output", options.output);
    args.push(`${base}${path}`);
    return new Promise<CurlReply>((resolve, reject) => {
      execFile("curl", args, { encoding: "utf8" }, (error, stdout) => {
        if (error) {
          reject(error);
          return;
        }
        const cut = stdout.lastIndexOf("\n");
        resolve({ httpStatus: Number(stdout.slice(cut + 1)), body: stdout.slice(0, cut) });
      });
    });
  }

  it("detects with POST and a JSON body", async () => {
    const reply = await curl("/apiv3/site/detect/7.json", { body: '{"user-agent":"Apple iPhone"}' });
    expect(reply.httpStatus).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ status: 0, message: "OK", class: "Mobile" });
  });

  it.each(["POST", "GET"])("calls every device endpoint with %s", async (method) => {
    const vendors = await curl("/apiv3/device/vendors.json", { method });
    expect(JSON.parse(vendors.body)).toMatchObject({ status: "0", vendor: ["AC/DC", "Apple", "Nokia"] });
    const models = await curl("/apiv3/device/models/AC%2FDC.json", { method });
    expect(JSON.parse(models.body)).toEqual({ message: "OK", status: "0", model: ["Back/In Black"] });
    const view = await curl("/apiv3/device/view/Nokia/N95.json", { method });
    expect(JSON.parse(view.body)).toMatchObject({ status: "0", device: { general_model: "N95" } });
    const whathas = await curl("/apiv3/device/whathas/network/wi-fi.json", { method });
    expect(JSON.parse(whathas.body)).toEqual({
      devices: [{ id: "10", general_vendor: "Apple", general_model: "iPhone" }],
      message: "OK",
      status: "0",
    });
  });

  it("downloads specs and trees, trees byte for byte", async () => {
    const trees = await curl("/apiv3/site/fetchtrees/7.json", { body: "{}" });
    expect(trees.httpStatus).toBe(200);
    expect(trees.body).toBe(TREES_TEXT);
    const specs = await curl("/apiv3/site/fetchspecs/7.json", { method: "GET" });
    expect(JSON.parse(specs.body)).toEqual({ ...JSON.parse(SPECS_TEXT), message: "OK", status: 0 });
  });

  it("downloads the archive, every entry stored and byte for byte", async () => {
    const file = join(dataDir, "download.zip");
    const reply = await curl("/apiv3/site/fetcharchive/7.json", { body: "{}", output: file });
    expect(reply.httpStatus).toBe(200);
    const entries = await readZip(file);
    expect(
      entries.map((entry) => [entry.name, entry.compressionMethod, entry.bytes.toString("utf8")]),
    ).toEqual([
      ["Device_10.json", 0, JSON.stringify(JSON.parse(SPECS_TEXT).devices[0])],
      ["Extra_7.json", 0, JSON.stringify(JSON.parse(SPECS_TEXT).extras[0])],
      ["user-agent0.json", 0, '{"250":{"b":{"z":"1","6620":"2"}}}'],
    ]);
  });

  it("gets 401 with a wrong password", async () => {
    const reply = await curl("/apiv3/device/vendors.json", { password: "wrong" });
    expect(reply.httpStatus).toBe(401);
  });
});
