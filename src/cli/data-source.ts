// Picks where answers come from (synced local data, the cloud API or the sample database) and opens it.

import { stat } from "node:fs/promises";
import type { HdClientOptions } from "../client/options.js";
import type { LocalEngine } from "../engine/local-engine.js";
import { SAMPLE_DEVICES, sampleDataFiles } from "../engine/sample-facts.js";
import { isHdNotFoundError, sentence } from "../errors.js";
import type { Logger } from "../logger.js";
import type {
  DetectReply,
  DeviceRecord,
  HeadersInput,
  ModelsReply,
  ReplyStatus,
  VendorsReply,
  WhatHasReply,
} from "../types.js";
import {
  asFlagError,
  type CommandContext,
  credentials,
  dataDir,
  flag,
  givenDataDir,
  note,
  timeoutMs,
} from "./context.js";
import { CliError, UsageError } from "./exit-codes.js";

/** The data sources `--source` accepts. */
const SOURCE_KINDS = ["auto", "local", "cloud", "sample"] as const;

/** Which source answers. */
type SourceKind = "local" | "cloud" | "sample";

/** A view reply, or the 301 reply when there is no such device. */
type ViewAnswer = ReplyStatus & { device?: DeviceRecord | undefined };

/**
 * The calls the CLI makes, answered the same way by every source: "nothing found" (301) is a
 * reply, never an exception, so commands print it like any other answer.
 */
export interface AnswerSource {
  readonly kind: SourceKind;
  detect(headers: HeadersInput): Promise<DetectReply>;
  vendors(): Promise<VendorsReply>;
  models(vendor: string): Promise<ModelsReply>;
  view(vendor: string, model: string): Promise<ViewAnswer>;
  whatHas(property: string, value: string): Promise<WhatHasReply>;
}

/** True when the directory holds a non-empty synced specs file and trees file. */
async function hasSyncedData(dir: string): Promise<boolean> {
  const { hasCachedData } = await import("../store/cached-data.js");
  return hasCachedData(dir);
}

/** A logger that writes the library's warnings to stderr. */
export function stderrLogger(context: CommandContext): Logger {
  return {
    warn(message) {
      context.io.stderr.write(`hd3: warning: ${sentence(message)}\n`);
    },
  };
}

/** Turns a cloud 301 rejection into the reply it carries. */
async function orReply<T>(call: Promise<T>): Promise<T | (ReplyStatus & Record<string, unknown>)> {
  try {
    return await call;
  } catch (error) {
    if (isHdNotFoundError(error)) return error.reply;
    throw error;
  }
}

/**
 * Opens the local engine: the data directory's through its store (the current generation's
 * snapshot when it loads, else its JSON pair; the previous generation when the current one does
 * not load), or the sample database's shipped snapshot.
 */
async function openLocal(
  context: CommandContext,
  kind: "local" | "sample",
  dir: string,
): Promise<AnswerSource> {
  const logger = stderrLogger(context);
  let engine: LocalEngine;
  if (kind === "local") {
    const { DataStore } = await import("../store/data-store.js");
    engine = await new DataStore({ dir, logger }).load();
  } else {
    const { sampleEngine } = await import("../engine/sample-engine.js");
    engine = sampleEngine({ logger });
  }
  return {
    kind,
    detect: async (headers) => engine.detect(headers),
    vendors: async () => engine.vendors(),
    models: async (vendor) => engine.models(vendor),
    view: async (vendor, model) => engine.view(vendor, model),
    whatHas: async (property, value) => engine.whatHas(property, value),
  };
}

/** The flag that sets each `HdClient` option the CLI passes. */
const FLAG_OF_CLIENT_OPTION = {
  username: "username",
  secret: "secret",
  siteId: "site-id",
  baseUrl: "base-url",
  timeoutMs: "timeout-ms",
} as const satisfies Partial<Record<keyof HdClientOptions, string>>;

/** Stand-ins for absent credentials, so the other cloud flags are checked without them. */
const NO_CREDENTIALS = { username: "hd3", secret: "unused", siteId: "1" } as const;

/**
 * The cloud flags as `HdClient` options, checked by the client's own rules whether or not the
 * cloud will answer: a bad `--base-url` or `--timeout-ms` is a usage error on local data or the
 * sample database too. Undefined when no credentials are given.
 */
export async function cloudOptions(context: CommandContext): Promise<HdClientOptions | undefined> {
  const creds = credentials(context);
  const baseUrl = flag(context, "base-url");
  const timeout = timeoutMs(context);
  const options: HdClientOptions = {
    ...(creds ?? NO_CREDENTIALS),
    ...(baseUrl === undefined ? {} : { baseUrl }),
    ...(timeout === undefined ? {} : { timeoutMs: timeout }),
  };
  const { resolveClientOptions } = await import("../client/options.js");
  try {
    resolveClientOptions(options);
  } catch (error) {
    throw asFlagError(error, context, FLAG_OF_CLIENT_OPTION);
  }
  return creds === undefined ? undefined : options;
}

/** Creates the cloud client from the command's credentials and connection flags. */
export async function openClient(context: CommandContext) {
  const options = await cloudOptions(context);
  if (options === undefined) {
    throw new UsageError(
      "the cloud needs credentials: --username, --secret and --site-id (or HD_USERNAME, HD_SECRET, HD_SITE_ID).",
      context.command,
    );
  }
  const { HdClient } = await import("../client/index.js");
  return new HdClient({ ...options, logger: stderrLogger(context) });
}

