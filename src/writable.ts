// A type with its readonly marks removed, for an object filled field by field before it is handed out.

/** `T` with every property writable: build one object of one shape, then return it as `T`. */
export type Writable<T> = { -readonly [K in keyof T]: T[K] };
