// A loopback HTTP server that speaks API v3, checks every request's Digest auth itself, and misbehaves on request.

import { createHash, randomBytes } from "node:crypto";
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import {
  detectFixture,
  FIXTURE_DEVICES,
  type FixtureDevice,
  fixtureSpecsDownload,
  fixtureTreesDownload,
} from "./api-test-fixtures.js";

/** The calls the server knows, named as in the URL. */
export type ApiCall = "detect" | "fetchspecs" | "fetchtrees" | "vendors" | "models" | "view" | "whathas";

/** The Digest fields of an `Authorization` header, parsed by this server (not by digest-fetch). */
export type DigestFields = Record<string, string>;

/** One request as the server saw it. */
export interface ApiRequest {
  /** The call the path names, or undefined for an unknown path. */
  call: ApiCall | undefined;
  method: string;
  /** The request target exactly as received (still percent-encoded). */
  rawPath: string;
  /** Path segments after the call name, percent-decoded (site id, vendor, model, property, value). */
  params: string[];
  /** Parsed JSON body, or the raw text when it is not JSON. */
  body: unknown;
  headers: IncomingHttpHeaders;
  digest: DigestFields | undefined;
  /** True when the Digest credentials checked out. */
  authenticated: boolean;
  /** Why authentication failed, when it did. */
  authProblem: string | undefined;
}

/** What the server does with one request. */
export type Action =
  | { kind: "default" }
  | {
      kind: "json";
      body: unknown;
      httpStatus?: number;
      chunkBytes?: number;
      chunkDelayMs?: number;
      headers?: Record<string, string>;
    }
  | {
      kind: "text";
      body: string;
      httpStatus?: number;
      contentType?: string;
      chunkBytes?: number;
      chunkDelayMs?: number;
    }
  | { kind: "hang" }
  | { kind: "destroy" }
  /** Sends the first `sendBytes` of `body`, then closes the socket (default), ends cleanly, or hangs. */
  | { kind: "truncate"; body: string; sendBytes: number; ending?: "destroy" | "end" | "hang" }
  | { kind: "challenge"; realm?: string; nonce?: string; opaque?: string }
  | { kind: "unauthorized"; wwwAuthenticate?: string };

/** Decides the action for a request; `{ kind: "default" }` gives the built-in API behaviour. */
export type Handler = (request: ApiRequest) => Action | Promise<Action>;

/** Options of {@link ApiTestServer.start}. */
export interface ApiTestServerOptions {
  username?: string;
  secret?: string;
  /** Accept the fixed `APIv3` challenge without a 401 first (as the real service does). Default true. */
  acceptFixedChallenge?: boolean;
}

const FIXED_NONCE = "APIv3";

function md5(text: string): string {
  return createHash("md5").update(text, "utf8").digest("hex");
}

/** Parses `Digest k="v", k2=v2` into fields (an independent implementation of RFC 2617 parsing). */
export function parseDigest(header: string): DigestFields | undefined {
  const match = /^\s*Digest\s+(.*)$/is.exec(header);
  if (match === null) return undefined;
  const fields: DigestFields = {};
  const pair = /([A-Za-z0-9_-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))/g;
  for (const part of (match[1] ?? "").matchAll(pair)) {
    const key = (part[1] ?? "").toLowerCase();
    fields[key] = part[2] !== undefined ? part[2].replace(/\\(.)/g, "$1") : (part[3] ?? "");
  }
  return fields;
}

const ROUTES: readonly { call: ApiCall; pattern: RegExp }[] = [
  { call: "detect", pattern: /^(?:\/[^/]+)*?\/apiv3\/site\/detect\/([^/]+)\.json$/ },
  { call: "fetchspecs", pattern: /^(?:\/[^/]+)*?\/apiv3\/site\/fetchspecs\/([^/]+)\.json$/ },
  { call: "fetchtrees", pattern: /^(?:\/[^/]+)*?\/apiv3\/site\/fetchtrees\/([^/]+)\.json$/ },
  { call: "vendors", pattern: /^(?:\/[^/]+)*?\/apiv3\/device\/vendors\.json$/ },
  { call: "models", pattern: /^(?:\/[^/]+)*?\/apiv3\/device\/models\/([^/]+)\.json$/ },
  { call: "view", pattern: /^(?:\/[^/]+)*?\/apiv3\/device\/view\/([^/]+)\/([^/]+)\.json$/ },
  { call: "whathas", pattern: /^(?:\/[^/]+)*?\/apiv3\/device\/whathas\/([^/]+)\/([^/]+)\.json$/ },
];

