// The fast matcher: two automatons (device trees, extra trees), each read once per header value.

import { automatonTablesSteps, CLASS_ENTRIES } from "./automaton-tables.js";
import { DirectIndex } from "./direct-index.js";
import type { SieveMatcher } from "./naive-sieve.js";
import { ScanMemory } from "./scan-memory.js";
import { SieveAutomaton } from "./sieve-automaton.js";
import { runToEnd, type Steps } from "./slices.js";
import type { TreesData } from "./tree-data.js";

/** How a {@link CompiledSieve} reads values. */
export interface CompiledSieveOptions {
  /**
   * Read ASCII values of usual length with the WebAssembly scan module (default true). Without
   * it, or where WebAssembly is unavailable, every value is read in JavaScript (slower, same answers).
   */
  readonly scanModule?: boolean;
}

/** Builds a {@link CompiledSieve} as steps, pausing while the automatons are compiled (see `runInSlices`). */
export function* compiledSieveSteps(
  trees: TreesData,
  options: CompiledSieveOptions = {},
): Steps<CompiledSieve> {
  return new CompiledSieve(trees, options, yield* partsSteps(trees, options));
}

/**
 * A {@link CompiledSieve} over tables already in a scan memory (a snapshot's), built from
 * `trees`: nothing is compiled, and the direct trees' hash tables are made on first use.
 */
export function compiledSieveOver(trees: TreesData, memory: ScanMemory): CompiledSieve {
  const device = new SieveAutomaton([trees.ua0, trees.ua1], "device", memory);
  const extra = new SieveAutomaton([trees.platform, trees.browser], "extra", memory);
  return new CompiledSieve(trees, {}, { memory, device, extra, opera0: undefined, profile0: undefined });
}

/** What a {@link CompiledSieve} is made of besides its trees. */
interface CompiledSieveParts {
  memory: ScanMemory;
  device: SieveAutomaton;
  extra: SieveAutomaton;
  /** The direct trees' indexes; made from the trees on first use when undefined. */
  opera0: DirectIndex | undefined;
  profile0: DirectIndex | undefined;
}

function* partsSteps(trees: TreesData, options: CompiledSieveOptions): Steps<CompiledSieveParts> {
  // The extra tables first: the device rows go after theirs, in one memory (see `ScanMemory`).
  const extraTrees = [trees.platform, trees.browser];
  const extraTables = yield* automatonTablesSteps(extraTrees, "extra", CLASS_ENTRIES);
  yield;
  const deviceTrees = [trees.ua0, trees.ua1];
  const deviceTables = yield* automatonTablesSteps(deviceTrees, "device", extraTables.delta.length);
  yield;
  const memory = ScanMemory.fromTables(
    deviceTables,
    extraTables,
    deviceTrees.length,
    extraTrees.length,
    options.scanModule ?? true,
  );
  yield;
  return yield* partsOverSteps(trees, memory);
}

function* partsOverSteps(trees: TreesData, memory: ScanMemory): Steps<CompiledSieveParts> {
  const device = new SieveAutomaton([trees.ua0, trees.ua1], "device", memory);
  const extra = new SieveAutomaton([trees.platform, trees.browser], "extra", memory);
  yield;
  const opera0 = new DirectIndex(trees.opera0);
  yield;
  const profile0 = new DirectIndex(trees.profile0);
  yield;
  return { memory, device, extra, opera0, profile0 };
}

/**
 * Answers like {@link NaiveSieve}, from two automatons built once at load: one over
 * `user-agent0` + `user-agent1` (device normalisation), one over `user-agentplatform` +
 * `user-agentbrowser` (extra normalisation). A device lookup reads the value with both automatons
 * in one loop (the extras of that header are usually wanted next). Answers are kept until
 * `reset()` (the start of the next detection), never across detections.
 */
export class CompiledSieve implements SieveMatcher {
  readonly kind = "compiled";
  /** Automaton over the device sieve trees. */
  readonly deviceAutomaton: SieveAutomaton;
  /** Automaton over the extra sieve trees. */
  readonly extraAutomaton: SieveAutomaton;
  /** Both automatons' tables (what a snapshot keeps of them). */
  readonly memory: ScanMemory;

  private readonly trees: TreesData;
  private opera0: DirectIndex | undefined;
  private profile0: DirectIndex | undefined;

  /** `parts` are built from `trees`: here in one go, unless {@link compiledSieveSteps} built them in steps. */
  constructor(
    trees: TreesData,
    options: CompiledSieveOptions = {},
    parts = runToEnd(partsSteps(trees, options)),
  ) {
    this.trees = trees;
    this.memory = parts.memory;
    this.deviceAutomaton = parts.device;
    this.extraAutomaton = parts.extra;
    this.opera0 = parts.opera0;
    this.profile0 = parts.profile0;
  }

  operaMini(raw: string): number {
    this.opera0 ??= new DirectIndex(this.trees.opera0);
    return this.opera0.find(raw);
  }

  profile(raw: string): number {
    this.profile0 ??= new DirectIndex(this.trees.profile0);
    return this.profile0.find(raw);
  }

  reset(): void {
    this.deviceAutomaton.forget();
    this.extraAutomaton.forget();
  }

  /** Reads the value with both automatons at once: its extras are usually wanted next. */
  device(raw: string): number {
    SieveAutomaton.scanPair(this.deviceAutomaton, this.extraAutomaton, raw);
    return this.deviceAutomaton.best[0]!;
  }

  generic(raw: string): number {
    this.deviceAutomaton.scan(raw);
    return this.deviceAutomaton.best[1]!;
  }

  platform(raw: string): number {
    this.extraAutomaton.scan(raw);
    return this.extraAutomaton.best[0]!;
  }

  browser(raw: string): number {
    this.extraAutomaton.scan(raw);
    return this.extraAutomaton.best[1]!;
  }
}
