// A loopback API v3 server for tests: the real createApiServer behind an independent Digest check, request log and fault injection.

import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { silentLogger } from "../../src/logger.js";
import { type ApiServer, createApiServer, DATA_FILE_NAMES } from "../../src/server/api-server.js";
import { loadTestEngine } from "./api-test-engine.js";
import { fixtureSpecsDownload, fixtureTreesDownload } from "./api-test-fixtures.js";

/** The calls the server knows, named as in the URL. */
export type ApiCall =
  | "detect"
  | "fetchspecs"
  | "fetchtrees"
  | "fetcharchive"
  | "vendors"
  | "models"
  | "view"
  | "whathas";

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

/**
 * What the server does with one request. `default` hands the request to the real server
 * (`createApiServer` over the test engine); the other kinds are faults and canned replies.
 */
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

/** Decides the action for a request; `{ kind: "default" }` lets the real server answer. */
export type Handler = (request: ApiRequest) => Action | Promise<Action>;

/** Options of {@link ApiTestServer.start}. */
export interface ApiTestServerOptions {
  username?: string;
  secret?: string;
  /** Accept the fixed `APIv3` challenge without a 401 first (as the real service does). Default true. */
  acceptFixedChallenge?: boolean;
  /** Whether the account may download specs and trees (else the real server answers 229). Default true. */
  downloads?: boolean;
  /**
   * A directory holding `hd3specs.json` and `hd3trees.json` to serve (e.g. the sample database).
   * Default: the fixture pair of `api-test-fixtures.ts`, written to a temporary directory.
   */
  dataDir?: string;
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
  { call: "fetcharchive", pattern: /^(?:\/[^/]+)*?\/apiv3\/site\/fetcharchive\/([^/]+)\.json$/ },
  { call: "vendors", pattern: /^(?:\/[^/]+)*?\/apiv3\/device\/vendors\.json$/ },
  { call: "models", pattern: /^(?:\/[^/]+)*?\/apiv3\/device\/models\/([^/]+)\.json$/ },
  { call: "view", pattern: /^(?:\/[^/]+)*?\/apiv3\/device\/view\/([^/]+)\/([^/]+)\.json$/ },
  { call: "whathas", pattern: /^(?:\/[^/]+)*?\/apiv3\/device\/whathas\/([^/]+)\/([^/]+)\.json$/ },
];

