// Reads a trees download (ordered Maps or a parsed object) into validated sieve and direct trees.

import { HdDataError, kindOf } from "../errors.js";
import type { DownloadNotice } from "../types.js";
import { runToEnd, type Steps } from "./slices.js";

/**
 * A sieve tree flattened in document order: filter instances (one per order/filter pair) and
 * their rules (one per match key). The rules of filter `f` are `filterStart[f]` to
 * `filterStart[f + 1] - 1`; rule numbers therefore follow document order.
 */
export interface SieveTree {
  /** Tree name, e.g. `user-agent0`. */
  readonly name: string;
  /** Order key of each filter instance. */
  readonly filterOrder: readonly string[];
  /** Filter key of each filter instance. */
  readonly filterKey: readonly string[];
  /** First rule of each filter instance, plus one final entry (the rule count). */
  readonly filterStart: Int32Array;
  /** Match key of each rule. */
  readonly ruleMatch: readonly string[];
  /** Id of each rule. */
  readonly ruleId: readonly string[];
  /** Filter instance of each rule. */
  readonly ruleFilter: Int32Array;
}

/** A direct tree: normalised value to id. A Map, so `__proto__` and `constructor` are ordinary keys. */
export type DirectTree = ReadonlyMap<string, string>;

/** The trees detection uses, plus facts about the download. */
export interface TreesData {
  readonly notice: DownloadNotice | undefined;
  readonly ua0: SieveTree;
  readonly ua1: SieveTree;
  readonly platform: SieveTree;
  readonly browser: SieveTree;
  readonly profile0: DirectTree;
  readonly opera0: DirectTree;
  /** The ids of `profile0` by key place (document order), as direct lookups answer places. */
  readonly profile0Ids: readonly string[];
  /** The ids of `x-operamini-phone0` by key place. */
  readonly opera0Ids: readonly string[];
  /** Every tree name in the download. */
  readonly names: readonly string[];
  /** Ids named by the device trees detection uses (sieve and direct). */
  readonly deviceIds: ReadonlySet<string>;
  /** Extra trees' ids. */
  readonly extraIds: ReadonlySet<string>;
  /** Detection trees missing from the download (treated as empty). */
  readonly missingTrees: readonly string[];
  /**
   * When the trees came as an already-parsed object: how many filter or match keys are
   * integer-like, i.e. keys whose document order JavaScript could not keep.
   */
  readonly reorderedKeys: number;
}

/** Names of the sieve trees detection walks. */
export const SIEVE_TREE_NAMES = [
  "user-agent0",
  "user-agent1",
  "user-agentplatform",
  "user-agentbrowser",
] as const;

const EXTRA_TREE_NAMES: ReadonlySet<string> = new Set(["user-agentplatform", "user-agentbrowser"]);

/** True for a JSON object given as a Map (ordered parse) or a plain object (`JSON.parse`). */
function isJsonObject(node: unknown): boolean {
  return node instanceof Map || (node !== null && typeof node === "object" && !Array.isArray(node));
}

/**
 * Calls `visit` for each entry of a JSON object: a Map in its (document) order, a plain object in
 * JavaScript's order. Returns false, visiting nothing, when `node` is not an object.
 */
function eachEntry(node: unknown, visit: (key: string, value: unknown) => void): boolean {
  if (node instanceof Map) {
    (node as Map<string, unknown>).forEach((value, key) => {
      visit(key, value);
    });
    return true;
  }
  if (node === null || typeof node !== "object" || Array.isArray(node)) return false;
  const record = node as Record<string, unknown>;
  const keys = Object.keys(record);
  for (let i = 0; i < keys.length; i++) visit(keys[i] as string, record[keys[i] as string]);
  return true;
}

/** The value of one key of a JSON object given as a Map or plain object. */
function memberOf(node: unknown, key: string): unknown {
  if (node instanceof Map) return (node as Map<string, unknown>).get(key);
  if (node === null || typeof node !== "object" || Array.isArray(node)) return undefined;
  return Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined;
}

/** Integer-like keys are the ones JavaScript objects iterate first, in numeric order. */
function isIntegerLikeKey(key: string): boolean {
  if (key.length === 0 || key.length > 10) return false;
  if (!/^(?:0|[1-9][0-9]*)$/.test(key)) return false;
  return Number(key) < 4294967295;
}

class TreeReader {
  readonly file: string | undefined;
  reorderedKeys = 0;
  readonly deviceIds = new Set<string>();
  readonly extraIds = new Set<string>();

  constructor(file: string | undefined) {
    this.file = file;
  }

  fail(problem: string): never {
    const where = this.file ?? "trees data";
    throw new HdDataError(`${where}: ${problem}`, this.file === undefined ? {} : { file: this.file });
  }

  id(value: unknown, path: string): string {
    if (typeof value === "string" && value !== "") return value;
    if (typeof value === "number" && Number.isFinite(value)) return String(value);
    return this.fail(`${path} should be a device id (a non-empty string) but is ${kindOf(value)}`);
  }

  each(value: unknown, path: string, visit: (key: string, value: unknown) => void): void {
    if (!eachEntry(value, visit)) this.fail(`${path} should be an object but is ${kindOf(value)}`);
  }

