// The engine behind the API test server: a real LocalEngine plus the cloud-only detect groups (geoip, legacy).

import { LocalEngine } from "../../src/engine/local-engine.js";
import { silentLogger } from "../../src/logger.js";
import type { ApiServerEngine } from "../../src/server/api-server.js";
import type { DetectParams, DetectReply, HeadersInput } from "../../src/types.js";

/** The geoip group the engine adds when a detect asks for `geoip` (local data holds none). */
const TEST_GEOIP = {
  country: "Australia",
  countrycode: "AU",
  city: "Sydney",
  latitude: -33.86,
  longitude: 151.2,
} as const;

/**
 * Loads a specs + trees pair into a `LocalEngine` and wraps it for `createApiServer`. Detection,
 * vendors, models, view and whathas are the engine's own answers. Only the groups the cloud adds
 * from data a download does not carry are simulated: `geoip` (a fixed location) and the `legacy`
 * groups `product_info` and `display` (derived from the detected record), each only when asked.
 */
export async function loadTestEngine(specsFile: string, treesFile: string): Promise<ApiServerEngine> {
  const engine = await LocalEngine.fromFiles(specsFile, treesFile, { logger: silentLogger });
  return {
    detect(headers: HeadersInput, params?: DetectParams): DetectReply {
      const reply = engine.detect(headers, params);
      const options = params?.options ?? [];
      if (reply.status !== 0 || reply.hd_specs === undefined) return reply;
      const specs = reply.hd_specs;
      const extra: Record<string, unknown> = {};
      if (options.includes("geoip")) extra.geoip = { ...TEST_GEOIP };
      if (options.includes("legacy")) {
        extra.product_info = {
          brand_name: specs.general_vendor,
          is_tablet: String(specs.general_type === "Tablet"),
        };
        extra.display = { resolution_width: specs.display_x, resolution_height: specs.display_y };
      }
      return { ...reply, ...extra } as DetectReply;
    },
    vendors: () => engine.vendors(),
    models: (vendor) => engine.models(vendor),
    view: (vendor, model) => engine.view(vendor, model),
    whatHas: (property, value) => engine.whatHas(property, value),
  };
}
