// A tiny hand-made specs + trees pair (three devices, two extras) for local-engine tests and the benchmark.

const notice = { note: "tiny test data", generated: "2024-01-01 00:00:00", source: "http://127.0.0.1/" };

function device(id: string, vendor: string, model: string, type: string, displayX: string) {
  return {
    Device: {
      _id: id,
      hd_specs: {
        general_vendor: vendor,
        general_model: model,
        general_type: type,
        display_x: displayX,
        general_aliases: "",
        network: "",
      },
    },
  };
}

/** The specs download, as JSON text. */
export const TINY_SPECS = JSON.stringify({
  _notice: notice,
  devices: [
    device("1", "Apple", "iPhone", "Mobile", "750"),
    device("2", "Apple", "iPad", "Tablet", "1536"),
    device("3", "Generic", "Android", "Mobile", "720"),
  ],
  extras: [
    { Extra: { _id: "10", hd_specs: { general_platform: "iOS", general_platform_version: "17.4" } } },
    { Extra: { _id: "11", hd_specs: { general_browser: "Mobile Safari", general_browser_version: "17.4" } } },
  ],
});

/** The trees download, as JSON text (document order kept). */
export const TINY_TREES = JSON.stringify({
  _notice: notice,
  trees: {
    "user-agent0": { "0": { iphone: { iphone: "1" }, ipad: { ipad: "2" }, android: { android: "3" } } },
    "user-agent1": { "0": { mozilla: { android: "3" } } },
    profile0: {},
    "x-operamini-phone0": {},
    "user-agentplatform": { "0": { iphone: { iphoneos: "10" } } },
    "user-agentbrowser": { "0": { safari: { "safari/604": "11" } } },
  },
});
