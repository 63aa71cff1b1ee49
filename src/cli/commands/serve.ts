// `hd3 serve`: runs the self-hosted API v3 server on synced data (or the sample database) until a signal stops it.

import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import type { LocalEngine } from "../../engine/local-engine.js";
import { SAMPLE_DEVICES, sampleDataFiles } from "../../engine/sample-facts.js";
import { isHdOptionError } from "../../errors.js";
import type { ApiHttpServer } from "../../server/api-http-server.js";
import type { ApiServerOptions } from "../../server/api-server.js";
import type { UserTable } from "../../server/users.js";
import type { DataStore } from "../../store/data-store.js";
import { asFlagError, booleanFlag, type CommandContext, flag, givenDataDir, note } from "../context.js";
import { cloudOptions, openClient, stderrLogger } from "../data-source.js";
import { CliError, UsageError } from "../exit-codes.js";
import { keepFresh, syncEvery } from "../serve-data.js";

/** Port `hd3 serve` listens on without `--port`. */
export const DEFAULT_SERVE_PORT = 8080;
/** Address `hd3 serve` listens on without `--host`: this machine only. */
export const DEFAULT_SERVE_HOST = "127.0.0.1";
/** How long a shutdown waits for requests in flight before cutting their connections. */
export const SHUTDOWN_GRACE_MS = 5_000;

/** `--port` as an integer 0-65535 (0: any free port), default {@link DEFAULT_SERVE_PORT}. */
function port(context: CommandContext): number {
  const text = flag(context, "port");
  if (text === undefined) return DEFAULT_SERVE_PORT;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value > 65_535) {
    throw new UsageError(
      `--port must be a whole number from 0 to 65535 (0: any free port), got ${JSON.stringify(text)}.`,
      context.command,
    );
  }
  return value;
}

/** `--host`, default {@link DEFAULT_SERVE_HOST}. */
function host(context: CommandContext): string {
  const text = flag(context, "host") ?? DEFAULT_SERVE_HOST;
  if (text.trim() === "" || /[\s/]/.test(text)) {
    throw new UsageError(
      `--host must be a host name or IP address, got ${JSON.stringify(text)}.`,
      context.command,
    );
  }
  return text;
}

/** The request limit options of `createApiServer` and the `hd3 serve` flag that sets each. */
const LIMIT_FLAGS = {
  headersTimeoutMs: "headers-timeout-ms",
  requestTimeoutMs: "request-timeout-ms",
  keepAliveTimeoutMs: "keep-alive-timeout-ms",
  maxBodyBytes: "max-body-bytes",
  sendTimeoutMs: "send-timeout-ms",
  maxDownloadsPerUser: "max-downloads-per-user",
} as const satisfies Partial<Record<keyof ApiServerOptions, string>>;

type LimitOptions = Partial<Record<keyof typeof LIMIT_FLAGS, number>>;

/** The limit flags given, as options (their ranges are checked by `createApiServer`). */
function limits(context: CommandContext): LimitOptions {
  const options: LimitOptions = {};
  for (const [option, name] of Object.entries(LIMIT_FLAGS) as [keyof typeof LIMIT_FLAGS, string][]) {
    const text = flag(context, name);
    if (text === undefined) continue;
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
      throw new UsageError(`--${name} must be a whole number, got ${JSON.stringify(text)}.`, context.command);
    }
    options[option] = Number(text);
  }
  return options;
}

/** The accounts from `--users-file`: required, and a bad file is a usage error naming the entry. */
async function users(context: CommandContext): Promise<UserTable> {
  const given = flag(context, "users-file");
  if (given === undefined) {
    throw new UsageError(
      '`serve` needs --users-file <file>: a JSON array of { "username", "secret", "downloads": true|false } (the accounts allowed in).',
      context.command,
    );
  }
  const file = resolve(context.io.cwd, given);
  const { loadUsersFile } = await import("../../server/users.js");
  try {
    return await loadUsersFile(file);
  } catch (error) {
    if (isHdOptionError(error))
      throw new UsageError(`bad users file ${file}: ${error.message}`, context.command);
    throw error;
  }
}

/** What the server answers from. */
interface ServedData {
  engine: LocalEngine;
  /** The store, for `--data-dir` (followed, synced with --sync-every, reloaded on SIGHUP). */
  store: DataStore | undefined;
  files: { dataDir: string } | { specsFile: string; treesFile: string };
}

