// Both automatons' tables in one WebAssembly memory, addressed in bytes, with the scan module over them.

import { HdDataError } from "../errors.js";
import { type AutomatonTables, CLASS_BITS, CLASS_ENTRIES } from "./automaton-tables.js";
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
 */
export class ScanMemory {
  readonly words: Int32Array;
  /** The scan module, or undefined where WebAssembly is unavailable or was not asked for. */
  readonly module: ScanModule | undefined;
  readonly device: AutomatonInMemory;
  readonly extra: AutomatonInMemory;
  private readonly text: Uint8Array;
  private readonly encoder = new TextEncoder();

  /**
   * Lays out the tables `automatonTablesSteps` built (extra with `rowsAt` {@link CLASS_ENTRIES},
   * device after it). With `useModule` false, or where WebAssembly is unavailable (`--jitless`)
   * or refuses the memory, the tables go into an ordinary buffer and every scan runs in JavaScript.
   *
   * @throws {HdDataError} when the tables do not fit 32-bit byte addresses or 16-bit column offsets.
   */
  constructor(
    device: AutomatonTables,
    extra: AutomatonTables,
    deviceTrees: number,
    extraTrees: number,
    useModule = true,
  ) {
    if (extra.rowsAt !== CLASS_ENTRIES || device.rowsAt !== extra.delta.length) {
      throw new RangeError("ScanMemory: the tables were not built to share one memory");
    }
    // A column offset (class x 4) must fit its half of a class entry.
    const widest = Math.max(device.stride, extra.stride);
    if (4 * widest > 1 << CLASS_BITS) {
      throw new HdDataError(`trees too large to compile: ${widest} character classes`);
    }
    const rowsEnd = 4 * device.delta.length;
    const deviceHitData = rowsEnd;
    const extraHitData = deviceHitData + 4 * device.hitData.length;
    const deviceStamps = extraHitData + 4 * extra.hitData.length;
    const extraStamps = deviceStamps + 4 * device.filters;
    const best = extraStamps + 4 * extra.filters;
    const text = best + 4 * (deviceTrees + extraTrees);
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
    const memory = useModule ? wasmMemory(pages) : undefined;
    const buffer = memory?.buffer ?? new ArrayBuffer(pages * PAGE_BYTES);
    this.words = new Int32Array(buffer);
    this.text = new Uint8Array(buffer, text, MODULE_TEXT_ROOM);

    const place = (
      tables: AutomatonTables,
      classShift: number,
      trees: number,
      bestAt: number,
      hits: number,
      stamps: number,
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
    });
    this.device = place(device, 0, deviceTrees, best, deviceHits, deviceStamps);
    this.extra = place(extra, CLASS_BITS, extraTrees, best + 4 * deviceTrees, extraHits, extraStamps);

    const words = this.words;
    for (let code = 0; code < CLASS_ENTRIES; code++) {
      words[code] =
        ((device.classOf[code] as number) << 2) | ((extra.classOf[code] as number) << (CLASS_BITS + 2));
    }
    copyRows(words, extra, extraHitData);
    copyRows(words, device, deviceHitData);
    copyHitData(words, device.hitData, deviceHitData, deviceStamps);
    copyHitData(words, extra.hitData, extraHitData, extraStamps);
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
