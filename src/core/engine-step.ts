// The local engine as a stage runs it: a miss's headers in, its reply completed by the rules into a device part.

import { LocalEngine } from "../engine/local-engine.js";
import type { Detector } from "../types.js";
import { catalogOf, completeReply, devicePart } from "./completion.js";
import type { DevicePart } from "./device.js";
import type { EngineHandle } from "./dir-engine.js";
import type { MetricsRecorder } from "./metrics.js";
import type { Miss } from "./miss.js";

/** Runs the local engine (loaded, or loading from a cache directory) for the stages and the fallback. */
export class EngineStep {
  readonly #engine: EngineHandle;
  readonly #metrics: MetricsRecorder;

  constructor(engine: EngineHandle, metrics: MetricsRecorder) {
    this.#engine = engine;
    this.#metrics = metrics;
  }

  /** The engine once loaded, else `undefined`. */
  get loaded(): Detector | undefined {
    return this.#engine.current();
  }

  /**
   * Whether the loaded engine is known to answer at once: the package's `LocalEngine` does. Any
   * other detector may answer with a promise, and is only ever waited for.
   */
  get answersAtOnce(): boolean {
    return this.#engine.current() instanceof LocalEngine;
  }

  /** Resolves with the engine once loaded; rejects with the load error. */
  ready(): Promise<Detector> {
    return this.#engine.ready();
  }

  /** `engine`'s answer to a miss, completed; rejects when it fails or answers something that is not a reply. */
  async detect(miss: Miss, engine: Detector): Promise<DevicePart> {
    this.#metrics.localDetections++;
    return this.#complete(miss, engine, await engine.detect(miss.input.headers));
  }

  /**
   * The loaded engine's answer now, for a fallback that cannot wait: `undefined` when the engine
   * is not loaded, answers asynchronously, or fails.
   */
  now(miss: Miss): DevicePart | undefined {
    const engine = this.#engine.current();
    if (engine === undefined) return undefined;
    try {
      const raw = engine.detect(miss.input.headers);
      if (raw instanceof Promise) {
        raw.catch(() => {});
        return undefined;
      }
      this.#metrics.localDetections++;
      return this.#complete(miss, engine, raw);
    } catch {
      return undefined;
    }
  }

  #complete(miss: Miss, engine: Detector, raw: unknown): DevicePart {
    const { evidence, input } = miss;
    return devicePart(completeReply(raw, evidence, input, catalogOf(engine), engine), evidence.userAgent);
  }
}
