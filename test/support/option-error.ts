// Catches the HdOptionError a factory must throw, for tests of option validation.

import { expect } from "vitest";
import { HdOptionError } from "../../src/errors.js";

/** The `HdOptionError` (code `ERR_HD_INVALID_OPTION`) that `make` throws; fails the test when it throws anything else or nothing. */
export function optionError(make: () => unknown): HdOptionError {
  try {
    make();
  } catch (error) {
    expect(error).toBeInstanceOf(HdOptionError);
    expect((error as HdOptionError).code).toBe("ERR_HD_INVALID_OPTION");
    return error as HdOptionError;
  }
  throw new Error("expected an HdOptionError, but nothing was thrown");
}