function decodeOrKeep(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function route(path: string): { call: ApiCall | undefined; params: string[] } {
  for (const { call, pattern } of ROUTES) {
    const match = pattern.exec(path);
    if (match !== null) return { call, params: match.slice(1).map((segment) => decodeOrKeep(segment ?? "")) };
  }
  return { call: undefined, params: [] };
}

/** A request as the real server sees it when mounted: Express's `originalUrl` and an already-read body. */
interface ForwardedRequest extends IncomingMessage {
  originalUrl?: string;
  body?: unknown;
}

/** What the server needs to answer API calls: the real handler and, when it made one, its temporary data directory. */
interface Backend {
  api: ApiServer;
  scratchDir: string | undefined;
}

async function startBackend(
  options: ApiTestServerOptions,
  username: string,
  secret: string,
): Promise<Backend> {
  let dataDir = options.dataDir;
  let scratchDir: string | undefined;
  if (dataDir === undefined) {
    scratchDir = await mkdtemp(join(tmpdir(), "hd-api-test-"));
    dataDir = scratchDir;
    await writeFile(join(dataDir, DATA_FILE_NAMES.specs), JSON.stringify(fixtureSpecsDownload()));
    await writeFile(join(dataDir, DATA_FILE_NAMES.trees), JSON.stringify(fixtureTreesDownload()));
  }
  const engine = await loadTestEngine(
    join(dataDir, DATA_FILE_NAMES.specs),
    join(dataDir, DATA_FILE_NAMES.trees),
  );
  const api = createApiServer({
    engine,
    dataDir,
    users: [{ username, secret, downloads: options.downloads ?? true }],
    logger: silentLogger,
  });
  return { api, scratchDir };
}

/**
 * The API v3 test server: a thin layer in front of the real self-hosted server
 * (`createApiServer` over a `LocalEngine`, see `api-test-engine.ts`). The layer records every
 * request and verifies its Digest auth itself with node:crypto (RFC 2617, qop=auth) — an
 * implementation independent of both the client's and the server's; a replayed nonce/nc/cnonce
 * triple is rejected, so concurrent clients that share a nonce count fail. Requests that fail
 * get a 401 with a fresh challenge. Behaviour per call can be scripted (one-shot actions) or
 * replaced to inject faults; otherwise the real server answers. A request signed for a nonce
 * this layer issued is re-signed in the fixed `APIv3` form before it reaches the real server
 * (which accepts only that form); a request already in that form reaches it as sent, so both
 * checks apply to it.
 */
export class ApiTestServer {
  /** Every request received, in order of arrival. */
  readonly requests: ApiRequest[] = [];
  /** Every Digest `response` value received (tests assert none of them leaks). */
  readonly digestResponses: string[] = [];
  readonly username: string;
  readonly secret: string;
  #server: Server;
  #backend: Backend;
  #url = "";
  #nonces = new Map<string, { realm: string; opaque: string | undefined }>();
  #seen = new Set<string>();
  #scripts = new Map<ApiCall, Action[]>();
  #handlers = new Map<ApiCall, Handler>();
  #acceptFixed: boolean;

  private constructor(options: ApiTestServerOptions, username: string, secret: string, backend: Backend) {
    this.username = username;
    this.secret = secret;
    this.#backend = backend;
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
    const username = options.username ?? "test-user";
    const secret = options.secret ?? "test-secret";
    const server = new ApiTestServer(
      options,
      username,
      secret,
      await startBackend(options, username, secret),
    );
    await new Promise<void>((resolve) => server.#server.listen(0, "127.0.0.1", resolve));
    const { port } = server.#server.address() as AddressInfo;
    server.#url = `http://127.0.0.1:${port}`;
    return server;
  }

  /** Base URL of the server, e.g. `http://127.0.0.1:41234`. */
  get url(): string {
    return this.#url;
  }

  /** The real server behind the layer; `api.counts` says how many calls it answered. */
  get api(): ApiServer {
    return this.#backend.api;
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
    this.#backend.api.close();
    const { scratchDir } = this.#backend;
    if (scratchDir !== undefined) await rm(scratchDir, { recursive: true, force: true });
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

  /** An `Authorization` header in the fixed `APIv3` form for this account, computed here. */
  #fixedFormAuthorization(method: string, uri: string): string {
    const nc = "00000001";
    const cnonce = randomBytes(8).toString("hex");
    const ha1 = md5(`${this.username}:APIv3:${this.secret}`);
    const ha2 = md5(`${method}:${uri}`);
    const response = md5(`${ha1}:APIv3:${nc}:${cnonce}:auth:${ha2}`);
    return `Digest username="${this.username}", realm="APIv3", nonce="APIv3", uri="${uri}", qop=auth, nc=${nc}, cnonce="${cnonce}", response="${response}", opaque="APIv3", algorithm=MD5`;
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
    if (action.kind === "default") {
      await this.#forward(req as ForwardedRequest, res, text, digest);
      return;
    }
    await act(action, res, (realm, nonce, opaque) => this.#challenge(realm, nonce, opaque));
  }

  /**
   * Hands an authenticated request to the real server as Express would after mounting it at the
   * path prefix before `/apiv3/`: `url` relative to the mount point, `originalUrl` as sent, and
   * the body already read (as text, which the server parses itself).
   */
  async #forward(
    req: ForwardedRequest,
    res: ServerResponse,
    text: string,
    digest: DigestFields | undefined,
  ): Promise<void> {
    const rawPath = req.url ?? "/";
    const apiAt = rawPath.indexOf("/apiv3/");
    req.originalUrl = rawPath;
    if (apiAt > 0) req.url = rawPath.slice(apiAt);
    req.body = text;
    if (digest?.nonce !== FIXED_NONCE) {
      req.headers.authorization = this.#fixedFormAuthorization(req.method ?? "POST", rawPath);
    }
    await new Promise<void>((resolve) => {
      res.once("close", resolve);
      this.#backend.api(req, res);
    });
  }
}

/** Performs a scripted action (anything but `default`). */
async function act(
  action: Exclude<Action, { kind: "default" }>,
  res: ServerResponse,
  challenge: (realm?: string, nonce?: string, opaque?: string) => string,
): Promise<void> {
  switch (action.kind) {
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
        "www-authenticate": challenge(action.realm, action.nonce, action.opaque),
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