function route(path: string): { call: ApiCall | undefined; params: string[] } {
  for (const { call, pattern } of ROUTES) {
    const match = pattern.exec(path);
    if (match !== null)
      return { call, params: match.slice(1).map((segment) => decodeURIComponent(segment ?? "")) };
  }
  return { call: undefined, params: [] };
}

function record(device: FixtureDevice, omit: readonly string[]): Record<string, string | string[]> {
  const copy = { ...device.specs };
  for (const field of omit) delete copy[field];
  return copy;
}

/** The built-in API v3 behaviour over the fixture database (device-call statuses as strings, like the service). */
function defaultReply(request: ApiRequest): { httpStatus: number; body: unknown } {
  const ok = (body: Record<string, unknown>) => ({ httpStatus: 200, body });
  const [first = "", second = ""] = request.params;
  switch (request.call) {
    case "detect": {
      const body = (typeof request.body === "object" && request.body !== null ? request.body : {}) as Record<
        string,
        unknown
      >;
      const device = detectFixture(String(body["user-agent"] ?? ""));
      if (device === undefined) return ok({ status: 301, message: "Nothing Found", class: "Unknown" });
      const options = String(body.options ?? "").split(",");
      const reply: Record<string, unknown> = {
        status: 0,
        message: "OK",
        class: device.specs.general_type,
        hd_specs: record(device, []),
      };
      if (options.includes("geoip")) {
        reply.geoip = {
          country: "Australia",
          countrycode: "AU",
          city: "Sydney",
          latitude: -33.86,
          longitude: 151.2,
        };
      }
      if (options.includes("legacy")) {
        reply.product_info = { brand_name: device.specs.general_vendor, is_tablet: "false" };
        reply.display = {
          resolution_width: device.specs.display_x,
          resolution_height: device.specs.display_y,
        };
      }
      return ok(reply);
    }
    case "vendors": {
      const vendors = [...new Set(FIXTURE_DEVICES.map((d) => d.specs.general_vendor as string))].sort();
      return ok({ message: "OK", status: "0", vendor: vendors });
    }
    case "models": {
      const models = FIXTURE_DEVICES.filter(
        (d) => String(d.specs.general_vendor).toLowerCase() === first.toLowerCase(),
      )
        .map((d) => d.specs.general_model as string)
        .sort();
      return ok({ message: "OK", status: "0", model: models });
    }
    case "view": {
      const device = FIXTURE_DEVICES.find(
        (d) =>
          String(d.specs.general_vendor).toLowerCase() === first.toLowerCase() &&
          String(d.specs.general_model).toLowerCase() === second.toLowerCase(),
      );
      if (device === undefined) return ok({ message: "Nothing found", status: "301" });
      const omit = [
        "general_platform_version",
        "general_browser",
        "general_browser_version",
        "general_language",
      ];
      return ok({ device: record(device, omit), message: "OK", status: "0" });
    }
    case "whathas": {
      const needle = second.toLowerCase();
      const devices = FIXTURE_DEVICES.filter((d) => {
        const value = d.specs[first];
        const values = Array.isArray(value) ? value : [value ?? ""];
        return values.some((v) => v.toLowerCase().includes(needle));
      }).map((d) => ({
        id: d.id,
        general_vendor: d.specs.general_vendor,
        general_model: d.specs.general_model,
      }));
      return ok({ devices });
    }
    case "fetchspecs":
      return ok(fixtureSpecsDownload());
    case "fetchtrees":
      return ok(fixtureTreesDownload());
    default:
      return { httpStatus: 404, body: { status: 404, message: "Unknown call" } };
  }
}

/**
 * The API v3 test server. Every request is recorded and its Digest auth verified with
 * node:crypto (RFC 2617, qop=auth); a replayed nonce/nc/cnonce triple is rejected, so
 * concurrent clients that share a nonce count fail. Requests that fail authentication get a
 * 401 with a challenge. Behaviour per call can be scripted (one-shot actions) or replaced.
 */
