// The scan loops and `finish` passes of both automatons as WebAssembly, for values copied in as bytes.

import { CLASS_MASK } from "./automaton-tables.js";
import {
  assembleModule,
  type Code,
  op,
  type WasmFunction,
  type WasmMemory,
  webAssembly,
} from "./wasm-assembler.js";

/** Where one automaton's tables and scratch space sit in the scan memory (byte addresses). */
export interface AutomatonPlace {
  /** The root's row. */
  readonly root: number;
  /** Where the automaton's column offset sits in a class entry: 0 (low 16 bits) or 16. */
  readonly classShift: number;
  /** Trees the automaton holds: `finish` writes one best rule (or -1) per tree. */
  readonly trees: number;
  /** Where `finish` writes those rules, one word per tree. */
  readonly best: number;
  /** The key ends a scan finds, both halves' in one list (`finish` reads them in any order). */
  readonly hits: number;
  /** The second half's state after each of its characters, {@link SYNC_STEP} bytes a character position. */
  readonly sync: number;
  /** Column offset of the class of deleted characters (they do not count towards the 4-byte minimum). */
  readonly deletedColumn: number;
}

/** Where the scan module finds everything (byte addresses in its memory). */
export interface ScanModuleLayout {
  /** Size of the memory, in 64 KiB pages. */
  readonly pages: number;
  /** The value's characters, one byte each (ASCII only). */
  readonly text: number;
  readonly device: AutomatonPlace;
  readonly extra: AutomatonPlace;
}

/** The module's functions. Stamps are the automatons' next scan stamps (see `SieveAutomaton`). */
export interface ScanModule {
  /** Reads text[start, end) with both automatons and leaves each tree's best rule (or -1) at `best`. */
  pair(start: number, end: number, deviceStamp: number, extraStamp: number): void;
  /** Reads text[start, end) with the device automaton. */
  device(start: number, end: number, stamp: number): void;
  /** Reads text[start, end) with the extra automaton. */
  extra(start: number, end: number, stamp: number): void;
}

/** Bytes between two sync states of a half: room for the device's and the extra automaton's. */
export const SYNC_STEP = 8;

const NONE = 0x7fffffff;

/**
 * Builds the scan module over `memory` laid out as `layout` says. Throws where WebAssembly is
 * unavailable: `ScanMemory` asks only once it has a WebAssembly memory.
 *
 * Why WebAssembly: a scan waits on one dependent table read per character. Reading the two halves
 * of a value in two independent chains lets the processor overlap them, but in JavaScript the
 * extra chains' checks cost more than the overlap buys (measured slower); here each chain is a
 * handful of instructions, and the two halves read a user-agent in ~27 % less time than the
 * JavaScript loop, copy included. The `finish` passes take about half their JavaScript time.
 */
export function instantiateScanModule(memory: WasmMemory, layout: ScanModuleLayout): ScanModule {
  const { device, extra } = layout;
  const functions: WasmFunction[] = [
    finishFunction(device), // 0
    finishFunction(extra), // 1
    scanFunction("pair", [device, extra], [0, 1], layout),
    scanFunction("device", [device], [0], layout),
    scanFunction("extra", [extra], [1], layout),
  ];
  if (webAssembly === undefined) throw new Error("WebAssembly is unavailable");
  const bytes = assembleModule(layout.pages, functions);
  const instance = new webAssembly.Instance(new webAssembly.Module(bytes), { env: { memory } });
  return instance.exports as unknown as ScanModule;
}

// Locals of a scan function: its four parameters (the pair's second stamp unused by the others),
// then the shared ones, then three per automaton.
const START = 0;
const END = 1;
const STAMPS = [2, 3];
const INDEX = 4;
const HALF = 5;
const MID = 6;
const TAIL = 7;
const ENTRY = 8;
const CLASS_A = 9;
const CLASS_B = 10;
const FIRST_CHAIN_LOCAL = 11;
const PARAMS = 4;
const LOCALS_PER_AUTOMATON = 3;

/**
 * Locals of one automaton in a scan function: the two halves' states and where the next key end
 * goes. Both halves write one list, since `finish` reads key ends in any order; with a list per
 * half, the pair loop kept one of its pointers on the stack.
 */
interface Chains {
  readonly stateA: number;
  readonly stateB: number;
  readonly hits: number;
}

/**
 * A scan of text[start, end) by some automatons, each in two chains: A reads the first half, B
 * the second from the root. B's state is then a suffix of the true one, so the keys it finds are
 * keys the true state also ends (found twice at worst, which `finish` skips); A goes on into the
 * second half until its state equals B's at the same character (a few characters: as deep as the
 * state at the midpoint), from where B's states are the true ones. Both chains write their key
 * ends to one list, which the automaton's `finish` then reads.
 */