async function openData(context: CommandContext, syncing: boolean): Promise<ServedData> {
  const given = givenDataDir(context);
  if (given === undefined) {
    if (syncing) {
      throw new UsageError(
        "--sync-every needs --data-dir <dir>: the directory to sync into.",
        context.command,
      );
    }
    const { specsPath, treesPath } = sampleDataFiles();
    const { sampleEngine } = await import("../../engine/sample-engine.js");
    const engine = sampleEngine({ logger: stderrLogger(context) });
    note(
      context,
      `serving the SAMPLE database (${SAMPLE_DEVICES} devices). For the real one: \`hd3 sync\`, then --data-dir.`,
    );
    return {
      engine,
      store: undefined,
      files: { specsFile: specsPath, treesFile: treesPath },
    };
  }
  const { dir } = given;
  const { DataStore } = await import("../../store/data-store.js");
  // With --sync-every the store syncs from the vendor, or from another hd3 serve (--base-url).
  const source = syncing ? await openClient(context) : undefined;
  const store = new DataStore({
    dir,
    logger: stderrLogger(context),
    ...(source === undefined ? {} : { source }),
  });
  if (await store.hasCachedData()) await store.load();
  else if (syncing) {
    note(context, `no synced data in ${dir} yet: syncing from ${flag(context, "base-url") ?? "the vendor"}`);
    await store.sync();
  }
  const engine = store.engine;
  const { cachedDataProblem } = await import("../../store/data-store.js");
  const problem = engine === undefined ? await cachedDataProblem(dir) : undefined;
  if (problem !== undefined) {
    throw new CliError(`${problem} Run \`hd3 sync --data-dir ${dir}\` to replace it.`);
  }
  if (engine === undefined) {
    throw new CliError(
      `no synced data in ${dir}: run \`hd3 sync --data-dir ${dir}\` first (or leave out --data-dir to serve the sample database).`,
    );
  }
  note(context, `serving local data in ${dir}`);
  return { engine, store, files: { dataDir: dir } };
}

function listen(server: Server, portNumber: number, hostName: string): Promise<AddressInfo> {
  return new Promise((resolveListen, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(new CliError(`cannot listen on ${hostName}:${portNumber}: ${error.code ?? error.message}.`));
    };
    server.once("error", onError);
    server.listen(portNumber, hostName, () => {
      server.off("error", onError);
      resolveListen(server.address() as AddressInfo);
    });
  });
}

function baseUrl(address: AddressInfo): string {
  const hostPart = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return `http://${hostPart}:${address.port}`;
}

function describeData(engine: LocalEngine): string {
  const info = engine.dataInfo;
  const generated = info.treesGenerated ?? info.specsGenerated;
  return `${info.devices} devices${generated === undefined ? "" : `, generated ${generated}`}`;
}

/**
 * Runs `hd3 serve`: loads the data (the store of `--data-dir`, else the sample database) and the
 * accounts of `--users-file`, serves `createApiHttpServer` (request limits from the limit flags,
 * raw spaces on request lines accepted) on `--host`:`--port`, prints the base URL
 * on stdout, and resolves with exit code 0 after SIGINT or SIGTERM once the server has closed
 * (requests in flight get {@link SHUTDOWN_GRACE_MS} to finish). `--data-dir` is followed: a pair
 * a `hd3 sync` renamed into place is swapped in while serving, and SIGHUP reloads at once; a
 * pair that does not load keeps the data in use. `--sync-every` syncs the directory itself, from
 * the vendor or from another `hd3 serve` (`--base-url`), first of all when it is empty.
 */
export async function run(context: CommandContext): Promise<number> {
  const portNumber = port(context);
  const hostName = host(context);
  const requestLimits = limits(context);
  const interval = syncEvery(context);
  await cloudOptions(context);
  const accounts = await users(context);
  const data = await openData(context, interval !== undefined);
  const { createApiHttpServer } = await import("../../server/api-http-server.js");
  let server: ApiHttpServer;
  try {
    server = createApiHttpServer({
      engine: data.engine,
      users: accounts,
      ...data.files,
      ...requestLimits,
      logger: stderrLogger(context),
    });
  } catch (error) {
    throw asFlagError(error, context, LIMIT_FLAGS);
  }
  if (booleanFlag(context, "metrics")) {
    const { serveMetrics } = await import("../serve-metrics.js");
    await serveMetrics(server, server.api, data.engine);
  }
  const address = await listen(server, portNumber, hostName);
  const fresh = data.store === undefined ? undefined : keepFresh(context, data.store, data.engine, interval);

  // The handlers are in place before the URL is printed: whoever reads the URL may signal at once.
  const stopped = new Promise<number>((resolveRun) => {
    let stopping = false;
    const reload = () => {
      if (fresh === undefined) {
        note(context, "SIGHUP: the sample database has nothing to reload");
        return;
      }
      fresh.reload().catch(() => undefined);
    };
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        server.closeAllConnections();
        return;
      }
      stopping = true;
      note(context, `${signal}: shutting down`);
      const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
      force.unref();
      const closing = fresh?.close().catch(() => undefined);
      server.close(async () => {
        await closing;
        clearTimeout(force);
        process.off("SIGINT", stop);
        process.off("SIGTERM", stop);
        process.off("SIGHUP", reload);
        note(context, "stopped");
        resolveRun(0);
      });
      server.closeIdleConnections();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    process.on("SIGHUP", reload);
  });
  context.io.stdout.write(
    `Serving the Handset Detection API v3 at ${baseUrl(address)} (${describeData(data.engine)}; ${accounts.size} user${accounts.size === 1 ? "" : "s"})\n`,
  );
  if (booleanFlag(context, "metrics")) note(context, `Prometheus metrics at ${baseUrl(address)}/metrics`);
  return stopped;
}