async function openCloud(context: CommandContext): Promise<AnswerSource> {
  const client = await openClient(context);
  return {
    kind: "cloud",
    detect: (headers) => orReply(client.detect(headers)) as Promise<DetectReply>,
    vendors: () => client.vendors(),
    models: (vendor) => client.models(vendor),
    view: (vendor, model) => orReply(client.view(vendor, model)) as Promise<ViewAnswer>,
    whatHas: (property, value) => client.whatHas(property, value),
  };
}

/** `--source`, checked. */
function wantedSource(context: CommandContext): (typeof SOURCE_KINDS)[number] {
  const wanted = flag(context, "source") ?? "auto";
  if (!(SOURCE_KINDS as readonly string[]).includes(wanted)) {
    throw new UsageError(
      `--source must be one of ${SOURCE_KINDS.join(", ")}, got ${JSON.stringify(wanted)}.`,
      context.command,
    );
  }
  return wanted as (typeof SOURCE_KINDS)[number];
}

/**
 * The data directory and whether it holds synced data. A directory the user named (`--data-dir`,
 * `HD_DATA_DIR`) must exist and hold synced data: a usage error otherwise, rather than answers
 * from another source the user did not ask for. The default directory is looked into only when
 * its data may answer (`wanted` is `auto` or `local`).
 */
async function checkedDataDir(
  context: CommandContext,
  wanted: SourceKind | "auto",
): Promise<{ dir: string; hasData: boolean }> {
  const given = givenDataDir(context);
  if (given === undefined) {
    const dir = dataDir(context);
    const mayAnswer = wanted === "auto" || wanted === "local";
    return { dir, hasData: mayAnswer && (await hasSyncedData(dir)) };
  }
  const { dir, givenAs } = given;
  const isDirectory = await stat(dir).then(
    (info) => info.isDirectory(),
    (error: NodeJS.ErrnoException) => error.code ?? "unreadable",
  );
  if (isDirectory === "ENOENT" || isDirectory === "ENOTDIR") {
    throw new UsageError(
      `${givenAs} ${dir} does not exist: give the directory \`hd3 sync\` wrote, or leave out ${givenAs}.`,
      context.command,
    );
  }
  if (typeof isDirectory === "string") {
    throw new UsageError(`${givenAs} ${dir} cannot be read (${isDirectory}).`, context.command);
  }
  if (!isDirectory) throw new UsageError(`${givenAs} ${dir} is not a directory.`, context.command);
  if (!(await hasSyncedData(dir))) {
    const { cachedDataProblem } = await import("../store/cached-data.js");
    const problem = await cachedDataProblem(dir);
    if (problem !== undefined) {
      throw new UsageError(
        `${givenAs} ${dir}: ${problem} Run \`hd3 sync --data-dir ${dir}\` to replace it.`,
        context.command,
      );
    }
    throw new UsageError(
      `${givenAs} ${dir} holds no synced data: run \`hd3 sync --data-dir ${dir}\` first, or leave out ${givenAs}.`,
      context.command,
    );
  }
  return { dir, hasData: true };
}

/** The specs and trees files a command reads, and how to name them. */
export interface LocalDataFiles {
  readonly specsPath: string;
  readonly treesPath: string;
  /** `sample`, or the data directory. */
  readonly label: string;
}

/**
 * The local data for a command that needs files rather than answers (`hd3 report`): the synced
 * data in `--data-dir` / `HD_DATA_DIR` (which must hold it) or in the default data directory,
 * else the sample database, with a note on stderr saying which.
 */
export async function localDataFiles(context: CommandContext): Promise<LocalDataFiles> {
  const { dir, hasData } = await checkedDataDir(context, "local");
  if (hasData) {
    note(context, `using local data in ${dir}`);
    const { currentPair } = await import("../store/data-layout.js");
    const pair = await currentPair(dir);
    return { specsPath: pair.specsFile, treesPath: pair.treesFile, label: dir };
  }
  note(
    context,
    `using the SAMPLE database (${SAMPLE_DEVICES} devices): most devices will show as generic or unknown. For the real one: a licence with downloads, \`hd3 sync\`, then --data-dir.`,
  );
  const { specsPath, treesPath } = sampleDataFiles();
  return { specsPath, treesPath, label: "sample" };
}

/**
 * Opens the source `--source` names. `auto` (the default) takes synced data from the data
 * directory when present, else the cloud when credentials are set, else the sample database.
 * Every flag is checked first, whichever source answers. A note on stderr says which one does.
 */
export async function openSource(context: CommandContext): Promise<AnswerSource> {
  const wanted = wantedSource(context);
  const cloud = await cloudOptions(context);
  const { dir, hasData } = await checkedDataDir(context, wanted);
  let kind: SourceKind;
  if (wanted === "auto") {
    if (hasData) kind = "local";
    else if (cloud !== undefined) kind = "cloud";
    else kind = "sample";
  } else {
    kind = wanted;
  }
  switch (kind) {
    case "local": {
      if (!hasData) {
        throw new CliError(
          `no synced data in ${dir}: run \`hd3 sync\` first (or choose --source cloud or sample).`,
        );
      }
      note(context, `using local data in ${dir}`);
      return openLocal(context, "local", dir);
    }
    case "cloud": {
      const source = await openCloud(context);
      note(
        context,
        `using the cloud API at ${flag(context, "base-url") ?? "https://api.handsetdetection.com"}`,
      );
      return source;
    }
    case "sample": {
      note(
        context,
        `using the SAMPLE database (${SAMPLE_DEVICES} devices). For the real one: a licence with downloads, then \`hd3 sync\`.`,
      );
      return openLocal(context, "sample", dir);
    }
  }
}
