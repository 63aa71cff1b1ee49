// `npm test`: unit and loopback-integration tests. The slow ones, against real components (a browser,
// the hd3 binary, the packed tarball, redis-server, curl, the vendor's PHP kit), are named
// `*.e2e.test.ts` and run with `npm run test:e2e` (vitest.e2e.config.ts).
import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: [...configDefaults.exclude, "**/*.e2e.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    setupFiles: ["test/support/load-client-http.ts"],
    // The files mostly wait on sockets, timers and child processes: run two at a time even on a
    // 2-core machine, where vitest's default (one less than the cores) would run one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // `npm test` turns this off: its `tsc --noEmit` has already checked these files.
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"] },
  },
});
