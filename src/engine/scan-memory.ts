// Both automatons' tables in one WebAssembly memory, addressed in bytes, with the scan module over them.

import { HdDataError } from "../errors.js";
import {
  type AutomatonTables,
  CLASS_BITS,
  CLASS_ENTRIES,
  CLASS_MASK,
  DELETED_CLASS,
} from "./automaton-tables.js";
import { type AutomatonPlace, instantiateScanModule, type ScanModule, SYNC_STEP } from "./scan-module.js";
import { type WasmMemory, webAssembly } from "./wasm-assembler.js";

/** Longest value (UTF-16 code units) the scan module reads; longer ones are scanned in JavaScript. */
export const MODULE_TEXT_ROOM = 16_384;

const PAGE_BYTES = 65_536;

/** Largest memory whose byte addresses are positive 32-bit numbers. */
const MAX_MEMORY_BYTES = 0x7fffffff;

/** An automaton in the scan memory: where the module finds it, and what a JavaScript scan needs besides. */
export interface AutomatonInMemory extends AutomatonPlace {
  /** Bytes per row. */
  readonly stride: number;
  readonly states: number;
  /** Where the filter stamps start, one word per filter instance. */
  readonly stamps: number;
  readonly filters: number;
  /** Where the hit data starts and ends. */
  readonly hitData: number;
  readonly hitDataEnd: number;
}

/**
 * How much room an automaton's tables take, without the tables: what lays out a scan memory
 * (see `AutomatonTables`, whose fields these are, `hitDataLength` for `hitData.length`).
 */
interface TablesShape {
  readonly rowsAt: number;
  readonly stride: number;
  readonly states: number;
  readonly deletedClass: number;
  readonly hitDataLength: number;
  readonly filters: number;
}

/** The shapes of both automatons' tables and the trees each holds: all a scan memory's layout follows from. */
export interface ScanMemoryShape {
  readonly device: TablesShape;
  readonly extra: TablesShape;
  readonly deviceTrees: number;
  readonly extraTrees: number;
}

/** The shape of built tables. */
function tablesShape(tables: AutomatonTables): TablesShape {
  const { rowsAt, stride, states, deletedClass, filters } = tables;
  return { rowsAt, stride, states, deletedClass, hitDataLength: tables.hitData.length, filters };
}

/**
 * Why tables of this shape could not have been built to share one memory (see
 * {@link ScanMemory}), or undefined: the extra rows right after the class entries, the device
 * rows right after them, rows of whole cache lines, the deleted class where the builder puts it.
 */
export function shapeProblem(shape: ScanMemoryShape): string | undefined {
  const { device, extra, deviceTrees, extraTrees } = shape;
  const count = (n: number) => Number.isSafeInteger(n) && n >= 0 && n <= MAX_MEMORY_BYTES;
  for (const [name, tables] of [
    ["device", device],
    ["extra", extra],
  ] as const) {
    const fields = [tables.rowsAt, tables.stride, tables.states, tables.hitDataLength, tables.filters];
    if (!fields.every(count)) return `the ${name} tables' sizes are not counts`;
    if (tables.stride < 16 || tables.stride % 16 !== 0) return `the ${name} rows are not whole cache lines`;
    if (tables.states < 1) return `the ${name} automaton has no root`;
    if (tables.deletedClass !== DELETED_CLASS)
      return `the ${name} tables' deleted class is not ${DELETED_CLASS}`;
  }
  if (extra.rowsAt !== CLASS_ENTRIES || device.rowsAt !== extra.rowsAt + extra.states * extra.stride) {
    return "the tables were not built to share one memory";
  }
  if (!(deviceTrees >= 1 && deviceTrees <= 16 && extraTrees >= 1 && extraTrees <= 16)) {
    return "the tree counts are out of range";
  }
  return undefined;
}

/** Where everything lies in a scan memory of some shape, in bytes (see {@link ScanMemory}). */
interface Layout {
  readonly deviceHitData: number;
  readonly extraHitData: number;
  readonly deviceStamps: number;
  readonly extraStamps: number;
  readonly best: number;
  readonly text: number;
  readonly sync: number;
  readonly deviceHits: number;
  readonly extraHits: number;
  readonly pages: number;
}

