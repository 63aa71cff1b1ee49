// Just enough of the WebAssembly binary format to assemble the scan module (i32 code, one imported memory).

/** A run of instruction bytes; nested arrays are flattened when a function is assembled. */
export type Code = readonly (number | Code)[];

// The module is assembled on every load, mostly before the optimising compiler steps in: index
// loops and nested arrays here, no spreads of long arrays, which the interpreter runs element by
// element through the iterator protocol (with them, assembling took several times as long, a
// large part of a snapshot's load; bench:snapshot).

function flatten(code: Code, out: number[]): number[] {
  for (let i = 0; i < code.length; i++) {
    const part = code[i] as number | Code;
    if (typeof part === "number") out.push(part);
    else flatten(part, out);
  }
  return out;
}

/** Appends `bytes` to `out`. */
function append(out: number[], bytes: readonly number[]): void {
  for (let i = 0; i < bytes.length; i++) out.push(bytes[i] as number);
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
  get: (local: number): Code => [0x20, unsignedLeb(local)],
  set: (local: number): Code => [0x21, unsignedLeb(local)],
  tee: (local: number): Code => [0x22, unsignedLeb(local)],
  const: (value: number): Code => [0x41, signedLeb(value)],
  load: (offset = 0): Code => [0x28, WORD_ALIGN, unsignedLeb(offset)],
  loadByte: (offset = 0): Code => [0x2d, 0, unsignedLeb(offset)],
  store: (offset = 0): Code => [0x36, WORD_ALIGN, unsignedLeb(offset)],
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
  br: (depth: number): Code => [0x0c, unsignedLeb(depth)],
  brIf: (depth: number): Code => [0x0d, unsignedLeb(depth)],
  call: (index: number): Code => [0x10, unsignedLeb(index)],
  block: (...body: Code[]): Code => [0x02, 0x40, body, 0x0b],
  loop: (...body: Code[]): Code => [0x03, 0x40, body, 0x0b],
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

/** Appends a section: its id, its size, its body. */
function section(out: number[], id: number, body: readonly number[]): void {
  out.push(id);
  append(out, unsignedLeb(body.length));
  append(out, body);
}

/** Appends a name: its length, its characters (ASCII). */
function name(out: number[], text: string): void {
  append(out, unsignedLeb(text.length));
  for (let i = 0; i < text.length; i++) out.push(text.charCodeAt(i));
}

/**
 * The bytes of a module that imports its memory as `env.memory` (at least `pages` pages of 64 KiB)
 * and holds `functions`, numbered in the order given (the index `op.call` takes).
 */
export function assembleModule(pages: number, functions: readonly WasmFunction[]): Uint8Array {
  const out: number[] = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  const types: number[] = unsignedLeb(functions.length);
  for (const f of functions) {
    types.push(0x60);
    append(types, unsignedLeb(f.params));
    for (let p = 0; p < f.params; p++) types.push(I32);
    types.push(0);
  }
  section(out, 1, types);
  const imports: number[] = [1];
  name(imports, "env");
  name(imports, "memory");
  imports.push(0x02, 0x00);
  append(imports, unsignedLeb(pages));
  section(out, 2, imports);
  const declared: number[] = unsignedLeb(functions.length);
  for (let index = 0; index < functions.length; index++) append(declared, unsignedLeb(index));
  section(out, 3, declared);
  const exported: number[] = [];
  let exports = 0;
  functions.forEach((f, index) => {
    if (f.name === undefined) return;
    exports++;
    name(exported, f.name);
    exported.push(0);
    append(exported, unsignedLeb(index));
  });
  section(out, 7, [...unsignedLeb(exports), ...exported]);
  const code: number[] = unsignedLeb(functions.length);
  for (const f of functions) {
    const body: number[] = f.locals > 0 ? [1, ...unsignedLeb(f.locals), I32] : [0];
    flatten(f.body, body);
    body.push(0x0b);
    append(code, unsignedLeb(body.length));
    append(code, body);
  }
  section(out, 10, code);
  return Uint8Array.from(out);
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
