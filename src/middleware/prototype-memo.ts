// A value worked out once per prototype, for per-request code that depends only on a message's
// prototype (Express gives all requests of one app the same prototype).

/**
 * Remembers `compute(prototype)` per prototype: the last prototype is checked first (one app
 * serving in a row), then a WeakMap (several apps or mounted sub-apps).
 */
export class PrototypeMemo<T> {
  readonly #compute: (proto: object) => T;
  /** Answered for objects whose prototype is not an object (`null`). */
  readonly #fallback: T;
  #byPrototype = new WeakMap<object, T>();
  #lastPrototype: object | undefined;
  #lastValue: T;

  constructor(compute: (proto: object) => T, fallback: T) {
    this.#compute = compute;
    this.#fallback = fallback;
    this.#lastValue = fallback;
  }

  /** The value for `target`'s prototype. */
  of(target: object): T {
    const proto: unknown = Object.getPrototypeOf(target);
    if (proto === this.#lastPrototype) return this.#lastValue;
    if (typeof proto !== "object" || proto === null) return this.#fallback;
    let value = this.#byPrototype.get(proto);
    // `has` only for an `undefined`, which may be a remembered value as well as a miss.
    if (value === undefined && !this.#byPrototype.has(proto)) {
      value = this.#compute(proto);
      this.#byPrototype.set(proto, value);
    }
    this.#lastPrototype = proto;
    this.#lastValue = value as T;
    return value as T;
  }

  /** Drops every remembered value: prototypes are looked at again. */
  forget(): void {
    this.#byPrototype = new WeakMap();
    this.#lastPrototype = undefined;
  }
}