/** @throws {HdDataError} when tables of this shape do not fit 32-bit byte addresses or 16-bit column offsets. */
function layoutOf(shape: ScanMemoryShape): Layout {
  const { device, extra } = shape;
  // A column offset (class x 4) must fit its half of a class entry.
  const widest = Math.max(device.stride, extra.stride);
  if (4 * widest > 1 << CLASS_BITS) {
    throw new HdDataError(`trees too large to compile: ${widest} character classes`);
  }
  const rowsEnd = 4 * (device.rowsAt + device.states * device.stride);
  const deviceHitData = rowsEnd;
  const extraHitData = deviceHitData + 4 * device.hitDataLength;
  const deviceStamps = extraHitData + 4 * extra.hitDataLength;
  const extraStamps = deviceStamps + 4 * device.filters;
  const best = extraStamps + 4 * extra.filters;
  const text = best + 4 * (shape.deviceTrees + shape.extraTrees);
  const sync = align(text + MODULE_TEXT_ROOM);
  // Key ends: one at each character a chain reads at most (the first half's chain reads on
  // into the second half), plus the root's.
  const hitsRoom = 4 * (2 * MODULE_TEXT_ROOM + 1);
  const deviceHits = sync + SYNC_STEP * (MODULE_TEXT_ROOM + 1);
  const extraHits = deviceHits + hitsRoom;
  const end = extraHits + hitsRoom;
  // Addresses are compared as signed 32-bit numbers.
  if (end > MAX_MEMORY_BYTES) throw new HdDataError(`trees too large to compile: ${end} bytes of tables`);
  const pages = Math.ceil(end / PAGE_BYTES);
  return {
    deviceHitData,
    extraHitData,
    deviceStamps,
    extraStamps,
    best,
    text,
    sync,
    deviceHits,
    extraHits,
    pages,
  };
}

/**
 * One memory for both automatons, which the scan module and the JavaScript scans read alike
 * (`words` is a view of it). From address 0, in bytes:
 *
 * - a class entry per UTF-16 code unit: the device automaton's column offset (class x 4) in the
 *   low 16 bits, the extra automaton's in the high 16;
 * - the extra rows, then the device rows. A row's first word says where its keys' entry starts
 *   in the hit data (-1: no key ends there); the others lead to the next state's row: its
 *   address, or `-address - 1` when keys end in that state;
 * - each automaton's hit data (see `AutomatonTables.hitData`), its filters given as the
 *   addresses of their stamps; then the filter stamps;
 * - scratch space: the best rules, the value's bytes, the halves' sync states, the key ends.
 *
 * The rows and hit data ({@link tablesStart} to {@link tablesEnd}) and the class entries are
 * all a snapshot keeps: everything else follows from the {@link shape}.
 */
export class ScanMemory {
  readonly words: Int32Array;
  /** The scan module, or undefined where WebAssembly is unavailable or was not asked for. */
  readonly module: ScanModule | undefined;
  readonly device: AutomatonInMemory;
  readonly extra: AutomatonInMemory;
  readonly shape: ScanMemoryShape;
  /** Where the rows start, in bytes: right after the class entries. */
  readonly tablesStart: number;
  /** Where the hit data ends and the filter stamps start, in bytes. */
  readonly tablesEnd: number;
  private readonly text: Uint8Array;
  private readonly encoder = new TextEncoder();

  /**
   * Lays out the tables `automatonTablesSteps` built (extra with `rowsAt` {@link CLASS_ENTRIES},
   * device after it). With `useModule` false, or where WebAssembly is unavailable (`--jitless`)
   * or refuses the memory, the tables go into an ordinary buffer and every scan runs in JavaScript.
   *
   * @throws {HdDataError} when the tables do not fit 32-bit byte addresses or 16-bit column offsets.
   */
  static fromTables(
    device: AutomatonTables,
    extra: AutomatonTables,
    deviceTrees: number,
    extraTrees: number,
    useModule = true,
  ): ScanMemory {
    const shape = { device: tablesShape(device), extra: tablesShape(extra), deviceTrees, extraTrees };
    const memory = new ScanMemory(shape, useModule);
    const words = memory.words;
    for (let code = 0; code < CLASS_ENTRIES; code++) {
      words[code] =
        ((device.classOf[code] as number) << 2) | ((extra.classOf[code] as number) << (CLASS_BITS + 2));
    }
    const { deviceHitData, extraHitData, deviceStamps, extraStamps } = layoutOf(shape);
    copyRows(words, extra, extraHitData);
    copyRows(words, device, deviceHitData);
    copyHitData(words, device.hitData, deviceHitData, deviceStamps);
    copyHitData(words, extra.hitData, extraHitData, extraStamps);
    return memory;
  }