export class ApiTestServer {
  /** Every request received, in order of arrival. */
  readonly requests: ApiRequest[] = [];
  /** Every Digest `response` value received (tests assert none of them leaks). */
  readonly digestResponses: string[] = [];
  readonly username: string;
  readonly secret: string;
  #server: Server;
  #url = "";
  #nonces = new Map<string, { realm: string; opaque: string | undefined }>();
  #seen = new Set<string>();
  #scripts = new Map<ApiCall, Action[]>();
  #handlers = new Map<ApiCall, Handler>();
  #acceptFixed: boolean;

  private constructor(options: ApiTestServerOptions) {
    this.username = options.username ?? "test-user";
    this.secret = options.secret ?? "test-secret";
    this.#acceptFixed = options.acceptFixedChallenge ?? true;
    if (this.#acceptFixed) this.#nonces.set(FIXED_NONCE, { realm: "APIv3", opaque: "APIv3" });
    this.#server = createServer((req, res) => {
      this.#serve(req, res).catch((error: unknown) => {
        res.destroy(error instanceof Error ? error : undefined);
      });
    });
  }

  /** Starts a server on 127.0.0.1, on a free port. */
  static async start(options: ApiTestServerOptions = {}): Promise<ApiTestServer> {
    const server = new ApiTestServer(options);
    await new Promise<void>((resolve) => server.#server.listen(0, "127.0.0.1", resolve));
    const { port } = server.#server.address() as AddressInfo;
    server.#url = `http://127.0.0.1:${port}`;
    return server;
  }

  /** Base URL of the server, e.g. `http://127.0.0.1:41234`. */
  get url(): string {
    return this.#url;
  }

  /** How many requests arrived (for one call, or in all). */
  count(call?: ApiCall): number {
    return call === undefined ? this.requests.length : this.requests.filter((r) => r.call === call).length;
  }

  /** Queues one-shot actions for a call, used in order before its handler. */
  script(call: ApiCall, ...actions: Action[]): this {
    this.#scripts.set(call, [...(this.#scripts.get(call) ?? []), ...actions]);
    return this;
  }

  /** Replaces a call's behaviour (until {@link reset}). */
  handle(call: ApiCall, handler: Handler): this {
    this.#handlers.set(call, handler);
    return this;
  }

  /** Forgets scripts, handlers and recorded requests. */
  reset(): void {
    this.#scripts.clear();
    this.#handlers.clear();
    this.requests.length = 0;
    this.digestResponses.length = 0;
  }

  /** Stops the server, cutting any connection left open (hanging requests included). */
  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** Issues a fresh challenge (realm, nonce, opaque) that the server will accept. */
  #challenge(realm = "APIv3", nonce = randomBytes(12).toString("hex"), opaque?: string): string {
    this.#nonces.set(nonce, { realm, opaque });
    const opaquePart = opaque === undefined ? "" : `, opaque="${opaque}"`;
    return `Digest realm="${realm}", nonce="${nonce}"${opaquePart}, qop="auth", algorithm=MD5`;
  }

  #verify(req: IncomingMessage, digest: DigestFields | undefined): string | undefined {
    if (digest === undefined) return "no Digest Authorization header";
    const { username, realm, nonce, uri, qop, nc, cnonce, response, opaque, algorithm } = digest;
    if (username !== this.username) return "unknown username";
    const issued = nonce === undefined ? undefined : this.#nonces.get(nonce);
    if (issued === undefined || nonce === undefined) return "unknown nonce";
    if (realm !== issued.realm) return "wrong realm";
    if (issued.opaque !== undefined && opaque !== issued.opaque) return "wrong opaque";
    if (uri !== req.url) return `uri ${uri} is not the request path ${req.url}`;
    if (qop !== "auth") return "qop is not auth";
    if (algorithm !== undefined && algorithm.toUpperCase() !== "MD5") return "unsupported algorithm";
    if (nc === undefined || !/^[0-9a-f]{8}$/i.test(nc)) return "bad nc";
    if (cnonce === undefined || cnonce === "") return "no cnonce";
    const ha1 = md5(`${this.username}:${realm}:${this.secret}`);
    const ha2 = md5(`${req.method}:${uri}`);
    if (response !== md5(`${ha1}:${nonce}:${nc}:${cnonce}:auth:${ha2}`)) return "wrong response";
    const use = `${nonce}|${nc}|${cnonce}`;
    if (this.#seen.has(use)) return "replayed nonce count and client nonce";
    this.#seen.add(use);
    return undefined;
  }

  async #serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // keep the raw text
    }
    const rawPath = req.url ?? "";
    const { call, params } = route(rawPath);
    const header = req.headers.authorization;
    const digest = header === undefined ? undefined : parseDigest(header);
    if (digest?.response !== undefined) this.digestResponses.push(digest.response);
    const authProblem = this.#verify(req, digest);
    const request: ApiRequest = {
      call,
      method: req.method ?? "",
      rawPath,
      params,
      body,
      headers: req.headers,
      digest,
      authenticated: authProblem === undefined,
      authProblem,
    };
    this.requests.push(request);

    if (authProblem !== undefined) {
      res.writeHead(401, { "www-authenticate": this.#challenge(), "content-type": "text/plain" });
      res.end("Unauthorized");
      return;
    }
    const script = call === undefined ? undefined : this.#scripts.get(call);
    const handler = call === undefined ? undefined : this.#handlers.get(call);
    const action: Action =
      script?.shift() ?? (handler === undefined ? { kind: "default" } : await handler(request));
    await this.#act(action, request, res);
  }

  async #act(action: Action, request: ApiRequest, res: ServerResponse): Promise<void> {
    switch (action.kind) {
      case "default": {
        const { httpStatus, body } = defaultReply(request);
        return send(res, httpStatus, "application/json", JSON.stringify(body));
      }
      case "json":
        return send(res, action.httpStatus ?? 200, "application/json", JSON.stringify(action.body), {
          chunkBytes: action.chunkBytes,
          chunkDelayMs: action.chunkDelayMs,
          headers: action.headers,
        });
      case "text":
        return send(res, action.httpStatus ?? 200, action.contentType ?? "text/plain", action.body, {
          chunkBytes: action.chunkBytes,
          chunkDelayMs: action.chunkDelayMs,
        });
      case "hang":
        return; // never answer; close() cuts the connection
      case "destroy":
        res.socket?.destroy();
        return;
      case "truncate": {
        const bytes = Buffer.from(action.body, "utf8");
        const ending = action.ending ?? "destroy";
        const headers: Record<string, string> = { "content-type": "application/json" };
        if (ending !== "end") headers["content-length"] = String(bytes.length);
        res.writeHead(200, headers);
        res.write(bytes.subarray(0, action.sendBytes));
        if (ending === "end") res.end();
        else if (ending === "destroy") {
          await new Promise((resolve) => setTimeout(resolve, 10));
          res.socket?.destroy();
        }
        return;
      }
      case "challenge":
        res.writeHead(401, {
          "www-authenticate": this.#challenge(action.realm, action.nonce, action.opaque),
          "content-type": "text/plain",
        });
        res.end("Unauthorized");
        return;
      case "unauthorized":
        res.writeHead(
          401,
          action.wwwAuthenticate === undefined ? {} : { "www-authenticate": action.wwwAuthenticate },
        );
        res.end("Unauthorized");
        return;
    }
  }
}

async function send(
  res: ServerResponse,
  httpStatus: number,
  contentType: string,
  text: string,
  {
    chunkBytes,
    chunkDelayMs,
    headers,
  }: {
    chunkBytes?: number | undefined;
    chunkDelayMs?: number | undefined;
    headers?: Record<string, string> | undefined;
  } = {},
): Promise<void> {
  const bytes = Buffer.from(text, "utf8");
  res.writeHead(httpStatus, {
    "content-type": contentType,
    "content-length": String(bytes.length),
    ...headers,
  });
  if (chunkBytes === undefined) {
    res.end(bytes);
    return;
  }
  for (let offset = 0; offset < bytes.length; offset += chunkBytes) {
    res.write(bytes.subarray(offset, offset + chunkBytes));
    await new Promise((resolve) =>
      chunkDelayMs === undefined ? setImmediate(resolve) : setTimeout(resolve, chunkDelayMs),
    );
    if (res.destroyed) return;
  }
  res.end();
}
