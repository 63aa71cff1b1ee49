// The local engine on the embedded sample database: node examples/local-engine.js
import { LocalEngine, sampleDataFiles, sampleEngine } from "express-handset-detection";

// #region load
// The sample database in one call (236 devices; not the real database) ...
const engine = sampleEngine();
// ... or any specs + trees pair, e.g. the one `hd3 sync --data-dir ./hd-data` downloads:
// await LocalEngine.fromFiles("./hd-data/hd3specs.json", "./hd-data/hd3trees.json")
const { specsPath, treesPath } = sampleDataFiles();
const same = await LocalEngine.fromFiles(specsPath, treesPath);
console.log(engine.dataInfo.devices, same.dataInfo.devices); // 236 236
// #endregion load

// #region detect
const reply = engine.detect({
  "user-agent": "Mozilla/5.0 (PlayStation; PlayStation 5/2.26) AppleWebKit/605.1.15 (KHTML, like Gecko)",
});
console.log(reply.status, reply.class, reply.hd_specs?.general_vendor, reply.hd_specs?.general_model);
// 0 Console Sony PlayStation 5
console.log(engine.detect({ "user-agent": "curl/8.5.0" })); // { class: "Unknown", status: 301, message: "Nothing Found" }
// #endregion detect

// #region explain
const why = engine.explain({
  "user-agent": "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240805.005; wv) AppleWebKit/537.36",
});
console.log(why.deviceId, why.status, why.deviceStep); // the id the trees give, detect's status, the step
console.log(why.device); // { tree: "user-agent0", header: "user-agent", method: "sieve", ..., filter, match, id }
// #endregion explain

// #region device-calls
console.log(engine.vendors().vendor.slice(0, 3)); // [ "Amazon", "Apple", "Generic" ]
console.log(engine.models("samsung").model.length); // case-insensitive; aliases included
console.log(engine.view("Google", "Pixel 8").device?.display_x); // the record's fields
console.log(engine.view("Google", "Nope")); // { status: 301, message: "Nothing found" }: a reply, not an exception
console.log(engine.whatHas("general_type", "Console").devices.length);
// #endregion device-calls