  /**
   * An empty memory laid out for tables of `shape`, its scan module ready: the class entries and
   * the tables are for the caller to write (see {@link fromTables}, and the snapshot reader, which
   * reads them from its file straight into {@link words}).
   *
   * @throws {RangeError} when tables of that shape could not have been built (see {@link shapeProblem}).
   * @throws {HdDataError} when they do not fit 32-bit byte addresses or 16-bit column offsets.
   */
  constructor(shape: ScanMemoryShape, useModule = true) {
    const problem = shapeProblem(shape);
    if (problem !== undefined) throw new RangeError(`ScanMemory: ${problem}`);
    this.shape = shape;
    const { device, extra } = shape;
    const layout = layoutOf(shape);
    const { pages, text, sync, best } = layout;
    const memory = useModule ? wasmMemory(pages) : undefined;
    const buffer = memory?.buffer ?? new ArrayBuffer(pages * PAGE_BYTES);
    this.words = new Int32Array(buffer);
    this.text = new Uint8Array(buffer, text, MODULE_TEXT_ROOM);
    this.tablesStart = 4 * CLASS_ENTRIES;
    this.tablesEnd = layout.deviceStamps;

    const place = (
      tables: TablesShape,
      classShift: number,
      trees: number,
      bestAt: number,
      hits: number,
      stamps: number,
      hitData: number,
    ): AutomatonInMemory => ({
      root: 4 * tables.rowsAt,
      classShift,
      trees,
      best: bestAt,
      hits,
      sync: sync + (classShift === 0 ? 0 : 4),
      stride: 4 * tables.stride,
      states: tables.states,
      deletedColumn: 4 * tables.deletedClass,
      stamps,
      filters: tables.filters,
      hitData,
      hitDataEnd: hitData + 4 * tables.hitDataLength,
    });
    this.device = place(
      device,
      0,
      shape.deviceTrees,
      best,
      layout.deviceHits,
      layout.deviceStamps,
      layout.deviceHitData,
    );
    this.extra = place(
      extra,
      CLASS_BITS,
      shape.extraTrees,
      best + 4 * shape.deviceTrees,
      layout.extraHits,
      layout.extraStamps,
      layout.extraHitData,
    );
    this.module =
      memory === undefined
        ? undefined
        : instantiateScanModule(memory, { pages, text, device: this.device, extra: this.extra });
  }

  /**
   * Copies a value to where the scan module reads it and returns the module, or undefined when
   * the module cannot read it: it reads ASCII only (one byte a character) and at most
   * {@link MODULE_TEXT_ROOM} characters.
   */
  moduleFor(raw: string): ScanModule | undefined {
    if (this.module === undefined || raw.length > MODULE_TEXT_ROOM) return undefined;
    const copied = this.encoder.encodeInto(raw, this.text);
    return copied.read === raw.length && copied.written === raw.length ? this.module : undefined;
  }

  /**
   * The rows and hit data as they were built: a copy, with every stamp a scan has left in the
   * hit data set back to 0 (a memory that has scanned holds its own stamps there).
   */
  tablesImage(): Int32Array {
    const base = this.tablesStart >> 2;
    const image = this.words.slice(base, this.tablesEnd >> 2);
    for (const place of [this.device, this.extra]) {
      const rowsEnd = place.root + place.states * place.stride;
      for (let row = place.root; row < rowsEnd; row += place.stride) {
        const at = this.words[row >> 2] as number;
        if (at >= 0) image[(at >> 2) - base] = 0;
      }
    }
    return image;
  }

  /**
   * Why these tables could lead a scan out of them, or undefined: the check a memory whose tables
   * came from a file passes before any scan reads it. Every class entry must give each
   * automaton a column of its rows; every transition lead to a row of the same automaton; every
   * hit column be -1 or the place of an entry of the automaton's hit data, whose filters are its
   * stamps and whose rules are (filter, tree, rule) with the tree one of its own and the rule
   * below `rules[automaton][tree]`. A scan of tables that pass stays inside them.
   */
  tablesProblem(rules: {
    readonly device: readonly number[];
    readonly extra: readonly number[];
  }): string | undefined {
    const words = this.words;
    const { device, extra } = this;
    for (let code = 0; code < CLASS_ENTRIES; code++) {
      const entry = words[code] as number;
      const low = entry & CLASS_MASK;
      const high = entry >>> CLASS_BITS;
      if (
        (low & 3) !== 0 ||
        low === 0 ||
        low >= device.stride ||
        (high & 3) !== 0 ||
        high === 0 ||
        high >= extra.stride
      ) {
        return `the class entry of character ${code} leads out of the rows`;
      }
    }
    return (
      automatonProblem(words, device, rules.device, "device") ??
      automatonProblem(words, extra, rules.extra, "extra")
    );
  }
}

