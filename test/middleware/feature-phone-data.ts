// A tiny feature-phone data set for the crawler tests: a specific device, a family fallback, a Generic record.

const notice = { note: "bots test data", generated: "2024-01-01 00:00:00", source: "http://127.0.0.1/" };
const record = (id: string, vendor: string, model: string) => ({
  Device: { _id: id, hd_specs: { general_vendor: vendor, general_model: model, general_type: "Mobile" } },
});
/** Specs: a Philips phone, a Generic record, and a Philips family record. */
export const PHONE_SPECS = JSON.stringify({
  _notice: notice,
  devices: [
    record("1", "Philips", "Xenium X513"),
    record("2", "Generic", "Feature Phone"),
    record("3", "Philips", "Xenium"),
  ],
  extras: [],
});
/** Trees: the phone and the Generic record in `user-agent0`, the Philips family in `user-agent1`. */
export const PHONE_TREES = JSON.stringify({
  _notice: notice,
  trees: {
    "user-agent0": { "0": { philips: { x513: "1" }, featurephone: { featurephone: "2" } } },
    "user-agent1": { "0": { philips: { philips: "3" } } },
    profile0: {},
    "x-operamini-phone0": {},
    "user-agentplatform": {},
    "user-agentbrowser": {},
  },
});
/** Found by the sieve (`user-agent0`): a specific device. Tripped only by an ambiguous pattern. */
export const PHILIPS_X513_UA = "PHILIPS-X513/R01";
/** Found only through the `user-agent1` fallback: the family, not a device. */
export const PHILIPS_FAMILY_UA = "PHILIPS-X100/R01";
/** Found in `user-agent0`, but the record's vendor is `Generic`. */
export const GENERIC_PHONE_UA = "FeaturePhone-1/R01";