function scanFunction(
  name: string,
  places: readonly AutomatonPlace[],
  finishes: readonly number[],
  layout: ScanModuleLayout,
): WasmFunction {
  const chains: Chains[] = places.map((_, k) => ({
    stateA: FIRST_CHAIN_LOCAL + LOCALS_PER_AUTOMATON * k,
    stateB: FIRST_CHAIN_LOCAL + LOCALS_PER_AUTOMATON * k + 1,
    hits: FIRST_CHAIN_LOCAL + LOCALS_PER_AUTOMATON * k + 2,
  }));
  const classAt = (position: Code, offset = 0): Code => [
    position,
    op.loadByte(layout.text + offset),
    op.const(2),
    op.shl,
    op.load(),
  ];
  /** The automaton's column offset out of the class entry in the local `entry`. */
  const column = (place: AutomatonPlace, entry: number): Code => [
    op.get(entry),
    place.classShift === 0 ? [op.const(CLASS_MASK), op.and] : [op.const(place.classShift), op.shrU],
  ];
  const step = (place: AutomatonPlace, state: number, classes: number, hits: number): Code => [
    op.get(state),
    column(place, classes),
    op.add,
    op.load(),
    op.tee(ENTRY),
    op.const(0),
    op.ltS,
    op.if(
      [op.get(ENTRY), op.const(-1), op.xor, op.set(state), ...append(hits, op.get(state))],
      [op.get(ENTRY), op.set(state)],
    ),
  ];
  /** B's state after its character `HALF` past `index + offset`, kept at that position for A to meet. */
  const keepB = (place: AutomatonPlace, chain: Chains, index: Code, offset = 0): Code => [
    index,
    op.const(3),
    op.shl,
    op.get(chain.stateB),
    op.store(place.sync + SYNC_STEP * offset),
  ];
  /** Every automaton's B chain over the class in `CLASS_B`, its state then kept as `keepB` says. */
  const stepsB = (index: Code, offset = 0): Code => [
    places.map((place, k) => step(place, chains[k]!.stateB, CLASS_B, chains[k]!.hits)),
    places.map((place, k) => keepB(place, chains[k]!, index, offset)),
  ];
  /** Both halves' characters `offset` past `INDEX` and `INDEX + HALF`, read by every automaton. */
  const pairStep = (offset: number): Code => [
    classAt(op.get(INDEX), offset),
    op.set(CLASS_A),
    classAt([op.get(INDEX), op.get(HALF), op.add], offset),
    op.set(CLASS_B),
    places.map((place, k) => step(place, chains[k]!.stateA, CLASS_A, chains[k]!.hits)),
    stepsB(op.get(INDEX), offset),
  ];
  const body: Code[] = [];
  places.forEach((place, k) => {
    const chain = chains[k] as Chains;
    body.push(
      [op.const(place.root), op.set(chain.stateA), op.const(place.root), op.set(chain.stateB)],
      [op.const(place.hits), op.set(chain.hits)],
      // The root's keys (the empty key) are in every value.
      [op.const(place.root), op.load(), op.const(0), op.geS, op.if(append(chain.hits, op.const(place.root)))],
    );
  });
  body.push(
    [op.get(END), op.get(START), op.sub, op.const(1), op.shrU, op.set(HALF)],
    [op.get(START), op.get(HALF), op.add, op.set(MID), op.get(START), op.set(INDEX)],
    // Two characters of each half a turn: the loop's own checks then run half as often.
    countUp(INDEX, [op.get(MID), op.const(1), op.sub], 2, pairStep(0), pairStep(1)),
    [op.get(INDEX), op.get(MID), op.ltU],
    op.if(pairStep(0)),
    // An odd length leaves B one more character.
    [op.get(END), op.get(START), op.sub, op.const(1), op.and],
    op.if([classAt([op.get(END), op.const(1), op.sub]), op.set(CLASS_B), stepsB(op.get(MID))]),
  );
  places.forEach((place, k) => {
    const chain = chains[k] as Chains;
    body.push(
      // A reads on until it meets B.
      [op.get(MID), op.set(TAIL)],
      countUp(
        TAIL,
        op.get(END),
        1,
        classAt(op.get(TAIL)),
        op.set(CLASS_A),
        step(place, chain.stateA, CLASS_A, chain.hits),
        [op.get(chain.stateA), op.get(TAIL), op.get(HALF), op.sub, op.const(3), op.shl, op.load(place.sync)],
        [op.eq, op.brIf(1)],
      ),
      [op.const(place.hits), op.get(chain.hits), op.get(STAMPS[k] as number), op.call(finishes[k] as number)],
      tooShort(place, column, classAt),
    );
  });
  return {
    name,
    params: PARAMS,
    locals: FIRST_CHAIN_LOCAL - PARAMS + LOCALS_PER_AUTOMATON * places.length,
    body,
  };
}

/**
 * The 4-byte minimum: a value with fewer than 4 characters that the normalisation keeps matches
 * nothing, so its best rules become -1 (one byte a character: the module reads ASCII only).
 */
