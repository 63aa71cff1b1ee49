// One detection per distinct header set across a report's worker threads: a table in shared memory
// where the first worker to meet a header set detects it and every other worker reads its device.

import type { LineDetector, ReportDevice } from "./detect-line.js";

/** The shared memory of the table, made by the main thread and handed to each worker. */
export interface SharedDetectionsMemory {
  /** The header (bytes used in the arena) and the slots, {@link SLOT_INTS} numbers each. */
  readonly slots: SharedArrayBuffer;
  /** The header sets' keys and their devices (JSON), UTF-8, one after another. */
  readonly arena: SharedArrayBuffer;
}

/** Numbers per slot: state, hash, key offset, key length, device offset, device length (and two spare, for alignment). */
const SLOT_INTS = 8;
/** Numbers before the first slot: the arena's bytes in use, at 0. */
const HEADER_INTS = SLOT_INTS;
const ARENA_USED = 0;

/** Slot states. A slot only ever moves forward through them. */
const EMPTY = 0;
/** Claimed: its owner is writing the key. */
const WRITING = 1;
/** Key written: its owner is detecting. */
const DETECTING = 2;
/** Device written. */
const READY = 3;
/** No device will come (the arena was full, or the detection threw): each worker detects for itself. */
const FAILED = 4;
/** No key (the arena was full when it was claimed): look-ups pass over it. */
const SKIPPED = 5;

/**
 * The table's default size: 65,536 slots (2 MB) and a 16 MB arena, room for about 40,000 header
 * sets (a key and a device take some 400 bytes). Past that, each worker detects what is new to it
 * on its own, as without the table. Memory the table does not use is never touched.
 */
const DEFAULT_SLOTS = 1 << 16;
const DEFAULT_ARENA_BYTES = 16 << 20;
/** Slots a look-up reads before it gives up on the table (it is then crowded). */
const MAX_PROBES = 64;
/** How long a worker waits for another's detection (a detection takes some 30 µs) before doing its own. */
const WAIT_MS = 1_000;
/** Longest key or device the table holds; longer ones are detected by each worker. */
const MAX_ITEM_BYTES = 16 * 1024;

/** The shared memory of a table of `slots` slots (a power of two) and `arenaBytes` bytes of keys and devices. */
export function createSharedDetectionsMemory(
  slots: number = DEFAULT_SLOTS,
  arenaBytes: number = DEFAULT_ARENA_BYTES,
): SharedDetectionsMemory {
  if (!Number.isInteger(Math.log2(slots))) throw new RangeError(`slots must be a power of two, got ${slots}`);
  return {
    slots: new SharedArrayBuffer((HEADER_INTS + slots * SLOT_INTS) * 4),
    arena: new SharedArrayBuffer(arenaBytes),
  };
}

/** A 32-bit FNV-1a hash of `length` bytes. */
function hashOf(bytes: Uint8Array, length: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < length; i++) hash = Math.imul(hash ^ (bytes[i] as number), 0x01000193);
  return hash | 0;
}

/**
 * The key of a header set: every name and value, in name order. NUL and SOH appear in no header,
 * so two different sets never share a key.
 */
function keyOf(headers: Readonly<Record<string, string>>): string {
  let key = "";
  for (const name of Object.keys(headers).sort()) key += `${name}\u0000${headers[name]}\u0001`;
  return key;
}

/**
 * A detector that shares its work through `memory` with the other workers' detectors: the first
 * to meet a header set detects it and writes the device; the others wait for it (a detection's
 * time at most, {@link WAIT_MS} if it goes wrong) and read it. When the table is full or crowded,
 * or a key or device is too long for it, the detector detects as `detect` alone would. Each
 * worker still keeps its own memo: this is asked once per worker and header set.
 */
export function shareDetections(detect: LineDetector, memory: SharedDetectionsMemory): LineDetector {
  const slots = new Int32Array(memory.slots);
  const arena = new Uint8Array(memory.arena);
  const mask = (slots.length - HEADER_INTS) / SLOT_INTS - 1;
  const encoder = new TextEncoder();
  const scratch = new Uint8Array(MAX_ITEM_BYTES);

  /** Room for `length` bytes in the arena: their offset, or -1 when it is full. */
  const allocate = (length: number): number => {
    // Read first: a full arena's counter must not climb on (and wrap round) with each refusal.
    if (Atomics.load(slots, ARENA_USED) + length > arena.length) return -1;
    const offset = Atomics.add(slots, ARENA_USED, length);
    return offset + length <= arena.length ? offset : -1;
  };
  const sameKey = (at: number, key: Uint8Array, length: number): boolean => {
    for (let i = 0; i < length; i++) if (arena[at + i] !== key[i]) return false;
    return true;
  };
  const readDevice = (base: number): ReportDevice => {
    const offset = slots[base + 4] as number;
    const text = Buffer.from(memory.arena, offset, slots[base + 5] as number).toString("utf8");
    return Object.freeze(JSON.parse(text) as ReportDevice);
  };
  /** Writes the device of a slot this detector owns, and wakes whoever waits for it. */
  const publish = (base: number, device: ReportDevice | undefined): void => {
    let state = FAILED;
    if (device !== undefined) {
      const json = JSON.stringify(device);
      const { read, written } = encoder.encodeInto(json, scratch);
      const offset = read === json.length && written < scratch.length ? allocate(written) : -1;
      if (offset >= 0) {
        arena.set(scratch.subarray(0, written), offset);
        slots[base + 4] = offset;
        slots[base + 5] = written;
        state = READY;
      }
    }
    Atomics.store(slots, base, state);
    Atomics.notify(slots, base);
  };
  /** Detects in the slot's owner's place, publishing the device (or the failure) for the others. */
  const detectFor = (base: number, headers: Readonly<Record<string, string>>): ReportDevice => {
    let device: ReportDevice | undefined;
    try {
      device = detect(headers);
      return device;
    } finally {
      publish(base, device);
    }
  };

  return (headers) => {
    const text = keyOf(headers);
    const { read, written: length } = encoder.encodeInto(text, scratch);
    if (read !== text.length || length === scratch.length) return detect(headers);
    const hash = hashOf(scratch, length);
    let slot = hash & mask;
    for (let probe = 0; probe < MAX_PROBES; ) {
      const base = HEADER_INTS + slot * SLOT_INTS;
      let state = Atomics.load(slots, base);
      if (state === EMPTY) {
        if (Atomics.compareExchange(slots, base, EMPTY, WRITING) !== EMPTY) continue;
        const offset = allocate(length);
        if (offset < 0) {
          Atomics.store(slots, base, SKIPPED);
          Atomics.notify(slots, base);
          return detect(headers);
        }
        arena.set(scratch.subarray(0, length), offset);
        slots[base + 1] = hash;
        slots[base + 2] = offset;
        slots[base + 3] = length;
        Atomics.store(slots, base, DETECTING);
        Atomics.notify(slots, base);
        return detectFor(base, headers);
      }
      if (state === WRITING) {
        Atomics.wait(slots, base, WRITING, WAIT_MS);
        if (Atomics.load(slots, base) === WRITING) return detect(headers);
        continue;
      }
      if (
        state === SKIPPED ||
        slots[base + 1] !== hash ||
        slots[base + 3] !== length ||
        !sameKey(slots[base + 2] as number, scratch, length)
      ) {
        slot = (slot + 1) & mask;
        probe++;
        continue;
      }
      if (state === DETECTING) {
        Atomics.wait(slots, base, DETECTING, WAIT_MS);
        state = Atomics.load(slots, base);
      }
      return state === READY ? readDevice(base) : detect(headers);
    }
    return detect(headers);
  };
}