  /** The entries of a JSON object (see {@link eachEntry}), for loops that pause between entries. */
  entries(value: unknown, path: string): Iterable<[string, unknown]> {
    if (value instanceof Map) return value as Map<string, unknown>;
    if (!isJsonObject(value)) this.fail(`${path} should be an object but is ${kindOf(value)}`);
    return Object.entries(value as Record<string, unknown>);
  }

  /** Flattens one sieve tree, pausing after each filter. */
  *sieve(name: string, node: unknown, fromMap: boolean): Steps<SieveTree> {
    const ids = EXTRA_TREE_NAMES.has(name) ? this.extraIds : this.deviceIds;
    const filterOrder: string[] = [];
    const filterKey: string[] = [];
    const starts: number[] = [];
    const ruleMatch: string[] = [];
    const ruleId: string[] = [];
    const ruleFilter: number[] = [];
    for (const [order, filters] of this.entries(node, `trees["${name}"]`)) {
      const orderPath = `trees["${name}"]["${order}"]`;
      for (const [filter, matches] of this.entries(filters, orderPath)) {
        if (!fromMap && isIntegerLikeKey(filter)) this.reorderedKeys++;
        const f = filterKey.length;
        filterOrder.push(order);
        filterKey.push(filter);
        starts.push(ruleMatch.length);
        this.each(matches, `${orderPath}["${filter}"]`, (match, id) => {
          if (!fromMap && isIntegerLikeKey(match)) this.reorderedKeys++;
          const checked =
            typeof id === "string" && id !== "" ? id : this.id(id, `${orderPath}["${filter}"]["${match}"]`);
          ids.add(checked);
          ruleMatch.push(match);
          ruleId.push(checked);
          ruleFilter.push(f);
        });
        yield;
      }
    }
    starts.push(ruleMatch.length);
    return {
      name,
      filterOrder,
      filterKey,
      filterStart: Int32Array.from(starts),
      ruleMatch,
      ruleId,
      ruleFilter: Int32Array.from(ruleFilter),
    };
  }

  direct(name: string, node: unknown): DirectTree {
    const map = new Map<string, string>();
    this.each(node, `trees["${name}"]`, (key, id) => {
      const checked = typeof id === "string" && id !== "" ? id : this.id(id, `trees["${name}"]["${key}"]`);
      this.deviceIds.add(checked);
      map.set(key, checked);
    });
    return map;
  }
}

function readNotice(node: unknown): DownloadNotice | undefined {
  if (!isJsonObject(node)) return undefined;
  const text = (key: string): string => {
    const value = memberOf(node, key);
    return typeof value === "string" ? value : "";
  };
  return { note: text("note"), generated: text("generated"), source: text("source") };
}

const EMPTY_SIEVE = (name: string): SieveTree => ({
  name,
  filterOrder: [],
  filterKey: [],
  filterStart: new Int32Array(1),
  ruleMatch: [],
  ruleId: [],
  ruleFilter: new Int32Array(0),
});

/**
 * Validates a trees download and flattens the trees detection uses. Objects given as Maps (from
 * {@link parseOrderedJson}) keep document order; plain objects keep JavaScript's order, and their
 * integer-like filter and match keys are counted in `reorderedKeys`.
 *
 * @param root - the parsed download (`{ _notice, trees }`).
 * @param file - the file it came from, named in errors.
 * @throws {HdDataError} naming the file and the problem when the shape is wrong.
 */
export function readTrees(root: unknown, file?: string): TreesData {
  return runToEnd(readTreesSteps(root, file));
}

/** {@link readTrees} as steps, pausing after each filter (see `runInSlices`). */
export function* readTreesSteps(root: unknown, file?: string): Steps<TreesData> {
  const reader: TreeReader = new TreeReader(file);
  if (!isJsonObject(root)) reader.fail(`the download should be a JSON object but is ${kindOf(root)}`);
  const status = memberOf(root, "status");
  const trees = memberOf(root, "trees");
  if (trees === undefined) {
    const message = memberOf(root, "message");
    const reply =
      status !== undefined
        ? ` (the file holds an API reply: status ${String(status)}, ${String(message)})`
        : "";
    reader.fail(`no "trees" object${reply}`);
  }
  const fromMap = trees instanceof Map;
  const names: string[] = [];
  reader.each(trees, "trees", (name) => {
    names.push(name);
  });
  const missingTrees: string[] = [];
  function* sieve(name: string): Steps<SieveTree> {
    const node = memberOf(trees, name);
    if (node === undefined) {
      missingTrees.push(name);
      return EMPTY_SIEVE(name);
    }
    return yield* reader.sieve(name, node, fromMap);
  }
  const direct = (name: string): DirectTree => {
    const node = memberOf(trees, name);
    if (node === undefined) {
      missingTrees.push(name);
      return new Map();
    }
    return reader.direct(name, node);
  };
  const ua0 = yield* sieve("user-agent0");
  const ua1 = yield* sieve("user-agent1");
  const platform = yield* sieve("user-agentplatform");
  const browser = yield* sieve("user-agentbrowser");
  const profile0 = direct("profile0");
  yield;
  const opera0 = direct("x-operamini-phone0");
  return {
    notice: readNotice(memberOf(root, "_notice")),
    ua0,
    ua1,
    platform,
    browser,
    profile0,
    opera0,
    profile0Ids: [...profile0.values()],
    opera0Ids: [...opera0.values()],
    names,
    deviceIds: reader.deviceIds,
    extraIds: reader.extraIds,
    missingTrees,
    reorderedKeys: reader.reorderedKeys,
  };
}