function tooShort(
  place: AutomatonPlace,
  column: (place: AutomatonPlace, entry: number) => Code,
  classAt: (position: Code) => Code,
): Code {
  // Locals free by now: the tails have met.
  const at = TAIL;
  const kept = ENTRY;
  const classes = CLASS_A;
  return [
    [op.get(START), op.set(at), op.const(0), op.set(kept)],
    countUp(
      at,
      op.get(END),
      1,
      classAt(op.get(at)),
      op.set(classes),
      [column(place, classes), op.const(place.deletedColumn), op.ne],
      op.if([op.get(kept), op.const(1), op.add, op.tee(kept), op.const(4), op.geS, op.brIf(2)]),
    ),
    [op.get(kept), op.const(4), op.ltS],
    op.if(
      Array.from({ length: place.trees }, (_, t) => [op.const(place.best + 4 * t), op.const(-1), op.store()]),
    ),
  ];
}

/**
 * `while (counter < limit) { body; counter += step }`: a block around a loop, so in `body`,
 * `br(1)` from the loop's own level leaves it.
 */
function countUp(counter: number, limit: Code, step: number, ...body: Code[]): Code {
  return op.block(
    op.loop([op.get(counter), limit, op.geS, op.brIf(1)], ...body, [
      op.get(counter),
      op.const(step),
      op.add,
      op.set(counter),
      op.br(0),
    ]),
  );
}

/** Writes `value` where the local `at` points and moves `at` on a word. */
function append(at: number, value: Code): Code {
  return [op.get(at), value, op.store(), op.get(at), op.const(4), op.add, op.set(at)];
}

// Locals of a finish function: hits start, hits end, stamp, then its own.
const HITS_START = 0;
const HITS_END = 1;
const STAMP = 2;
const HIT = 3;
const AT = 4;
const READ = 5;
const STOP = 6;
const RULE = 7;
const SLOT = 8;

/**
 * An automaton's `finish` (see `SieveAutomaton`): over the rows where keys ended, each state's
 * keys once: stamp their filters; then each tree's earliest rule whose filter was stamped.
 */
function finishFunction(place: AutomatonPlace): WasmFunction {
  const best = Array.from({ length: place.trees }, (_, t) => place.best + 4 * t);
  const overHits = (...body: Code[]): Code => countUp(HIT, op.get(HITS_END), 4, ...body);
  const body: Code[] = [
    [op.get(HITS_START), op.set(HIT)],
    overHits(
      // The row's first word: where its keys' entry starts (`[stamp, filters..., rules...]`).
      [op.get(HIT), op.load(), op.load(), op.tee(AT), op.load(), op.get(STAMP), op.eq],
      op.if(
        [op.get(HIT), op.const(-1), op.store()],
        [
          [op.get(AT), op.get(STAMP), op.store()],
          [
            op.get(AT),
            op.const(8),
            op.add,
            op.tee(READ),
            op.get(AT),
            op.load(4),
            op.const(2),
            op.shl,
            op.add,
          ],
          op.set(STOP),
          countUp(READ, op.get(STOP), 4, [op.get(READ), op.load(), op.get(STAMP), op.store()]),
          // Keep where the rules start, or -1 when there are none.
          [op.get(HIT), op.const(-1), op.get(READ), op.get(READ), op.load(), op.eqz, op.select, op.store()],
        ],
      ),
    ),
    best.map((at) => [op.const(at), op.const(NONE), op.store()]),
    [op.get(HITS_START), op.set(HIT)],
    overHits(
      [op.get(HIT), op.load(), op.tee(READ), op.const(0), op.geS],
      op.if([
        [
          op.get(READ),
          op.const(4),
          op.add,
          op.get(READ),
          op.load(),
          op.const(12),
          op.mul,
          op.add,
          op.set(STOP),
        ],
        [op.get(READ), op.const(4), op.add, op.set(READ)],
        countUp(
          READ,
          op.get(STOP),
          12,
          // A rule: its filter's stamp, its tree, its number.
          [op.get(READ), op.load(), op.load(), op.get(STAMP), op.eq],
          op.if([
            [
              op.get(READ),
              op.load(8),
              op.set(RULE),
              op.get(READ),
              op.load(4),
              op.const(2),
              op.shl,
              op.set(SLOT),
            ],
            [op.get(RULE), op.get(SLOT), op.load(place.best), op.ltS],
            op.if([op.get(SLOT), op.get(RULE), op.store(place.best)]),
          ]),
        ),
      ]),
    ),
    best.map((at) => [
      [op.const(at), op.const(-1), op.const(at), op.load(), op.tee(RULE)],
      [op.get(RULE), op.const(NONE), op.eq, op.select, op.store()],
    ]),
  ];
  return { params: 3, locals: SLOT - STAMP, body };
}
