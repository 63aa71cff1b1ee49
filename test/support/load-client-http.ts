// Vitest setup: loads the cloud client's HTTP side before each test file, as importing the package did before that load became lazy.
//
// A client loads its HTTP side (src/client/calls.ts, with undici and digest-fetch) in the
// background once built; a deployed app runs the built JavaScript and gets its first request
// well after that. Here vite compiles those modules on the fly, on a machine other suites keep
// busy: a test that builds a cloud client and times its first request at once would time the
// compiler. What a fresh process loads is tested on dist/, in child processes this file does not
// reach (test/package/lazy-loading.test.ts).
import "../../src/client/calls.js";