/** {@link ScanMemory.tablesProblem} for one automaton. */
function automatonProblem(
  words: Int32Array,
  place: AutomatonInMemory,
  rules: readonly number[],
  name: string,
): string | undefined {
  const { root, stride, states, stamps } = place;
  if (rules.length !== place.trees)
    return `the ${name} automaton holds ${place.trees} trees, not ${rules.length}`;
  const rowsEnd = root + states * stride;
  const stampsEnd = stamps + 4 * place.filters;
  const isStamp = (address: number) => address >= stamps && address < stampsEnd && (address & 3) === 0;
  const dataEnd = place.hitDataEnd >> 2;
  for (let row = root; row < rowsEnd; row += stride) {
    const first = row >> 2;
    const last = first + (stride >> 2);
    for (let column = first + 1; column < last; column++) {
      const entry = words[column] as number;
      // `-address - 1` is the address with every bit flipped. A row is a whole number of rows
      // past the root: the division is exact for each, as addresses are below 2^31.
      const state = ((entry ^ (entry >> 31)) - root) / stride;
      if (!(state >= 0 && state < states && state === Math.floor(state))) {
        return `a transition of the ${name} automaton leads out of its rows`;
      }
    }
    const hit = words[first] as number;
    if (hit === -1) continue;
    if (hit < place.hitData || hit >= place.hitDataEnd || (hit & 3) !== 0) {
      return `a state of the ${name} automaton names keys outside its hit data`;
    }
    let at = hit >> 2;
    if (words[at] !== 0 || at + 2 > dataEnd) return `a key entry of the ${name} automaton is not as built`;
    const filters = words[at + 1] as number;
    at += 2;
    if (filters < 0 || at + filters >= dataEnd)
      return `a key entry of the ${name} automaton overruns its hit data`;
    for (const stop = at + filters; at < stop; at++) {
      if (!isStamp(words[at] as number))
        return `a key entry of the ${name} automaton names a filter it lacks`;
    }
    const count = words[at++] as number;
    if (count < 0 || at + 3 * count > dataEnd)
      return `a key entry of the ${name} automaton overruns its hit data`;
    for (const stop = at + 3 * count; at < stop; at += 3) {
      const tree = words[at + 1] as number;
      const rule = words[at + 2] as number;
      if (!isStamp(words[at] as number) || !(tree >= 0 && tree < rules.length)) {
        return `a key entry of the ${name} automaton names a filter or tree it lacks`;
      }
      if (!(rule >= 0 && rule < (rules[tree] as number))) {
        return `a key entry of the ${name} automaton names a rule its tree lacks`;
      }
    }
  }
  return undefined;
}

/** A memory of `pages` pages, or undefined where WebAssembly is unavailable or cannot reserve one. */
function wasmMemory(pages: number): WasmMemory | undefined {
  if (webAssembly === undefined) return undefined;
  try {
    return new webAssembly.Memory({ initial: pages, maximum: pages });
  } catch {
    return undefined;
  }
}

function align(address: number): number {
  return (address + 63) & ~63;
}

/** Copies an automaton's rows, entries turned from word offsets into byte addresses. */
function copyRows(words: Int32Array, tables: AutomatonTables, hitData: number): void {
  const { delta, rowsAt, stride } = tables;
  const end = rowsAt + tables.states * stride;
  for (let row = rowsAt; row < end; row += stride) {
    const keys = delta[row] as number; // the hit column
    words[row] = keys < 0 ? -1 : hitData + 4 * keys;
    for (let column = row + 1; column < row + stride; column++) {
      const entry = delta[column] as number;
      // `-offset - 1` becomes `-4 * offset - 1`, that is 4 * entry + 3.
      words[column] = entry >= 0 ? 4 * entry : 4 * entry + 3;
    }
  }
}

/** Copies hit data, each filter instance turned into the address of its stamp. */
function copyHitData(words: Int32Array, hitData: Int32Array, at: number, stamps: number): void {
  const base = at >> 2;
  words.set(hitData, base);
  for (let read = 0; read < hitData.length; ) {
    read++; // the stamp
    const filters = hitData[read++] as number;
    for (let f = 0; f < filters; f++, read++) words[base + read] = stamps + 4 * (hitData[read] as number);
    const rules = hitData[read++] as number;
    for (let r = 0; r < rules; r++, read += 3) words[base + read] = stamps + 4 * (hitData[read] as number);
  }
}
