// Just enough of the WebAssembly binary format to assemble the scan module (i32 code, one imported memory).

/** A run of instruction bytes; nested arrays are flattened when a function is assembled. */
export type Code = readonly (number | Code)[];

function flatten(code: Code, out: number[]): number[] {
  for (const part of code) {
    if (typeof part === "number") out.push(part);
    else flatten(part, out);
  }
  return out;
}

function unsignedLeb(value: number): number[] {
  const out: number[] = [];
  let rest = value >>> 0;
  do {
    const low = rest & 0x7f;
    rest >>>= 7;
    out.push(rest === 0 ? low : low | 0x80);
  } while (rest !== 0);
  return out;
}

function signedLeb(value: number): number[] {
  const out: number[] = [];
  let rest = value | 0;
  for (;;) {
    const low = rest & 0x7f;
    rest >>= 7;
    const done = (rest === 0 && (low & 0x40) === 0) || (rest === -1 && (low & 0x40) !== 0);
    out.push(done ? low : low | 0x80);
    if (done) return out;
  }
}

const I32 = 0x7f;
/** Natural alignment of a 32-bit access (log2 of 4 bytes). */
const WORD_ALIGN = 2;

/** i32 instructions, as byte runs. Addresses are byte addresses; `offset` is added to them. */
export const op = {
  get: (local: number): Code => [0x20, ...unsignedLeb(local)],
  set: (local: number): Code => [0x21, ...unsignedLeb(local)],
  tee: (local: number): Code => [0x22, ...unsignedLeb(local)],
  const: (value: number): Code => [0x41, ...signedLeb(value)],
  load: (offset = 0): Code => [0x28, WORD_ALIGN, ...unsignedLeb(offset)],
  loadByte: (offset = 0): Code => [0x2d, 0, ...unsignedLeb(offset)],
  store: (offset = 0): Code => [0x36, WORD_ALIGN, ...unsignedLeb(offset)],
  add: [0x6a] as Code,
  sub: [0x6b] as Code,
  mul: [0x6c] as Code,
  and: [0x71] as Code,
  xor: [0x73] as Code,
  shl: [0x74] as Code,
  shrU: [0x76] as Code,
  eqz: [0x45] as Code,
  eq: [0x46] as Code,
  ne: [0x47] as Code,
  ltS: [0x48] as Code,
  ltU: [0x49] as Code,
  geS: [0x4e] as Code,
  select: [0x1b] as Code,
  /** `br depth`: to the end of an enclosing block, or the start of an enclosing loop. */
  br: (depth: number): Code => [0x0c, ...unsignedLeb(depth)],
  brIf: (depth: number): Code => [0x0d, ...unsignedLeb(depth)],
  call: (index: number): Code => [0x10, ...unsignedLeb(index)],
  block: (...body: Code[]): Code => [0x02, 0x40, ...body, 0x0b],
  loop: (...body: Code[]): Code => [0x03, 0x40, ...body, 0x0b],
  /** `if` (and `else` when given) on the value on the stack. */
  if: (then: Code, otherwise?: Code): Code =>
    otherwise === undefined ? [0x04, 0x40, then, 0x0b] : [0x04, 0x40, then, 0x05, otherwise, 0x0b],
};

/** A function of the module: i32 parameters, i32 locals after them, no result. */
export interface WasmFunction {
  /** Exported under this name, when given. */
  readonly name?: string;
  readonly params: number;
  readonly locals: number;
  readonly body: Code;
}

function section(id: number, body: number[]): number[] {
  return [id, ...unsignedLeb(body.length), ...body];
}

function name(text: string): number[] {
  return [...unsignedLeb(text.length), ...Array.from(text, (c) => c.charCodeAt(0))];
}

/**
 * The bytes of a module that imports its memory as `env.memory` (at least `pages` pages of 64 KiB)
 * and holds `functions`, numbered in the order given (the index `op.call` takes).
 */
export function assembleModule(pages: number, functions: readonly WasmFunction[]): Uint8Array {
  const types = functions.map((f) => [0x60, ...unsignedLeb(f.params), ...Array(f.params).fill(I32), 0]);
  const exported = functions.flatMap((f, index) =>
    f.name === undefined ? [] : [[...name(f.name), 0, ...unsignedLeb(index)]],
  );
  const bodies = functions.map((f) => {
    const body = [...(f.locals > 0 ? [1, ...unsignedLeb(f.locals), I32] : [0]), ...flatten(f.body, []), 0x0b];
    return [...unsignedLeb(body.length), ...body];
  });
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [...unsignedLeb(types.length), ...types.flat()]),
    ...section(2, [1, ...name("env"), ...name("memory"), 0x02, 0x00, ...unsignedLeb(pages)]),
    ...section(3, [...unsignedLeb(functions.length), ...functions.flatMap((_, index) => unsignedLeb(index))]),
    ...section(7, [...unsignedLeb(exported.length), ...exported.flat()]),
    ...section(10, [...unsignedLeb(bodies.length), ...bodies.flat()]),
  ]);
}

/** A WebAssembly memory, as far as this package uses one. */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}

/** The parts of the WebAssembly JavaScript API used here (Node's types leave it to the DOM library). */
interface WebAssemblyApi {
  Memory: new (descriptor: { initial: number; maximum?: number }) => WasmMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (
    module: object,
    imports: Record<string, Record<string, unknown>>,
  ) => { readonly exports: Record<string, unknown> };
}

/** Node's `WebAssembly` global: undefined under `--jitless`. */
export const webAssembly = (globalThis as unknown as { WebAssembly?: WebAssemblyApi }).WebAssembly;
