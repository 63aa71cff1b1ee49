#!/usr/bin/env node
// Authoring source of the SAMPLE database: writes sample-specs.json, sample-trees.json and useragents.json
// (the specs and trees in the exact shape of the fetchspecs and fetchtrees downloads).
//
// usage: node data/sample/build-sample.mjs           (rewrite the three files next to this script)
//        node data/sample/build-sample.mjs --check   (exit 1 if the files differ from this source)
// After a rewrite, `npm run build:sample-snapshot` rewrites sample-snapshot.bin from the new pair.
//
// Everything here is authored for this project from public spec sheets and public user-agent
// formats. It is NOT the Handset Detection database. Device trees hold keys normalised with the
// device rules (ASCII lower case, then delete space _ \ # - , . / : " '); extra trees hold keys
// normalised with the extra rules (trim, delete spaces, lower case). Trees are written as ordered
// entry lists so that the document order of every key is exactly the order written below.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const GENERATED = "2026-11-21 00:00:00";
const SOURCE = "https://www.npmjs.com/package/express-handset-detection (data/sample/build-sample.mjs)";
const NOTE =
  "SAMPLE data, not the Handset Detection device database: about 230 well-known devices and generic " +
  "fallbacks, hand-authored from public spec sheets for demos and tests. It detects far fewer devices " +
  "than the real database. For the real database you need a Handset Detection licence that allows " +
  "downloads (Ultimate Detection); then run `hd3 sync` (or DataStore.sync()) to download it.";

// ---------------------------------------------------------------------------------------------
// Normalisation (API-V3-FACTS.md, "Local detection, exactly")

const DEVICE_DELETED = new Set([" ", "_", "\\", "#", "-", ",", ".", "/", ":", '"', "'"]);
const deviceKey = (s) =>
  [...s.replace(/[A-Z]/g, (c) => c.toLowerCase())].filter((c) => !DEVICE_DELETED.has(c)).join("");
/** Match entries with the longest normalised key first, so that no key hides a longer one. */
const longestFirst = (entries) => [...entries].sort(([a], [b]) => deviceKey(b).length - deviceKey(a).length);
const extraKey = (s) => s.trim().replace(/ /g, "").replace(/[A-Z]/g, (c) => c.toLowerCase());

// ---------------------------------------------------------------------------------------------
// Device records

const STRING_FIELDS = [
  "general_vendor", "general_model", "general_platform", "general_platform_version", "general_browser",
  "general_browser_version", "general_image", "general_eusar", "general_type", "general_language",
  "design_formfactor", "design_dimensions", "design_weight", "design_antenna", "design_keyboard",
  "design_softkeys", "display_type", "display_color", "display_colors", "display_size", "display_x",
  "display_y",
];
const LIST_FIELDS = [
  "general_aliases", "general_battery", "general_cpu", "design_sidekeys", "display_other",
  "memory_internal", "memory_slot", "network", "media_camera", "media_secondcamera",
  "media_videocapture", "media_videoplayback", "media_audio", "media_other", "features", "connectors",
];

/** Writes a record in the download shape: every string field, every list field (`""` when empty). */
function record(fields) {
  for (const key of Object.keys(fields)) {
    if (!STRING_FIELDS.includes(key) && !LIST_FIELDS.includes(key)) throw new Error(`unknown field ${key}`);
  }
  const out = {};
  for (const key of STRING_FIELDS) {
    const value = fields[key] ?? "";
    if (typeof value !== "string") throw new Error(`${key} must be a string`);
    out[key] = value;
  }
  for (const key of LIST_FIELDS) {
    const value = fields[key] ?? [];
    if (!Array.isArray(value)) throw new Error(`${key} must be a list`);
    out[key] = value.length === 0 ? "" : value;
  }
  return out;
}

const NET_PHONE_5G = ["GSM850", "GSM900", "GSM1800", "GSM1900", "UMTS", "LTE", "5G"];
const NET_PHONE_4G = ["GSM850", "GSM900", "GSM1800", "GSM1900", "UMTS", "LTE"];
const VIDEO = ["H.264", "HEVC", "VP9"];
const AUDIO = ["AAC", "MP3", "FLAC"];
const PHONE_COMMON = {
  design_antenna: "Internal",
  design_keyboard: "Screen",
  display_color: "Yes",
  display_colors: "16M",
  media_videoplayback: VIDEO,
  media_audio: AUDIO,
};

/** An iPhone record. */
function iphone(model, o) {
  return {
    ...PHONE_COMMON,
    general_vendor: "Apple",
    general_model: model,
    general_platform: "iOS",
    // The version the model shipped with: the screen rule reads it to rule a model out.
    general_platform_version: o.first,
    general_type: "Mobile",
    general_aliases: o.ids.map((id) => `Apple ${id}`),
    general_cpu: [o.cpu],
    design_formfactor: "Bar",
    design_dimensions: o.dims,
    design_weight: o.weight,
    design_sidekeys: ["Volume", o.action ? "Action button" : "Ring/Silent switch", "Side button"],
    display_type: o.display,
    display_colors: o.display.includes("OLED") ? "1B" : "16M",
    display_size: o.size,
    display_x: o.x,
    display_y: o.y,
    display_other: ["Capacitive", "Multitouch", ...(o.promotion ? ["120Hz ProMotion"] : [])],
    memory_internal: o.storage,
    network: [...(o.fourG ? NET_PHONE_4G : NET_PHONE_5G), "Wi-Fi", "Bluetooth", "NFC"],
    media_camera: o.cameras,
    media_secondcamera: [o.front],
    media_videocapture: ["4K@60fps"],
    features: [o.faceId === false ? "Touch ID" : "Face ID", "Apple Pay", ...(o.features ?? [])],
    connectors: [o.lightning ? "Lightning" : "USB-C"],
  };
}

/** An iPad record. */
function ipad(model, o) {
  return {
    ...PHONE_COMMON,
    general_vendor: "Apple",
    general_model: model,
    general_platform: "iPadOS",
    general_platform_version: o.first,
    general_type: "Tablet",
    general_aliases: o.ids.map((id) => `Apple ${id}`),
    general_cpu: [o.cpu],
    design_formfactor: "Slate",
    design_dimensions: o.dims,
    design_weight: o.weight,
    display_type: o.display,
    display_size: o.size,
    display_x: o.x,
    display_y: o.y,
    display_other: ["Capacitive", "Multitouch"],
    memory_internal: o.storage,
    network: ["Wi-Fi", "Bluetooth", "5G (cellular models)"],
    media_camera: [o.back],
    media_secondcamera: [o.front],
    media_videocapture: ["4K@60fps"],
    features: [o.touchId ? "Touch ID" : "Face ID"],
    connectors: [o.lightning ? "Lightning" : "USB-C"],
  };
}

/** An Android phone or tablet record. */
function android(vendor, model, o) {
  const tablet = o.tablet === true;
  return {
    ...PHONE_COMMON,
    general_vendor: vendor,
    general_model: model,
    general_platform: o.platform ?? "Android",
    general_type: tablet ? "Tablet" : "Mobile",
    general_aliases: (o.aliases ?? []).map((a) => `${vendor} ${a}`),
    general_battery: o.battery ? [`Li-Ion ${o.battery} mAh`] : [],
    general_cpu: o.cpu,
    design_formfactor: o.form ?? (tablet ? "Slate" : "Bar"),
    design_dimensions: o.dims,
    design_weight: o.weight,
    design_sidekeys: o.sidekeys ?? ["Volume", "Power"],
    display_type: o.display,
    display_size: o.size,
    display_x: o.x,
    display_y: o.y,
    display_other: ["Capacitive", "Multitouch", ...(o.displayOther ?? [])],
    memory_internal: o.storage ?? [],
    memory_slot: o.slot ? ["microSDXC"] : [],
    network: [...(tablet ? [] : (o.fourG ? NET_PHONE_4G : NET_PHONE_5G)), "Wi-Fi", "Bluetooth", ...(o.nfc === false ? [] : tablet ? [] : ["NFC"])],
    media_camera: o.cameras ?? [],
    media_secondcamera: o.front ? [o.front] : [],
    media_videocapture: o.video ? [o.video] : [],
    features: o.features ?? [],
    connectors: o.connectors ?? ["USB-C"],
  };
}

/** A generic record: what a user-agent can tell when it does not name the model. */
function generic(vendor, model, type, platform, extra = {}) {
  return { general_vendor: vendor, general_model: model, general_type: type, general_platform: platform, ...extra };
}

// The device table: id, record, and the user-agents the test proves are detected to that id.
// User-agents are public formats (browsers, Android WebView, in-app browsers of Facebook and
// Instagram, consoles and TVs as their makers document them), with current version numbers.

const IOS17 = "17_5";
const IOS18 = "18_1";

/**
 * Safari-engine in-app user-agents that carry the Apple hardware identifier. `ios` is the OS token
 * of the WebKit part (frozen at 18_x from iOS 26 on); `real` is the version the app itself reports.
 */
function appleAppUas(kind, hwId, ios, scale, res, real = ios.replace("_", ".")) {
  const realToken = real.replace(".", "_");
  if (kind === "iPhone") {
    return [
      `Mozilla/5.0 (iPhone; CPU iPhone OS ${ios} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/470.0.0.37.109;FBBV/612322346;FBDV/${hwId};FBMD/iPhone;FBSN/iOS;FBSV/${real};FBSS/${scale[0]};FBID/phone;FBLC/en_US;FBOP/5;FBRV/614014541]`,
      `Mozilla/5.0 (iPhone; CPU iPhone OS ${ios} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 337.0.3.23.54 (${hwId}; iOS ${realToken}; en_US; en; scale=${scale}; ${res}; 614207563)`,
    ];
  }
  return [
    `Mozilla/5.0 (iPad; CPU OS ${ios} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/470.0.0.37.109;FBBV/612322346;FBDV/${hwId};FBMD/iPad;FBSN/iPadOS;FBSV/${real};FBSS/2;FBID/tablet;FBLC/en_US;FBOP/5;FBRV/614014541]`,
    `Mozilla/5.0 (iPad; CPU OS ${ios} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 337.0.3.23.54 (${hwId}; iPadOS ${realToken}; en_US; en; scale=${scale}; ${res}; 614207563)`,
  ];
}

/** Android WebView and Facebook in-app user-agents: they keep the model that Chrome now hides. */
function androidAppUas(model, androidVersion, build, { mobile = true } = {}) {
  const m = mobile ? "Mobile " : "";
  const webview = `Mozilla/5.0 (Linux; Android ${androidVersion}; ${model} Build/${build}; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.122 ${m}Safari/537.36`;
  return [webview, `${webview} [FB_IAB/FB4A;FBAV/471.0.0.35.80;]`];
}

const DEVICES = [];
/** The user-agent list of a device added earlier, to add a format found later. */
const useragentsOf = (id) => DEVICES.find((d) => d.id === id).userAgents;
/** Adds a device: its record, its device-tree rule keys (raw text, normalised on output) and UAs. */
function device(id, fields, userAgents) {
  DEVICES.push({ id, specs: record(fields), userAgents });
}

// --- Generic fallbacks (user-agent1) ----------------------------------------------------------
device("101", generic("Generic", "Android Mobile", "Mobile", "Android", { design_keyboard: "Screen", display_other: ["Capacitive", "Multitouch"] }), [
  "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
  "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36",
  "Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0",
]);
device("102", generic("Generic", "Android Tablet", "Tablet", "Android", { design_keyboard: "Screen", display_other: ["Capacitive", "Multitouch"] }), [
  "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Android 14; Tablet; rv:128.0) Gecko/128.0 Firefox/128.0",
]);
device("103", generic("Generic", "Smart TV", "TV", "", { display_x: "1920", display_y: "1080" }), [
  "Mozilla/5.0 (Linux armv7l) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/79.0.3945.79 Safari/537.36 HbbTV/1.5.1 (+DRM;Panasonic;SmartTV2021;3.112;4301-0003 0002-0000;SmartTV2021;)",
  "Mozilla/5.0 (Linux; U; Linux; en-us) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/87.0.4280.88 Safari/537.36 HbbTV/1.6.1 (+DRM; Vestel; MB230; 4.1.0; ; )",
]);
device("104", generic("Generic", "Windows PC", "Computer", "Windows", { design_keyboard: "QWERTY" }), [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0",
]);
device("105", generic("Apple", "Mac", "Computer", "macOS", { design_keyboard: "QWERTY", general_aliases: ["Apple Macintosh"] }), [
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:128.0) Gecko/20100101 Firefox/128.0",
]);
device("106", generic("Generic", "Linux PC", "Computer", "Linux", { design_keyboard: "QWERTY" }), [
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
  "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
  "Mozilla/5.0 (X11; Fedora; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
]);
device("107", generic("Generic", "Chromebook", "Computer", "ChromeOS", { design_keyboard: "QWERTY" }), [
  "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
  "Mozilla/5.0 (X11; CrOS aarch64 15359.58.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
]);

// --- Apple ------------------------------------------------------------------------------------
// iPhone and iPad browsers never name the model. Browser user-agents go to the generic
// "iPhone"/"iPad" records (typical current values, marked in general_aliases); in-app browsers of
// Facebook and Instagram carry the hardware identifier (iPhone16,1 ...), which names the model.
device("201", generic("Apple", "iPhone", "Mobile", "iOS", {
  ...PHONE_COMMON,
  design_formfactor: "Bar",
  display_type: "OLED",
  display_size: '6.1"',
  display_x: "1179",
  display_y: "2556",
  display_other: ["Capacitive", "Multitouch"],
  network: [...NET_PHONE_5G, "Wi-Fi", "Bluetooth", "NFC"],
}), [
  `Mozilla/5.0 (iPhone; CPU iPhone OS ${IOS17} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1`,
  `Mozilla/5.0 (iPhone; CPU iPhone OS ${IOS18} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1`,
  `Mozilla/5.0 (iPhone; CPU iPhone OS ${IOS17} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.153 Mobile/15E148 Safari/604.1`,
  `Mozilla/5.0 (iPhone; CPU iPhone OS ${IOS17} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/128.0 Mobile/15E148 Safari/605.1.15`,
]);
const IPHONES = [
  ["202", "iPhone SE (3rd generation)", { first: "15.4", ids: ["iPhone14,6"], cpu: "Apple A15 Bionic", dims: "138.4 x 67.3 x 7.3", weight: "144", display: "Retina HD IPS LCD", size: '4.7"', x: "750", y: "1334", storage: ["64GB", "128GB", "256GB"], cameras: ["12MP"], front: "7MP", faceId: false, lightning: true, features: ["Home button"] }, IOS17, "2.00", "750x1334"],
  ["203", "iPhone 14", { first: "16.0", ids: ["iPhone14,7"], cpu: "Apple A15 Bionic", dims: "146.7 x 71.5 x 7.80", weight: "172", display: "Super Retina XDR OLED", size: '6.1"', x: "1170", y: "2532", storage: ["128GB", "256GB", "512GB"], cameras: ["12MP", "12MP ultra wide"], front: "12MP", lightning: true }, IOS17, "3.00", "1170x2532"],
  ["204", "iPhone 15", { first: "17.0", ids: ["iPhone15,4"], cpu: "Apple A16 Bionic", dims: "147.6 x 71.6 x 7.80", weight: "171", display: "Super Retina XDR OLED", size: '6.1"', x: "1179", y: "2556", storage: ["128GB", "256GB", "512GB"], cameras: ["48MP", "12MP ultra wide"], front: "12MP", features: ["Dynamic Island"] }, IOS17, "3.00", "1179x2556"],
  ["205", "iPhone 15 Pro", { first: "17.0", ids: ["iPhone16,1"], cpu: "Apple A17 Pro", dims: "146.6 x 70.6 x 8.25", weight: "187", display: "Super Retina XDR OLED", size: '6.1"', x: "1179", y: "2556", promotion: true, action: true, storage: ["128GB", "256GB", "512GB", "1TB"], cameras: ["48MP", "12MP ultra wide", "12MP 3x telephoto"], front: "12MP", features: ["Dynamic Island"] }, IOS17, "3.00", "1179x2556"],
  ["206", "iPhone 15 Pro Max", { first: "17.0", ids: ["iPhone16,2"], cpu: "Apple A17 Pro", dims: "159.9 x 76.7 x 8.25", weight: "221", display: "Super Retina XDR OLED", size: '6.7"', x: "1290", y: "2796", promotion: true, action: true, storage: ["256GB", "512GB", "1TB"], cameras: ["48MP", "12MP ultra wide", "12MP 5x telephoto"], front: "12MP", features: ["Dynamic Island"] }, IOS17, "3.00", "1290x2796"],
  ["207", "iPhone 16", { first: "18.0", ids: ["iPhone17,3"], cpu: "Apple A18", dims: "147.6 x 71.6 x 7.80", weight: "170", display: "Super Retina XDR OLED", size: '6.1"', x: "1179", y: "2556", action: true, storage: ["128GB", "256GB", "512GB"], cameras: ["48MP", "12MP ultra wide"], front: "12MP", features: ["Dynamic Island", "Camera Control"] }, IOS18, "3.00", "1179x2556"],
  ["208", "iPhone 16 Plus", { first: "18.0", ids: ["iPhone17,4"], cpu: "Apple A18", dims: "160.9 x 77.8 x 7.80", weight: "199", display: "Super Retina XDR OLED", size: '6.7"', x: "1290", y: "2796", action: true, storage: ["128GB", "256GB", "512GB"], cameras: ["48MP", "12MP ultra wide"], front: "12MP", features: ["Dynamic Island", "Camera Control"] }, IOS18, "3.00", "1290x2796"],
  ["209", "iPhone 16 Pro", { first: "18.0", ids: ["iPhone17,1"], cpu: "Apple A18 Pro", dims: "149.6 x 71.5 x 8.25", weight: "199", display: "Super Retina XDR OLED", size: '6.3"', x: "1206", y: "2622", promotion: true, action: true, storage: ["128GB", "256GB", "512GB", "1TB"], cameras: ["48MP", "48MP ultra wide", "12MP 5x telephoto"], front: "12MP", features: ["Dynamic Island", "Camera Control"] }, IOS18, "3.00", "1206x2622"],
  ["210", "iPhone 16 Pro Max", { first: "18.0", ids: ["iPhone17,2"], cpu: "Apple A18 Pro", dims: "163 x 77.6 x 8.25", weight: "227", display: "Super Retina XDR OLED", size: '6.9"', x: "1320", y: "2868", promotion: true, action: true, storage: ["256GB", "512GB", "1TB"], cameras: ["48MP", "48MP ultra wide", "12MP 5x telephoto"], front: "12MP", features: ["Dynamic Island", "Camera Control"] }, IOS18, "3.00", "1320x2868"],
  ["211", "iPhone 16e", { first: "18.3", ids: ["iPhone17,5"], cpu: "Apple A18", dims: "146.7 x 71.5 x 7.80", weight: "167", display: "Super Retina XDR OLED", size: '6.1"', x: "1170", y: "2532", action: true, storage: ["128GB", "256GB", "512GB"], cameras: ["48MP"], front: "12MP" }, "18_3", "3.00", "1170x2532"],
  // Added with the screen rule: the models a newcomer meets first, from Apple's tech specs. The
  // 12 mini and 13 mini have a 1080x2340 panel but render at 1125x2436 (375x812 CSS at 3x); the 8 Plus
  // has a 1080x1920 panel and renders at 1242x2208: the rule knows both (src/rules/screen-model.ts).
  ["231", "iPhone 8 Plus", { first: "11.0", ids: ["iPhone10,2", "iPhone10,5"], cpu: "Apple A11 Bionic", dims: "158.4 x 78.1 x 7.5", weight: "202", display: "Retina HD IPS LCD", size: '5.5"', x: "1080", y: "1920", storage: ["64GB", "256GB"], cameras: ["12MP", "12MP 2x telephoto"], front: "7MP", faceId: false, lightning: true, fourG: true, features: ["Home button"] }, "16_7", "3.00", "1242x2208"],
  ["232", "iPhone XR", { first: "12.0", ids: ["iPhone11,8"], cpu: "Apple A12 Bionic", dims: "150.9 x 75.7 x 8.3", weight: "194", display: "Liquid Retina IPS LCD", size: '6.1"', x: "828", y: "1792", storage: ["64GB", "128GB", "256GB"], cameras: ["12MP"], front: "7MP", lightning: true, fourG: true }, "17_5", "2.00", "828x1792"],
  ["233", "iPhone 11", { first: "13.0", ids: ["iPhone12,1"], cpu: "Apple A13 Bionic", dims: "150.9 x 75.7 x 8.3", weight: "194", display: "Liquid Retina IPS LCD", size: '6.1"', x: "828", y: "1792", storage: ["64GB", "128GB", "256GB"], cameras: ["12MP", "12MP ultra wide"], front: "12MP", lightning: true, fourG: true }, IOS17, "2.00", "828x1792"],
  ["234", "iPhone 11 Pro", { first: "13.0", ids: ["iPhone12,3"], cpu: "Apple A13 Bionic", dims: "144.0 x 71.4 x 8.1", weight: "188", display: "Super Retina XDR OLED", size: '5.8"', x: "1125", y: "2436", storage: ["64GB", "256GB", "512GB"], cameras: ["12MP", "12MP ultra wide", "12MP 2x telephoto"], front: "12MP", lightning: true, fourG: true }, IOS17, "3.00", "1125x2436"],
  ["235", "iPhone 11 Pro Max", { first: "13.0", ids: ["iPhone12,5"], cpu: "Apple A13 Bionic", dims: "158.0 x 77.8 x 8.1", weight: "226", display: "Super Retina XDR OLED", size: '6.5"', x: "1242", y: "2688", storage: ["64GB", "256GB", "512GB"], cameras: ["12MP", "12MP ultra wide", "12MP 2x telephoto"], front: "12MP", lightning: true, fourG: true }, IOS17, "3.00", "1242x2688"],
  ["236", "iPhone SE (2nd generation)", { first: "13.4", ids: ["iPhone12,8"], cpu: "Apple A13 Bionic", dims: "138.4 x 67.3 x 7.3", weight: "148", display: "Retina HD IPS LCD", size: '4.7"', x: "750", y: "1334", storage: ["64GB", "128GB", "256GB"], cameras: ["12MP"], front: "7MP", faceId: false, lightning: true, fourG: true, features: ["Home button"] }, IOS17, "2.00", "750x1334"],
  ["237", "iPhone 12 mini", { first: "14.1", ids: ["iPhone13,1"], cpu: "Apple A14 Bionic", dims: "131.5 x 64.2 x 7.4", weight: "133", display: "Super Retina XDR OLED", size: '5.4"', x: "1080", y: "2340", storage: ["64GB", "128GB", "256GB"], cameras: ["12MP", "12MP ultra wide"], front: "12MP", lightning: true }, IOS17, "3.00", "1125x2436"],
  ["238", "iPhone 12", { first: "14.1", ids: ["iPhone13,2"], cpu: "Apple A14 Bionic", dims: "146.7 x 71.5 x 7.4", weight: "164", display: "Super Retina XDR OLED", size: '6.1"', x: "1170", y: "2532", storage: ["64GB", "128GB", "256GB"], cameras: ["12MP", "12MP ultra wide"], front: "12MP", lightning: true }, IOS17, "3.00", "1170x2532"],
  ["239", "iPhone 12 Pro", { first: "14.1", ids: ["iPhone13,3"], cpu: "Apple A14 Bionic", dims: "146.7 x 71.5 x 7.4", weight: "189", display: "Super Retina XDR OLED", size: '6.1"', x: "1170", y: "2532", storage: ["128GB", "256GB", "512GB"], cameras: ["12MP", "12MP ultra wide", "12MP 2x telephoto"], front: "12MP", lightning: true, features: ["LiDAR"] }, IOS17, "3.00", "1170x2532"],
  ["240", "iPhone 12 Pro Max", { first: "14.1", ids: ["iPhone13,4"], cpu: "Apple A14 Bionic", dims: "160.8 x 78.1 x 7.4", weight: "228", display: "Super Retina XDR OLED", size: '6.7"', x: "1284", y: "2778", storage: ["128GB", "256GB", "512GB"], cameras: ["12MP", "12MP ultra wide", "12MP 2.5x telephoto"], front: "12MP", lightning: true, features: ["LiDAR"] }, IOS17, "3.00", "1284x2778"],
  ["241", "iPhone 13 mini", { first: "15.0", ids: ["iPhone14,4"], cpu: "Apple A15 Bionic", dims: "131.5 x 64.2 x 7.65", weight: "141", display: "Super Retina XDR OLED", size: '5.4"', x: "1080", y: "2340", storage: ["128GB", "256GB", "512GB"], cameras: ["12MP", "12MP ultra wide"], front: "12MP", lightning: true }, IOS18, "3.00", "1125x2436"],
  ["242", "iPhone 13", { first: "15.0", ids: ["iPhone14,5"], cpu: "Apple A15 Bionic", dims: "146.7 x 71.5 x 7.65", weight: "174", display: "Super Retina XDR OLED", size: '6.1"', x: "1170", y: "2532", storage: ["128GB", "256GB", "512GB"], cameras: ["12MP", "12MP ultra wide"], front: "12MP", lightning: true }, IOS18, "3.00", "1170x2532"],
  ["243", "iPhone 13 Pro", { first: "15.0", ids: ["iPhone14,2"], cpu: "Apple A15 Bionic", dims: "146.7 x 71.5 x 7.65", weight: "204", display: "Super Retina XDR OLED", size: '6.1"', x: "1170", y: "2532", promotion: true, storage: ["128GB", "256GB", "512GB", "1TB"], cameras: ["12MP", "12MP ultra wide", "12MP 3x telephoto"], front: "12MP", lightning: true, features: ["LiDAR"] }, IOS18, "3.00", "1170x2532"],
  ["244", "iPhone 13 Pro Max", { first: "15.0", ids: ["iPhone14,3"], cpu: "Apple A15 Bionic", dims: "160.8 x 78.1 x 7.65", weight: "240", display: "Super Retina XDR OLED", size: '6.7"', x: "1284", y: "2778", promotion: true, storage: ["128GB", "256GB", "512GB", "1TB"], cameras: ["12MP", "12MP ultra wide", "12MP 3x telephoto"], front: "12MP", lightning: true, features: ["LiDAR"] }, IOS18, "3.00", "1284x2778"],
  ["245", "iPhone 14 Plus", { first: "16.0", ids: ["iPhone14,8"], cpu: "Apple A15 Bionic", dims: "160.8 x 78.1 x 7.80", weight: "203", display: "Super Retina XDR OLED", size: '6.7"', x: "1284", y: "2778", storage: ["128GB", "256GB", "512GB"], cameras: ["12MP", "12MP ultra wide"], front: "12MP", lightning: true }, IOS18, "3.00", "1284x2778"],
  ["246", "iPhone 14 Pro", { first: "16.0", ids: ["iPhone15,2"], cpu: "Apple A16 Bionic", dims: "147.5 x 71.5 x 7.85", weight: "206", display: "Super Retina XDR OLED", size: '6.1"', x: "1179", y: "2556", promotion: true, storage: ["128GB", "256GB", "512GB", "1TB"], cameras: ["48MP", "12MP ultra wide", "12MP 3x telephoto"], front: "12MP", lightning: true, features: ["Dynamic Island", "LiDAR"] }, IOS18, "3.00", "1179x2556"],
  ["247", "iPhone 14 Pro Max", { first: "16.0", ids: ["iPhone15,3"], cpu: "Apple A16 Bionic", dims: "160.7 x 77.6 x 7.85", weight: "240", display: "Super Retina XDR OLED", size: '6.7"', x: "1290", y: "2796", promotion: true, storage: ["128GB", "256GB", "512GB", "1TB"], cameras: ["48MP", "12MP ultra wide", "12MP 3x telephoto"], front: "12MP", lightning: true, features: ["Dynamic Island", "LiDAR"] }, IOS18, "3.00", "1290x2796"],
  ["248", "iPhone 15 Plus", { first: "17.0", ids: ["iPhone15,5"], cpu: "Apple A16 Bionic", dims: "160.9 x 77.8 x 7.80", weight: "201", display: "Super Retina XDR OLED", size: '6.7"', x: "1290", y: "2796", storage: ["128GB", "256GB", "512GB"], cameras: ["48MP", "12MP ultra wide"], front: "12MP", features: ["Dynamic Island"] }, IOS18, "3.00", "1290x2796"],
  ["249", "iPhone 17", { first: "26.0", ids: ["iPhone18,3"], cpu: "Apple A19", dims: "149.6 x 71.5 x 7.95", weight: "177", display: "Super Retina XDR OLED", size: '6.3"', x: "1206", y: "2622", promotion: true, action: true, storage: ["256GB", "512GB"], cameras: ["48MP", "48MP ultra wide"], front: "18MP", features: ["Dynamic Island", "Camera Control"] }, "18_6", "3.00", "1206x2622", "26.0"],
  ["250", "iPhone Air", { first: "26.0", ids: ["iPhone18,4"], cpu: "Apple A19 Pro", dims: "156.2 x 74.7 x 5.64", weight: "165", display: "Super Retina XDR OLED", size: '6.5"', x: "1260", y: "2736", promotion: true, action: true, storage: ["256GB", "512GB", "1TB"], cameras: ["48MP"], front: "18MP", features: ["Dynamic Island", "Camera Control"] }, "18_6", "3.00", "1260x2736", "26.0"],
  ["251", "iPhone 17 Pro", { first: "26.0", ids: ["iPhone18,1"], cpu: "Apple A19 Pro", dims: "150.0 x 71.9 x 8.75", weight: "204", display: "Super Retina XDR OLED", size: '6.3"', x: "1206", y: "2622", promotion: true, action: true, storage: ["256GB", "512GB", "1TB"], cameras: ["48MP", "48MP ultra wide", "48MP 4x telephoto"], front: "18MP", features: ["Dynamic Island", "Camera Control"] }, "18_6", "3.00", "1206x2622", "26.1"],
  ["252", "iPhone 17 Pro Max", { first: "26.0", ids: ["iPhone18,2"], cpu: "Apple A19 Pro", dims: "163.4 x 78.0 x 8.75", weight: "231", display: "Super Retina XDR OLED", size: '6.9"', x: "1320", y: "2868", promotion: true, action: true, storage: ["256GB", "512GB", "1TB", "2TB"], cameras: ["48MP", "48MP ultra wide", "48MP 4x telephoto"], front: "18MP", features: ["Dynamic Island", "Camera Control"] }, "18_6", "3.00", "1320x2868", "26.1"],
];

for (const [id, model, o, ios, scale, res, real] of IPHONES) {
  device(id, iphone(model, o), appleAppUas("iPhone", o.ids[0], ios, scale, res, real));
}

device("220", generic("Apple", "iPad", "Tablet", "iPadOS", {
  ...PHONE_COMMON,
  design_formfactor: "Slate",
  display_type: "IPS LCD",
  display_size: '10.9"',
  display_x: "1640",
  display_y: "2360",
  display_other: ["Capacitive", "Multitouch"],
}), [
  `Mozilla/5.0 (iPad; CPU OS ${IOS17} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.153 Mobile/15E148 Safari/604.1`,
  "Mozilla/5.0 (iPad; CPU OS 16_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1",
  `Mozilla/5.0 (iPad; CPU OS ${IOS18} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1`,
]);
const IPADS = [
  ["221", "iPad (10th generation)", { first: "16.1", ids: ["iPad13,18", "iPad13,19"], cpu: "Apple A14 Bionic", dims: "248.6 x 179.5 x 7.0", weight: "477", display: "Liquid Retina IPS LCD", size: '10.9"', x: "1640", y: "2360", storage: ["64GB", "256GB"], back: "12MP", front: "12MP landscape", touchId: true }, "2.00", "1640x2360"],
  ["222", "iPad Air 11-inch (M2)", { first: "17.4", ids: ["iPad14,8", "iPad14,9"], cpu: "Apple M2", dims: "247.6 x 178.5 x 6.1", weight: "462", display: "Liquid Retina IPS LCD", size: '11"', x: "1640", y: "2360", storage: ["128GB", "256GB", "512GB", "1TB"], back: "12MP", front: "12MP landscape", touchId: true }, "2.00", "1640x2360"],
  ["223", "iPad Pro 11-inch (M4)", { first: "17.5", ids: ["iPad16,3", "iPad16,4"], cpu: "Apple M4", dims: "249.7 x 177.5 x 5.3", weight: "444", display: "Ultra Retina XDR tandem OLED", size: '11"', x: "1668", y: "2420", storage: ["256GB", "512GB", "1TB", "2TB"], back: "12MP", front: "12MP landscape" }, "2.00", "1668x2420"],
  ["224", "iPad mini (A17 Pro)", { first: "18.0", ids: ["iPad16,1", "iPad16,2"], cpu: "Apple A17 Pro", dims: "195.4 x 134.8 x 6.3", weight: "293", display: "Liquid Retina IPS LCD", size: '8.3"', x: "1488", y: "2266", storage: ["128GB", "256GB", "512GB"], back: "12MP", front: "12MP", touchId: true }, "2.00", "1488x2266"],
  ["261", "iPad (9th generation)", { first: "15.0", ids: ["iPad12,1", "iPad12,2"], cpu: "Apple A13 Bionic", dims: "250.6 x 174.1 x 7.5", weight: "487", display: "Retina IPS LCD", size: '10.2"', x: "1620", y: "2160", storage: ["64GB", "256GB"], back: "8MP", front: "12MP ultra wide", touchId: true, lightning: true }, "2.00", "1620x2160"],
  ["262", "iPad (A16)", { first: "18.4", ids: ["iPad15,7", "iPad15,8"], cpu: "Apple A16", dims: "248.6 x 179.5 x 7.0", weight: "477", display: "Liquid Retina IPS LCD", size: '11"', x: "1640", y: "2360", storage: ["128GB", "256GB", "512GB"], back: "12MP", front: "12MP landscape", touchId: true }, "2.00", "1640x2360"],
  ["263", "iPad Air (4th generation)", { first: "14.1", ids: ["iPad13,1", "iPad13,2"], cpu: "Apple A14 Bionic", dims: "247.6 x 178.5 x 6.1", weight: "458", display: "Liquid Retina IPS LCD", size: '10.9"', x: "1640", y: "2360", storage: ["64GB", "256GB"], back: "12MP", front: "7MP", touchId: true }, "2.00", "1640x2360"],
  ["264", "iPad Air (5th generation)", { first: "15.4", ids: ["iPad13,16", "iPad13,17"], cpu: "Apple M1", dims: "247.6 x 178.5 x 6.1", weight: "461", display: "Liquid Retina IPS LCD", size: '10.9"', x: "1640", y: "2360", storage: ["64GB", "256GB"], back: "12MP", front: "12MP ultra wide", touchId: true }, "2.00", "1640x2360"],
  ["265", "iPad Air 13-inch (M2)", { first: "17.4", ids: ["iPad14,10", "iPad14,11"], cpu: "Apple M2", dims: "280.6 x 214.9 x 6.1", weight: "617", display: "Liquid Retina IPS LCD", size: '13"', x: "2048", y: "2732", storage: ["128GB", "256GB", "512GB", "1TB"], back: "12MP", front: "12MP landscape", touchId: true }, "2.00", "2048x2732"],
  ["266", "iPad Pro 11-inch (4th generation)", { first: "16.1", ids: ["iPad14,3", "iPad14,4"], cpu: "Apple M2", dims: "247.6 x 178.5 x 5.9", weight: "466", display: "Liquid Retina IPS LCD", size: '11"', x: "1668", y: "2388", storage: ["128GB", "256GB", "512GB", "1TB", "2TB"], back: "12MP", front: "12MP ultra wide" }, "2.00", "1668x2388"],
  ["267", "iPad Pro 12.9-inch (6th generation)", { first: "16.1", ids: ["iPad14,5", "iPad14,6"], cpu: "Apple M2", dims: "280.6 x 214.9 x 6.4", weight: "682", display: "Liquid Retina XDR mini-LED", size: '12.9"', x: "2048", y: "2732", storage: ["128GB", "256GB", "512GB", "1TB", "2TB"], back: "12MP", front: "12MP ultra wide" }, "2.00", "2048x2732"],
  ["268", "iPad Pro 13-inch (M4)", { first: "17.5", ids: ["iPad16,5", "iPad16,6"], cpu: "Apple M4", dims: "281.6 x 215.5 x 5.1", weight: "579", display: "Ultra Retina XDR tandem OLED", size: '13"', x: "2064", y: "2752", storage: ["256GB", "512GB", "1TB", "2TB"], back: "12MP", front: "12MP landscape" }, "2.00", "2064x2752"],
  ["269", "iPad mini (6th generation)", { first: "15.0", ids: ["iPad14,1", "iPad14,2"], cpu: "Apple A15 Bionic", dims: "195.4 x 134.8 x 6.3", weight: "293", display: "Liquid Retina IPS LCD", size: '8.3"', x: "1488", y: "2266", storage: ["64GB", "256GB"], back: "12MP", front: "12MP ultra wide", touchId: true }, "2.00", "1488x2266"],
  ["270", "iPad Air 11-inch (M3)", { first: "18.3", ids: ["iPad15,3", "iPad15,4"], cpu: "Apple M3", dims: "247.6 x 178.5 x 6.1", weight: "460", display: "Liquid Retina IPS LCD", size: '11"', x: "1640", y: "2360", storage: ["128GB", "256GB", "512GB", "1TB"], back: "12MP", front: "12MP landscape", touchId: true }, "2.00", "1640x2360"],
  ["271", "iPad Air 13-inch (M3)", { first: "18.3", ids: ["iPad15,5", "iPad15,6"], cpu: "Apple M3", dims: "280.6 x 214.9 x 6.1", weight: "616", display: "Liquid Retina IPS LCD", size: '13"', x: "2048", y: "2732", storage: ["128GB", "256GB", "512GB", "1TB"], back: "12MP", front: "12MP landscape", touchId: true }, "2.00", "2048x2732"],
  ["272", "iPad Pro 11-inch (M5)", { first: "26.0", ids: ["iPad17,1", "iPad17,2"], cpu: "Apple M5", dims: "249.7 x 177.5 x 5.3", weight: "444", display: "Ultra Retina XDR tandem OLED", size: '11"', x: "1668", y: "2420", storage: ["256GB", "512GB", "1TB", "2TB"], back: "12MP", front: "12MP landscape" }, "2.00", "1668x2420"],
  ["273", "iPad Pro 13-inch (M5)", { first: "26.0", ids: ["iPad17,3", "iPad17,4"], cpu: "Apple M5", dims: "281.6 x 215.5 x 5.1", weight: "579", display: "Ultra Retina XDR tandem OLED", size: '13"', x: "2064", y: "2752", storage: ["256GB", "512GB", "1TB", "2TB"], back: "12MP", front: "12MP landscape" }, "2.00", "2064x2752"],
];
for (const [id, model, o, scale, res] of IPADS) {
  device(id, ipad(model, o), [
    // iPadOS 26 freezes the WebKit token at 18_x; the app reports the real version.
    ...(Number.parseFloat(o.first) >= 26
      ? appleAppUas("iPad", o.ids[0], "18_6", scale, res, "26.0")
      : appleAppUas("iPad", o.ids[0], Number.parseFloat(o.first) >= 18 ? IOS18 : IOS17, scale, res)),
    ...appleAppUas("iPad", o.ids[1], IOS18, scale, res).slice(0, 1),
  ]);
}

// --- Samsung ----------------------------------------------------------------------------------
const SAMSUNG = [
  // id, model, model codes (first = used in the user-agents), android, build, options
  ["301", "Galaxy S25 Ultra", ["SM-S938B", "SM-S938U"], "15", "AP3A.240905.015.A2", { cpu: ["Qualcomm Snapdragon 8 Elite for Galaxy"], dims: "162.8 x 77.6 x 8.2", weight: "218", display: "Dynamic AMOLED 2X", size: '6.9"', x: "1440", y: "3120", battery: "5000", storage: ["256GB", "512GB", "1TB"], cameras: ["200MP", "50MP ultra wide", "10MP 3x telephoto", "50MP 5x telephoto"], front: "12MP", video: "8K@30fps", features: ["S Pen"], displayOther: ["120Hz"] }],
  ["302", "Galaxy S25", ["SM-S931B", "SM-S931U"], "15", "AP3A.240905.015.A2", { cpu: ["Qualcomm Snapdragon 8 Elite for Galaxy"], dims: "146.9 x 70.5 x 7.2", weight: "162", display: "Dynamic AMOLED 2X", size: '6.2"', x: "1080", y: "2340", battery: "4000", storage: ["128GB", "256GB", "512GB"], cameras: ["50MP", "12MP ultra wide", "10MP 3x telephoto"], front: "12MP", video: "8K@30fps", displayOther: ["120Hz"] }],
  ["303", "Galaxy S24 Ultra", ["SM-S928B", "SM-S928U"], "14", "UP1A.231005.007", { cpu: ["Qualcomm Snapdragon 8 Gen 3 for Galaxy"], dims: "162.3 x 79.0 x 8.6", weight: "232", display: "Dynamic AMOLED 2X", size: '6.8"', x: "1440", y: "3120", battery: "5000", storage: ["256GB", "512GB", "1TB"], cameras: ["200MP", "12MP ultra wide", "10MP 3x telephoto", "50MP 5x telephoto"], front: "12MP", video: "8K@30fps", features: ["S Pen"], displayOther: ["120Hz"] }],
  ["304", "Galaxy S24+", ["SM-S926B", "SM-S926U"], "14", "UP1A.231005.007", { cpu: ["Samsung Exynos 2400", "Qualcomm Snapdragon 8 Gen 3 for Galaxy"], dims: "158.5 x 75.9 x 7.7", weight: "196", display: "Dynamic AMOLED 2X", size: '6.7"', x: "1440", y: "3120", battery: "4900", storage: ["256GB", "512GB"], cameras: ["50MP", "12MP ultra wide", "10MP 3x telephoto"], front: "12MP", video: "8K@30fps", displayOther: ["120Hz"] }],
  ["305", "Galaxy S24", ["SM-S921B", "SM-S921U"], "14", "UP1A.231005.007", { cpu: ["Samsung Exynos 2400", "Qualcomm Snapdragon 8 Gen 3 for Galaxy"], dims: "147.0 x 70.6 x 7.6", weight: "167", display: "Dynamic AMOLED 2X", size: '6.2"', x: "1080", y: "2340", battery: "4000", storage: ["128GB", "256GB", "512GB"], cameras: ["50MP", "12MP ultra wide", "10MP 3x telephoto"], front: "12MP", video: "8K@30fps", displayOther: ["120Hz"] }],
  ["306", "Galaxy S23", ["SM-S911B", "SM-S911U"], "14", "UP1A.231005.007", { cpu: ["Qualcomm Snapdragon 8 Gen 2 for Galaxy"], dims: "146.3 x 70.9 x 7.6", weight: "168", display: "Dynamic AMOLED 2X", size: '6.1"', x: "1080", y: "2340", battery: "3900", storage: ["128GB", "256GB", "512GB"], cameras: ["50MP", "12MP ultra wide", "10MP 3x telephoto"], front: "12MP", video: "8K@30fps", displayOther: ["120Hz"] }],
  ["307", "Galaxy Z Fold6", ["SM-F956B", "SM-F956U"], "14", "UP1A.231005.007", { cpu: ["Qualcomm Snapdragon 8 Gen 3 for Galaxy"], form: "Foldable", dims: "153.5 x 132.6 x 5.6", weight: "239", display: "Dynamic AMOLED 2X", size: '7.6"', x: "1856", y: "2160", battery: "4400", storage: ["256GB", "512GB", "1TB"], cameras: ["50MP", "12MP ultra wide", "10MP 3x telephoto"], front: "10MP", video: "8K@30fps", displayOther: ["Second External 6.3\" 968x2376"] }],
  ["308", "Galaxy Z Flip6", ["SM-F741B", "SM-F741U"], "14", "UP1A.231005.007", { cpu: ["Qualcomm Snapdragon 8 Gen 3 for Galaxy"], form: "Clamshell", dims: "165.1 x 71.9 x 6.9", weight: "187", display: "Dynamic AMOLED 2X", size: '6.7"', x: "1080", y: "2640", battery: "4000", storage: ["256GB", "512GB"], cameras: ["50MP", "12MP ultra wide"], front: "10MP", video: "4K@60fps", displayOther: ["Second External 3.4\" 720x748"] }],
  ["309", "Galaxy A55 5G", ["SM-A556B", "SM-A556E"], "14", "UP1A.231005.007", { cpu: ["Samsung Exynos 1480"], dims: "161.1 x 77.4 x 8.2", weight: "213", display: "Super AMOLED", size: '6.6"', x: "1080", y: "2340", battery: "5000", storage: ["128GB", "256GB"], slot: true, cameras: ["50MP", "12MP ultra wide", "5MP macro"], front: "32MP", video: "4K@30fps" }],
  ["310", "Galaxy A35 5G", ["SM-A356B", "SM-A356E"], "14", "UP1A.231005.007", { cpu: ["Samsung Exynos 1380"], dims: "161.7 x 78.0 x 8.2", weight: "209", display: "Super AMOLED", size: '6.6"', x: "1080", y: "2340", battery: "5000", storage: ["128GB", "256GB"], slot: true, cameras: ["50MP", "8MP ultra wide", "5MP macro"], front: "13MP", video: "4K@30fps" }],
  ["311", "Galaxy A15 5G", ["SM-A156B", "SM-A156U"], "14", "UP1A.231005.007", { cpu: ["MediaTek Dimensity 6100+"], dims: "160.1 x 76.8 x 8.4", weight: "200", display: "Super AMOLED", size: '6.5"', x: "1080", y: "2340", battery: "5000", storage: ["128GB"], slot: true, cameras: ["50MP", "5MP ultra wide", "2MP macro"], front: "13MP", video: "1080p@30fps" }],
  ["312", "Galaxy Tab S9 Ultra", ["SM-X910", "SM-X916B", "SM-X918U"], "14", "UP1A.231005.007", { tablet: true, cpu: ["Qualcomm Snapdragon 8 Gen 2 for Galaxy"], dims: "326.4 x 208.6 x 5.5", weight: "732", display: "Dynamic AMOLED 2X", size: '14.6"', x: "1848", y: "2960", battery: "11200", storage: ["256GB", "512GB", "1TB"], slot: true, cameras: ["13MP", "8MP ultra wide"], front: "12MP", video: "4K@30fps", features: ["S Pen"] }],
  ["313", "Galaxy Tab S9", ["SM-X710", "SM-X716B", "SM-X718U"], "14", "UP1A.231005.007", { tablet: true, cpu: ["Qualcomm Snapdragon 8 Gen 2 for Galaxy"], dims: "254.3 x 165.8 x 5.9", weight: "498", display: "Dynamic AMOLED 2X", size: '11"', x: "1600", y: "2560", battery: "8400", storage: ["128GB", "256GB"], slot: true, cameras: ["13MP"], front: "12MP", video: "4K@30fps", features: ["S Pen"] }],
  ["314", "Galaxy Tab S9 FE", ["SM-X510", "SM-X516B", "SM-X518U"], "14", "UP1A.231005.007", { tablet: true, cpu: ["Samsung Exynos 1380"], dims: "254.3 x 165.8 x 6.5", weight: "523", display: "TFT LCD", size: '10.9"', x: "1440", y: "2304", battery: "8000", storage: ["128GB", "256GB"], slot: true, cameras: ["8MP"], front: "12MP", video: "4K@30fps", features: ["S Pen"] }],
  ["315", "Galaxy Tab A9+", ["SM-X210", "SM-X216B", "SM-X215", "SM-X218U"], "14", "UP1A.231005.007", { tablet: true, cpu: ["Qualcomm Snapdragon 695"], dims: "257.1 x 168.7 x 6.9", weight: "480", display: "TFT LCD", size: '11"', x: "1200", y: "1920", battery: "7040", storage: ["64GB", "128GB"], slot: true, cameras: ["8MP"], front: "5MP", video: "1080p@30fps" }],
  // Added later: screen, chipset and battery from Samsung's spec sheets (no dimensions).
  ["317", "Galaxy S25+", ["SM-S936B", "SM-S936U"], "15", "AP3A.240905.015.A2", { cpu: ["Qualcomm Snapdragon 8 Elite for Galaxy"], display: "Dynamic AMOLED 2X", size: '6.7"', x: "1440", y: "3120", battery: "4900", displayOther: ["120Hz"] }],
  ["318", "Galaxy S25 Edge", ["SM-S937B", "SM-S937U"], "15", "AP3A.240905.015.A2", { cpu: ["Qualcomm Snapdragon 8 Elite for Galaxy"], display: "Dynamic AMOLED 2X", size: '6.7"', x: "1440", y: "3120", battery: "3900", displayOther: ["120Hz"] }],
  ["319", "Galaxy S24 FE", ["SM-S721B", "SM-S721U"], "14", "UP1A.231005.007", { cpu: ["Samsung Exynos 2400e"], display: "Dynamic AMOLED 2X", size: '6.7"', x: "1080", y: "2340", battery: "4700", displayOther: ["120Hz"] }],
  ["320", "Galaxy S23 Ultra", ["SM-S918B", "SM-S918U"], "14", "UP1A.231005.007", { cpu: ["Qualcomm Snapdragon 8 Gen 2 for Galaxy"], display: "Dynamic AMOLED 2X", size: '6.8"', x: "1440", y: "3088", battery: "5000", features: ["S Pen"], displayOther: ["120Hz"] }],
  ["321", "Galaxy S23+", ["SM-S916B", "SM-S916U"], "14", "UP1A.231005.007", { cpu: ["Qualcomm Snapdragon 8 Gen 2 for Galaxy"], display: "Dynamic AMOLED 2X", size: '6.6"', x: "1080", y: "2340", battery: "4700", displayOther: ["120Hz"] }],
  ["322", "Galaxy S23 FE", ["SM-S711B", "SM-S711U"], "14", "UP1A.231005.007", { cpu: ["Samsung Exynos 2200", "Qualcomm Snapdragon 8 Gen 1"], display: "Dynamic AMOLED 2X", size: '6.4"', x: "1080", y: "2340", battery: "4500", displayOther: ["120Hz"] }],
  ["323", "Galaxy S22 Ultra", ["SM-S908B", "SM-S908U"], "14", "UP1A.231005.007", { cpu: ["Samsung Exynos 2200", "Qualcomm Snapdragon 8 Gen 1"], display: "Dynamic AMOLED 2X", size: '6.8"', x: "1440", y: "3088", battery: "5000", features: ["S Pen"], displayOther: ["120Hz"] }],
  ["324", "Galaxy S22", ["SM-S901B", "SM-S901U"], "14", "UP1A.231005.007", { cpu: ["Samsung Exynos 2200", "Qualcomm Snapdragon 8 Gen 1"], display: "Dynamic AMOLED 2X", size: '6.1"', x: "1080", y: "2340", battery: "3700", displayOther: ["120Hz"] }],
  ["325", "Galaxy S21 FE 5G", ["SM-G990B", "SM-G990U"], "13", "TP1A.220624.014", { cpu: ["Samsung Exynos 2100", "Qualcomm Snapdragon 888"], display: "Dynamic AMOLED 2X", size: '6.4"', x: "1080", y: "2340", battery: "4500", displayOther: ["120Hz"] }],
  ["326", "Galaxy S21 5G", ["SM-G991B", "SM-G991U"], "13", "TP1A.220624.014", { cpu: ["Samsung Exynos 2100", "Qualcomm Snapdragon 888"], display: "Dynamic AMOLED 2X", size: '6.2"', x: "1080", y: "2400", battery: "4000", displayOther: ["120Hz"] }],
  ["327", "Galaxy A54 5G", ["SM-A546B", "SM-A546E"], "14", "UP1A.231005.007", { cpu: ["Samsung Exynos 1380"], display: "Super AMOLED", size: '6.4"', x: "1080", y: "2340", battery: "5000", slot: true }],
  ["328", "Galaxy A34 5G", ["SM-A346B", "SM-A346E"], "14", "UP1A.231005.007", { cpu: ["MediaTek Dimensity 1080"], display: "Super AMOLED", size: '6.6"', x: "1080", y: "2340", battery: "5000", slot: true }],
  ["329", "Galaxy A25 5G", ["SM-A256B", "SM-A256E"], "14", "UP1A.231005.007", { cpu: ["Samsung Exynos 1280"], display: "Super AMOLED", size: '6.5"', x: "1080", y: "2340", battery: "5000", slot: true }],
  ["330", "Galaxy A15", ["SM-A155F", "SM-A155M"], "14", "UP1A.231005.007", { cpu: ["MediaTek Helio G99"], display: "Super AMOLED", size: '6.5"', x: "1080", y: "2340", battery: "5000", slot: true, fourG: true }],
  ["331", "Galaxy A16 5G", ["SM-A166B", "SM-A166P"], "14", "UP1A.231005.007", { cpu: ["Samsung Exynos 1330"], display: "Super AMOLED", size: '6.7"', x: "1080", y: "2340", battery: "5000", slot: true }],
  ["332", "Galaxy A56 5G", ["SM-A566B", "SM-A566E"], "15", "AP3A.240905.015.A2", { cpu: ["Samsung Exynos 1580"], display: "Super AMOLED", size: '6.7"', x: "1080", y: "2340", battery: "5000" }],
  ["333", "Galaxy A36 5G", ["SM-A366B", "SM-A366E"], "15", "AP3A.240905.015.A2", { cpu: ["Qualcomm Snapdragon 6 Gen 3"], display: "Super AMOLED", size: '6.7"', x: "1080", y: "2340", battery: "5000" }],
  ["334", "Galaxy A14 5G", ["SM-A146B", "SM-A146U"], "13", "TP1A.220624.014", { cpu: ["Samsung Exynos 1330"], display: "PLS LCD", size: '6.6"', x: "1080", y: "2408", battery: "5000", slot: true }],
  ["335", "Galaxy A14", ["SM-A145F", "SM-A145R"], "13", "TP1A.220624.014", { cpu: ["MediaTek Helio G80"], display: "PLS LCD", size: '6.6"', x: "1080", y: "2408", battery: "5000", slot: true, fourG: true }],
  ["336", "Galaxy A05s", ["SM-A057F", "SM-A057M"], "13", "TP1A.220624.014", { cpu: ["Qualcomm Snapdragon 680"], display: "PLS LCD", size: '6.7"', x: "1080", y: "2400", battery: "5000", slot: true, fourG: true }],
  ["337", "Galaxy A53 5G", ["SM-A536B", "SM-A536U"], "14", "UP1A.231005.007", { cpu: ["Samsung Exynos 1280"], display: "Super AMOLED", size: '6.5"', x: "1080", y: "2400", battery: "5000", slot: true }],
  ["338", "Galaxy A52", ["SM-A525F", "SM-A525M"], "13", "TP1A.220624.014", { cpu: ["Qualcomm Snapdragon 720G"], display: "Super AMOLED", size: '6.5"', x: "1080", y: "2400", battery: "4500", slot: true, fourG: true }],
  ["339", "Galaxy A13", ["SM-A135F", "SM-A135M"], "13", "TP1A.220624.014", { cpu: ["Samsung Exynos 850"], display: "PLS LCD", size: '6.6"', x: "1080", y: "2408", battery: "5000", slot: true, fourG: true }],
  ["340", "Galaxy A12", ["SM-A125F", "SM-A125M"], "11", "RP1A.200720.012", { cpu: ["MediaTek Helio P35"], display: "PLS LCD", size: '6.5"', x: "720", y: "1600", battery: "5000", slot: true, fourG: true }],
  ["341", "Galaxy A51", ["SM-A515F", "SM-A515U"], "12", "SP1A.210812.016", { cpu: ["Samsung Exynos 9611"], display: "Super AMOLED", size: '6.5"', x: "1080", y: "2400", battery: "4000", slot: true, fourG: true }],
  ["342", "Galaxy Z Fold5", ["SM-F946B", "SM-F946U"], "14", "UP1A.231005.007", { cpu: ["Qualcomm Snapdragon 8 Gen 2 for Galaxy"], form: "Foldable", display: "Dynamic AMOLED 2X", size: '7.6"', x: "1812", y: "2176", battery: "4400", displayOther: ["Second External 6.2\" 904x2316"] }],
  ["343", "Galaxy Z Flip5", ["SM-F731B", "SM-F731U"], "14", "UP1A.231005.007", { cpu: ["Qualcomm Snapdragon 8 Gen 2 for Galaxy"], form: "Clamshell", display: "Dynamic AMOLED 2X", size: '6.7"', x: "1080", y: "2640", battery: "3700", displayOther: ["Second External 3.4\" 720x748"] }],
  ["344", "Galaxy Z Fold7", ["SM-F966B", "SM-F966U"], "16", "BP2A.250605.031.A2", { cpu: ["Qualcomm Snapdragon 8 Elite for Galaxy"], form: "Foldable", display: "Dynamic AMOLED 2X", size: '8.0"', x: "1968", y: "2184", battery: "4400" }],
  ["345", "Galaxy Z Flip7", ["SM-F766B", "SM-F766U"], "16", "BP2A.250605.031.A2", { cpu: ["Samsung Exynos 2500"], form: "Clamshell", display: "Dynamic AMOLED 2X", size: '6.9"', x: "1080", y: "2520", battery: "4300" }],
  ["346", "Galaxy Tab S10 Ultra", ["SM-X920", "SM-X926B"], "14", "UP1A.231005.007", { tablet: true, cpu: ["MediaTek Dimensity 9300+"], display: "Dynamic AMOLED 2X", size: '14.6"', x: "1848", y: "2960", battery: "11200", slot: true, features: ["S Pen"] }],
  ["347", "Galaxy Tab S10+", ["SM-X820", "SM-X826B"], "14", "UP1A.231005.007", { tablet: true, cpu: ["MediaTek Dimensity 9300+"], display: "Dynamic AMOLED 2X", size: '12.4"', x: "1752", y: "2800", battery: "10090", slot: true, features: ["S Pen"] }],
  ["348", "Galaxy Tab S8", ["SM-X700", "SM-X706B"], "13", "TP1A.220624.014", { tablet: true, cpu: ["Qualcomm Snapdragon 8 Gen 1"], display: "LTPS TFT LCD", size: '11"', x: "1600", y: "2560", battery: "8000", slot: true, features: ["S Pen"] }],
  ["349", "Galaxy Tab S6 Lite", ["SM-P610", "SM-P615", "SM-P613", "SM-P619", "SM-P620", "SM-P625"], "13", "TP1A.220624.014", { tablet: true, cpu: ["Samsung Exynos 9611", "Qualcomm Snapdragon 720G", "Samsung Exynos 1280"], display: "TFT LCD", size: '10.4"', x: "1200", y: "2000", battery: "7040", slot: true, features: ["S Pen"] }],
  ["350", "Galaxy Tab A9", ["SM-X110", "SM-X115"], "14", "UP1A.231005.007", { tablet: true, cpu: ["MediaTek Helio G99"], display: "TFT LCD", size: '8.7"', x: "800", y: "1340", battery: "5100", slot: true }],
  ["351", "Galaxy Tab A8", ["SM-X200", "SM-X205"], "13", "TP1A.220624.014", { tablet: true, cpu: ["Unisoc T618"], display: "TFT LCD", size: '10.5"', x: "1200", y: "1920", battery: "7040", slot: true }],
];
for (const [id, model, codes, ver, build, o] of SAMSUNG) {
  device(id, android("Samsung", model, { ...o, aliases: codes }), [
    ...androidAppUas(codes[0], ver, build, { mobile: o.tablet !== true }),
    androidAppUas(codes[1], ver, build, { mobile: o.tablet !== true })[0],
  ]);
}
device("316", generic("Samsung", "Smart TV (Tizen)", "TV", "Tizen", { display_x: "1920", display_y: "1080" }), [
  "Mozilla/5.0 (SMART-TV; LINUX; Tizen 8.0) AppleWebKit/537.36 (KHTML, like Gecko) 108.0.5359.1/8.0 TV Safari/537.36",
  "Mozilla/5.0 (SMART-TV; LINUX; Tizen 7.0) AppleWebKit/537.36 (KHTML, like Gecko) 94.0.4606.31/7.0 TV Safari/537.36",
  "Mozilla/5.0 (SMART-TV; LINUX; Tizen 6.5) AppleWebKit/537.36 (KHTML, like Gecko) 85.0.4183.93/6.5 TV Safari/537.36",
]);

// --- Google -----------------------------------------------------------------------------------
const PIXELS = [
  ["401", "Pixel 9 Pro XL", "15", "AP3A.241005.015", { cpu: ["Google Tensor G4"], dims: "162.8 x 76.6 x 8.5", weight: "221", display: "LTPO OLED", size: '6.8"', x: "1344", y: "2992", battery: "5060", storage: ["128GB", "256GB", "512GB", "1TB"], cameras: ["50MP", "48MP ultra wide", "48MP 5x telephoto"], front: "42MP", video: "8K@30fps", displayOther: ["120Hz"] }],
  ["402", "Pixel 9 Pro", "15", "AP3A.241005.015", { cpu: ["Google Tensor G4"], dims: "152.8 x 72.0 x 8.5", weight: "199", display: "LTPO OLED", size: '6.3"', x: "1280", y: "2856", battery: "4700", storage: ["128GB", "256GB", "512GB", "1TB"], cameras: ["50MP", "48MP ultra wide", "48MP 5x telephoto"], front: "42MP", video: "8K@30fps", displayOther: ["120Hz"] }],
  ["403", "Pixel 9", "15", "AP3A.241005.015", { cpu: ["Google Tensor G4"], dims: "152.8 x 72.0 x 8.5", weight: "198", display: "OLED", size: '6.3"', x: "1080", y: "2424", battery: "4700", storage: ["128GB", "256GB"], cameras: ["50MP", "48MP ultra wide"], front: "10.5MP", video: "4K@60fps", displayOther: ["120Hz"] }],
  ["404", "Pixel 8 Pro", "14", "AP2A.240805.005", { cpu: ["Google Tensor G3"], dims: "162.6 x 76.5 x 8.8", weight: "213", display: "LTPO OLED", size: '6.7"', x: "1344", y: "2992", battery: "5050", storage: ["128GB", "256GB", "512GB", "1TB"], cameras: ["50MP", "48MP ultra wide", "48MP 5x telephoto"], front: "10.5MP", video: "4K@60fps", displayOther: ["120Hz"] }],
  ["405", "Pixel 8a", "14", "AP2A.240805.005", { cpu: ["Google Tensor G3"], dims: "152.1 x 72.7 x 8.9", weight: "188", display: "OLED", size: '6.1"', x: "1080", y: "2400", battery: "4492", storage: ["128GB", "256GB"], cameras: ["64MP", "13MP ultra wide"], front: "13MP", video: "4K@60fps", displayOther: ["120Hz"] }],
  ["406", "Pixel 8", "14", "AP2A.240805.005", { cpu: ["Google Tensor G3"], dims: "150.5 x 70.8 x 8.9", weight: "187", display: "OLED", size: '6.2"', x: "1080", y: "2400", battery: "4575", storage: ["128GB", "256GB"], cameras: ["50MP", "12MP ultra wide"], front: "10.5MP", video: "4K@60fps", displayOther: ["120Hz"] }],
  ["407", "Pixel Tablet", "14", "AP2A.240805.005", { tablet: true, cpu: ["Google Tensor G2"], dims: "258 x 169 x 8.1", weight: "493", display: "LCD", size: '10.95"', x: "1600", y: "2560", battery: "7020", storage: ["128GB", "256GB"], cameras: ["8MP"], front: "8MP", video: "1080p@30fps" }],
  ["409", "Pixel 10 Pro XL", "16", "BP2A.250605.031.A2", { cpu: ["Google Tensor G5"], display: "LTPO OLED", size: '6.8"', x: "1344", y: "2992", battery: "5200", displayOther: ["120Hz"] }],
  ["410", "Pixel 10 Pro Fold", "16", "BP2A.250605.031.A2", { cpu: ["Google Tensor G5"], form: "Foldable", display: "LTPO OLED", size: '8.0"', x: "2076", y: "2152", battery: "5015", displayOther: ["120Hz", "Second External 6.4\" 1080x2364"] }],
  ["411", "Pixel 10 Pro", "16", "BP2A.250605.031.A2", { cpu: ["Google Tensor G5"], display: "LTPO OLED", size: '6.3"', x: "1280", y: "2856", battery: "4870", displayOther: ["120Hz"] }],
  ["412", "Pixel 10", "16", "BP2A.250605.031.A2", { cpu: ["Google Tensor G5"], display: "OLED", size: '6.3"', x: "1080", y: "2424", battery: "4970", displayOther: ["120Hz"] }],
  ["413", "Pixel 9 Pro Fold", "15", "AP3A.240905.015.A2", { cpu: ["Google Tensor G4"], form: "Foldable", display: "LTPO OLED", size: '8.0"', x: "2076", y: "2152", battery: "4650", displayOther: ["120Hz", "Second External 6.3\" 1080x2424"] }],
  ["414", "Pixel 9a", "15", "AP3A.240905.015.A2", { cpu: ["Google Tensor G4"], display: "P-OLED", size: '6.3"', x: "1080", y: "2424", battery: "5100", displayOther: ["120Hz"] }],
  ["415", "Pixel 7 Pro", "14", "UP1A.231005.007", { cpu: ["Google Tensor G2"], display: "LTPO OLED", size: '6.7"', x: "1440", y: "3120", battery: "5000", displayOther: ["120Hz"] }],
  ["416", "Pixel 7a", "14", "UP1A.231005.007", { cpu: ["Google Tensor G2"], display: "OLED", size: '6.1"', x: "1080", y: "2400", battery: "4385", displayOther: ["90Hz"] }],
  ["417", "Pixel 7", "14", "UP1A.231005.007", { cpu: ["Google Tensor G2"], display: "OLED", size: '6.3"', x: "1080", y: "2400", battery: "4355", displayOther: ["90Hz"] }],
  ["418", "Pixel 6 Pro", "13", "TP1A.220624.014", { cpu: ["Google Tensor"], display: "LTPO OLED", size: '6.7"', x: "1440", y: "3120", battery: "5003", displayOther: ["120Hz"] }],
  ["419", "Pixel 6a", "13", "TP1A.220624.014", { cpu: ["Google Tensor"], display: "OLED", size: '6.1"', x: "1080", y: "2400", battery: "4410" }],
  ["420", "Pixel 6", "13", "TP1A.220624.014", { cpu: ["Google Tensor"], display: "OLED", size: '6.4"', x: "1080", y: "2400", battery: "4614", displayOther: ["90Hz"] }],
  ["421", "Pixel Fold", "14", "UP1A.231005.007", { cpu: ["Google Tensor G2"], form: "Foldable", display: "OLED", size: '7.6"', x: "1840", y: "2208", battery: "4821", displayOther: ["120Hz", "Second External 5.8\" 1080x2092"] }],
];
for (const [id, model, ver, build, o] of PIXELS) {
  device(id, android("Google", model, o), androidAppUas(model, ver, build, { mobile: o.tablet !== true }));
}
device("408", generic("Google", "Chromecast with Google TV", "TV", "Android TV", { general_aliases: ["Google Chromecast", "Google Chromecast HD"], general_cpu: ["Amlogic S905D3G"], display_x: "1920", display_y: "1080", design_formfactor: "Streaming media player", connectors: ["HDMI", "USB-C"] }), [
  "Mozilla/5.0 (Linux; Android 12; Chromecast Build/STTE.230319.008; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.134 Safari/537.36",
  // The HD model (2022) says "Chromecast HD": the same record, the 4K and HD models differ little.
  "Mozilla/5.0 (Linux; Android 12; Chromecast HD Build/STTE.230319.008; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.134 Safari/537.36",
]);

// --- LG -------------------------------------------------------------------------------------
device("501", android("LG", "Nexus 5X", { aliases: ["Google Nexus 5X", "LG-H791"], cpu: ["Qualcomm Snapdragon 808"], dims: "147.0 x 72.6 x 7.9", weight: "136", display: "IPS LCD", size: '5.2"', x: "1080", y: "1920", battery: "2700", storage: ["16GB", "32GB"], cameras: ["12.3MP"], front: "5MP", video: "4K@30fps", fourG: true, features: ["Fingerprint sensor"] }), [
  "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.126 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  "Mozilla/5.0 (Linux; Android 8.1.0; Nexus 5X Build/OPM7.181205.001) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/83.0.4103.106 Mobile Safari/537.36",
]);
device("502", generic("LG", "Smart TV (webOS)", "TV", "webOS", { display_x: "1920", display_y: "1080" }), [
  "Mozilla/5.0 (Web0S; Linux/SmartTV) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/108.0.5359.211 Safari/537.36 WebAppManager",
  "Mozilla/5.0 (Web0S; Linux/SmartTV) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/94.0.4606.128 Safari/537.36 WebAppManager",
  "Mozilla/5.0 (Web0S; Linux/SmartTV) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/87.0.4280.88 Safari/537.36 WebAppManager",
]);

// --- Xiaomi, OPPO, vivo, Motorola, OnePlus ---------------------------------------------------------
// Build.MODEL is what their user-agents (and Sec-CH-UA-Model) carry: a model code for Xiaomi
// (Redmi and POCO included), OPPO, vivo and OnePlus, the marketing name for Motorola. Screen,
// chipset and battery from the makers' spec sheets. Rows: id, model, Build.MODEL values (the
// first in the user-agents), Android version of the user-agents, options.
const BUILDS = { 16: "BP2A.250605.031.A2", 15: "AP3A.240905.015.A2", 14: "UP1A.231005.007", 13: "TP1A.220624.014", 12: "SP1A.210812.016", 11: "RP1A.200720.012", 10: "QP1A.190711.020", 9: "PPR1.180610.011" };
const XIAOMI = [
  ["801", "Xiaomi 15", ["24129PN74G"], "15", { cpu: ["Qualcomm Snapdragon 8 Elite"], display: "LTPO OLED", size: '6.36"', x: "1200", y: "2670", battery: "5240" }],
  ["802", "Xiaomi 14 Ultra", ["24030PN60G"], "14", { cpu: ["Qualcomm Snapdragon 8 Gen 3"], display: "LTPO AMOLED", size: '6.73"', x: "1440", y: "3200", battery: "5000" }],
  ["803", "Xiaomi 14", ["23127PN0CG"], "14", { cpu: ["Qualcomm Snapdragon 8 Gen 3"], display: "LTPO OLED", size: '6.36"', x: "1200", y: "2670", battery: "4610" }],
  ["804", "Xiaomi 14T Pro", ["2407FPN8EG"], "14", { cpu: ["MediaTek Dimensity 9300+"], display: "AMOLED", size: '6.67"', x: "1220", y: "2712", battery: "5000" }],
  ["805", "Xiaomi 14T", ["2406APNFAG"], "14", { cpu: ["MediaTek Dimensity 8300-Ultra"], display: "AMOLED", size: '6.67"', x: "1220", y: "2712", battery: "5000" }],
  ["806", "Xiaomi 13T Pro", ["23078PND5G"], "13", { cpu: ["MediaTek Dimensity 9200+"], display: "AMOLED", size: '6.67"', x: "1220", y: "2712", battery: "5000" }],
  ["807", "Xiaomi 13T", ["2306EPN60G"], "13", { cpu: ["MediaTek Dimensity 8200-Ultra"], display: "AMOLED", size: '6.67"', x: "1220", y: "2712", battery: "5000" }],
  ["808", "Xiaomi 13 Pro", ["2210132G"], "13", { cpu: ["Qualcomm Snapdragon 8 Gen 2"], display: "LTPO AMOLED", size: '6.73"', x: "1440", y: "3200", battery: "4820" }],
  ["809", "Xiaomi 13", ["2211133G"], "13", { cpu: ["Qualcomm Snapdragon 8 Gen 2"], display: "OLED", size: '6.36"', x: "1080", y: "2400", battery: "4500" }],
  ["810", "Xiaomi 12", ["2201123G"], "12", { cpu: ["Qualcomm Snapdragon 8 Gen 1"], display: "AMOLED", size: '6.28"', x: "1080", y: "2400", battery: "4500" }],
  ["811", "Redmi Note 13 Pro+ 5G", ["23090RA98G"], "13", { cpu: ["MediaTek Dimensity 7200-Ultra"], display: "AMOLED", size: '6.67"', x: "1220", y: "2712", battery: "5000" }],
  ["812", "Redmi Note 13 Pro 5G", ["2312DRA50G"], "13", { cpu: ["Qualcomm Snapdragon 7s Gen 2"], display: "AMOLED", size: '6.67"', x: "1220", y: "2712", battery: "5100" }],
  ["813", "Redmi Note 13 5G", ["2312DRAABG"], "13", { cpu: ["MediaTek Dimensity 6080"], display: "AMOLED", size: '6.67"', x: "1080", y: "2400", battery: "5000" }],
  ["814", "Redmi Note 13", ["23129RAA4G"], "13", { cpu: ["Qualcomm Snapdragon 685"], display: "AMOLED", size: '6.67"', x: "1080", y: "2400", battery: "5000", fourG: true }],
  ["815", "Redmi Note 12 Pro 5G", ["22101316G"], "12", { cpu: ["MediaTek Dimensity 1080"], display: "OLED", size: '6.67"', x: "1080", y: "2400", battery: "5000" }],
  ["816", "Redmi Note 12", ["23021RAAEG"], "13", { cpu: ["Qualcomm Snapdragon 685"], display: "AMOLED", size: '6.67"', x: "1080", y: "2400", battery: "5000", fourG: true }],
  ["817", "Redmi Note 11", ["2201117TG"], "11", { cpu: ["Qualcomm Snapdragon 680"], display: "AMOLED", size: '6.43"', x: "1080", y: "2400", battery: "5000", fourG: true }],
  ["818", "Redmi Note 10 Pro", ["M2101K6G"], "11", { cpu: ["Qualcomm Snapdragon 732G"], display: "AMOLED", size: '6.67"', x: "1080", y: "2400", battery: "5020", fourG: true }],
  ["819", "Redmi Note 8 Pro", ["M1906G7G"], "9", { cpu: ["MediaTek Helio G90T"], display: "IPS LCD", size: '6.53"', x: "1080", y: "2340", battery: "4500", fourG: true }],
  ["820", "Redmi 13C", ["23100RN82L"], "13", { cpu: ["MediaTek Helio G85"], display: "IPS LCD", size: '6.74"', x: "720", y: "1600", battery: "5000", fourG: true, slot: true }],
  ["821", "Redmi 12C", ["22120RN86G"], "12", { cpu: ["MediaTek Helio G85"], display: "IPS LCD", size: '6.71"', x: "720", y: "1650", battery: "5000", fourG: true, slot: true }],
  ["822", "Redmi 12", ["23053RN02Y"], "13", { cpu: ["MediaTek Helio G88"], display: "IPS LCD", size: '6.79"', x: "1080", y: "2460", battery: "5000", fourG: true, slot: true }],
  ["823", "Redmi 9A", ["M2006C3LG"], "10", { cpu: ["MediaTek Helio G25"], display: "IPS LCD", size: '6.53"', x: "720", y: "1600", battery: "5000", fourG: true, slot: true }],
  ["824", "Redmi 9C", ["M2006C3MG"], "10", { cpu: ["MediaTek Helio G35"], display: "IPS LCD", size: '6.53"', x: "720", y: "1600", battery: "5000", fourG: true, slot: true }],
  ["825", "POCO F6", ["24069PC21G"], "14", { cpu: ["Qualcomm Snapdragon 8s Gen 3"], display: "AMOLED", size: '6.67"', x: "1220", y: "2712", battery: "5000" }],
  ["826", "POCO F5", ["23049PCD8G"], "13", { cpu: ["Qualcomm Snapdragon 7+ Gen 2"], display: "AMOLED", size: '6.67"', x: "1080", y: "2400", battery: "5000" }],
  ["827", "POCO X6 Pro 5G", ["2311DRK48G"], "14", { cpu: ["MediaTek Dimensity 8300-Ultra"], display: "AMOLED", size: '6.67"', x: "1220", y: "2712", battery: "5000" }],
  ["828", "POCO X6 5G", ["23122PCD1G"], "13", { cpu: ["Qualcomm Snapdragon 7s Gen 2"], display: "AMOLED", size: '6.67"', x: "1220", y: "2712", battery: "5100" }],
  ["829", "POCO X5 Pro 5G", ["22101320G"], "12", { cpu: ["Qualcomm Snapdragon 778G"], display: "AMOLED", size: '6.67"', x: "1080", y: "2400", battery: "5000" }],
  ["830", "POCO M6 Pro", ["2312FPCA6G"], "13", { cpu: ["MediaTek Helio G99-Ultra"], display: "AMOLED", size: '6.67"', x: "1080", y: "2400", battery: "5000", fourG: true }],
  ["831", "POCO X3 Pro", ["M2102J20SG"], "11", { cpu: ["Qualcomm Snapdragon 860"], display: "IPS LCD", size: '6.67"', x: "1080", y: "2400", battery: "5160", fourG: true }],
  ["832", "POCO X3 NFC", ["M2007J20CG"], "10", { cpu: ["Qualcomm Snapdragon 732G"], display: "IPS LCD", size: '6.67"', x: "1080", y: "2400", battery: "5160", fourG: true }],
  ["833", "Redmi Pad SE", ["23073RPBFG"], "13", { tablet: true, cpu: ["Qualcomm Snapdragon 680"], display: "IPS LCD", size: '11"', x: "1200", y: "1920", battery: "8000" }],
  ["834", "Xiaomi Pad 6", ["23043RP34G"], "13", { tablet: true, cpu: ["Qualcomm Snapdragon 870"], display: "IPS LCD", size: '11"', x: "1800", y: "2880", battery: "8840" }],
];
const OPPO = [
  ["841", "A78 5G", ["CPH2483", "CPH2495"], "13", { cpu: ["MediaTek Dimensity 700"], display: "IPS LCD", size: '6.56"', x: "720", y: "1612", battery: "5000" }],
  ["842", "A79 5G", ["CPH2553"], "13", { cpu: ["MediaTek Dimensity 6020"], display: "IPS LCD", size: '6.72"', x: "1080", y: "2400", battery: "5000" }],
  ["843", "A58", ["CPH2577"], "13", { cpu: ["MediaTek Helio G85"], display: "IPS LCD", size: '6.72"', x: "1080", y: "2400", battery: "5000", fourG: true }],
  ["844", "A57", ["CPH2387"], "12", { cpu: ["MediaTek Helio G35"], display: "IPS LCD", size: '6.56"', x: "720", y: "1612", battery: "5000", fourG: true }],
  ["845", "A38", ["CPH2579"], "13", { cpu: ["MediaTek Helio G85"], display: "IPS LCD", size: '6.56"', x: "720", y: "1612", battery: "5000", fourG: true }],
  ["846", "A18", ["CPH2591"], "14", { cpu: ["MediaTek Helio G85"], display: "IPS LCD", size: '6.56"', x: "720", y: "1612", battery: "5100", fourG: true }],
  ["847", "A17", ["CPH2477"], "12", { cpu: ["MediaTek Helio G35"], display: "IPS LCD", size: '6.56"', x: "720", y: "1612", battery: "5000", fourG: true }],
  ["848", "Reno12 5G", ["CPH2625"], "14", { cpu: ["MediaTek Dimensity 7300-Energy"], display: "AMOLED", size: '6.7"', x: "1080", y: "2412", battery: "5000" }],
  ["849", "Reno11 F 5G", ["CPH2603"], "14", { cpu: ["MediaTek Dimensity 7050"], display: "AMOLED", size: '6.7"', x: "1080", y: "2412", battery: "5000" }],
  ["850", "Reno10 5G", ["CPH2531"], "13", { cpu: ["MediaTek Dimensity 7050"], display: "AMOLED", size: '6.7"', x: "1080", y: "2412", battery: "5000" }],
  ["851", "Reno8 T", ["CPH2481"], "13", { cpu: ["MediaTek Helio G99"], display: "AMOLED", size: '6.43"', x: "1080", y: "2400", battery: "5000", fourG: true }],
];
const VIVO = [
  ["861", "V30", ["V2318"], "14", { cpu: ["Qualcomm Snapdragon 7 Gen 3"], display: "AMOLED", size: '6.78"', x: "1260", y: "2800", battery: "5000" }],
  ["862", "V29", ["V2250"], "13", { cpu: ["Qualcomm Snapdragon 778G"], display: "AMOLED", size: '6.78"', x: "1260", y: "2800", battery: "4600" }],
  ["863", "Y36", ["V2247"], "13", { cpu: ["Qualcomm Snapdragon 680"], display: "IPS LCD", size: '6.64"', x: "1080", y: "2388", battery: "5000", fourG: true }],
  ["864", "Y17s", ["V2310"], "13", { cpu: ["MediaTek Helio G85"], display: "IPS LCD", size: '6.56"', x: "720", y: "1612", battery: "5000", fourG: true }],
  ["865", "Y22s", ["V2206"], "12", { cpu: ["Qualcomm Snapdragon 680"], display: "IPS LCD", size: '6.55"', x: "720", y: "1612", battery: "5000", fourG: true }],
  ["866", "Y21", ["V2111"], "11", { cpu: ["MediaTek Helio P35"], display: "IPS LCD", size: '6.51"', x: "720", y: "1600", battery: "5000", fourG: true }],
  ["867", "Y16", ["V2204"], "12", { cpu: ["MediaTek Helio P35"], display: "IPS LCD", size: '6.51"', x: "720", y: "1600", battery: "5000", fourG: true }],
  ["868", "Y12s", ["V2026"], "10", { cpu: ["MediaTek Helio P35"], display: "IPS LCD", size: '6.51"', x: "720", y: "1600", battery: "5000", fourG: true }],
];
const MOTOROLA = [
  ["871", "moto g54 5G", ["moto g54 5G"], "13", { cpu: ["MediaTek Dimensity 7020"], display: "IPS LCD", size: '6.5"', x: "1080", y: "2400", battery: "5000" }],
  ["872", "moto g84 5G", ["moto g84 5G"], "13", { cpu: ["Qualcomm Snapdragon 695"], display: "P-OLED", size: '6.55"', x: "1080", y: "2400", battery: "5000" }],
  ["873", "moto g34 5G", ["moto g34 5G"], "14", { cpu: ["Qualcomm Snapdragon 695"], display: "IPS LCD", size: '6.5"', x: "720", y: "1600", battery: "5000" }],
  ["874", "moto g24", ["moto g24"], "14", { cpu: ["MediaTek Helio G85"], display: "IPS LCD", size: '6.56"', x: "720", y: "1612", battery: "5000", fourG: true }],
  ["875", "moto g52", ["moto g52"], "12", { cpu: ["Qualcomm Snapdragon 680"], display: "P-OLED", size: '6.6"', x: "1080", y: "2400", battery: "5000", fourG: true }],
  ["876", "moto g(60)", ["moto g(60)"], "11", { cpu: ["Qualcomm Snapdragon 732G"], display: "IPS LCD", size: '6.8"', x: "1080", y: "2460", battery: "6000", fourG: true }],
  ["877", "moto g(30)", ["moto g(30)"], "11", { cpu: ["Qualcomm Snapdragon 662"], display: "IPS LCD", size: '6.5"', x: "720", y: "1600", battery: "5000", fourG: true }],
  ["878", "moto e13", ["moto e13"], "13", { cpu: ["Unisoc T606"], display: "IPS LCD", size: '6.5"', x: "720", y: "1600", battery: "5000", fourG: true }],
  ["879", "edge 50 pro", ["motorola edge 50 pro"], "14", { cpu: ["Qualcomm Snapdragon 7 Gen 3"], display: "P-OLED", size: '6.7"', x: "1220", y: "2712", battery: "4500" }],
  ["880", "edge 50 fusion", ["motorola edge 50 fusion"], "14", { cpu: ["Qualcomm Snapdragon 7s Gen 2"], display: "P-OLED", size: '6.7"', x: "1080", y: "2400", battery: "5000" }],
  ["881", "edge 40", ["motorola edge 40"], "13", { cpu: ["MediaTek Dimensity 8020"], display: "P-OLED", size: '6.55"', x: "1080", y: "2400", battery: "4400" }],
  ["882", "razr 40 ultra", ["motorola razr 40 ultra"], "13", { cpu: ["Qualcomm Snapdragon 8+ Gen 1"], form: "Clamshell", display: "P-OLED", size: '6.9"', x: "1080", y: "2640", battery: "3800", displayOther: ["Second External 3.6\" 1056x1066"] }],
];
const ONEPLUS = [
  ["891", "12", ["CPH2581", "CPH2573"], "14", { cpu: ["Qualcomm Snapdragon 8 Gen 3"], display: "LTPO AMOLED", size: '6.82"', x: "1440", y: "3168", battery: "5400" }],
  ["892", "12R", ["CPH2609"], "14", { cpu: ["Qualcomm Snapdragon 8 Gen 2"], display: "LTPO AMOLED", size: '6.78"', x: "1264", y: "2780", battery: "5500" }],
  ["893", "11 5G", ["CPH2449", "CPH2447"], "13", { cpu: ["Qualcomm Snapdragon 8 Gen 2"], display: "LTPO AMOLED", size: '6.7"', x: "1440", y: "3216", battery: "5000" }],
  ["894", "10 Pro 5G", ["NE2213", "NE2211", "NE2215"], "12", { cpu: ["Qualcomm Snapdragon 8 Gen 1"], display: "LTPO AMOLED", size: '6.7"', x: "1440", y: "3216", battery: "5000" }],
  ["895", "9 Pro", ["LE2123", "LE2121", "LE2125"], "11", { cpu: ["Qualcomm Snapdragon 888"], display: "LTPO AMOLED", size: '6.7"', x: "1440", y: "3216", battery: "4500" }],
  ["896", "9", ["LE2113", "LE2111", "LE2115"], "11", { cpu: ["Qualcomm Snapdragon 888"], display: "AMOLED", size: '6.55"', x: "1080", y: "2400", battery: "4500" }],
  ["897", "8T", ["KB2003", "KB2001", "KB2005"], "11", { cpu: ["Qualcomm Snapdragon 865"], display: "AMOLED", size: '6.55"', x: "1080", y: "2400", battery: "4500" }],
  ["898", "8 Pro", ["IN2023", "IN2021", "IN2025"], "10", { cpu: ["Qualcomm Snapdragon 865"], display: "AMOLED", size: '6.78"', x: "1440", y: "3168", battery: "4510" }],
  ["899", "7T", ["HD1903", "HD1901", "HD1905"], "10", { cpu: ["Qualcomm Snapdragon 855+"], display: "AMOLED", size: '6.55"', x: "1080", y: "2400", battery: "3800", fourG: true }],
  ["890", "Nord CE 3 Lite 5G", ["CPH2467", "CPH2465"], "13", { cpu: ["Qualcomm Snapdragon 695"], display: "IPS LCD", size: '6.72"', x: "1080", y: "2400", battery: "5000" }],
  ["889", "Nord 3 5G", ["CPH2493", "CPH2491"], "13", { cpu: ["MediaTek Dimensity 9000"], display: "AMOLED", size: '6.74"', x: "1240", y: "2772", battery: "5000" }],
  ["888", "Nord CE4", ["CPH2613"], "14", { cpu: ["Qualcomm Snapdragon 7 Gen 3"], display: "AMOLED", size: '6.7"', x: "1080", y: "2412", battery: "5500" }],
  ["887", "Nord 2 5G", ["DN2103", "DN2101"], "11", { cpu: ["MediaTek Dimensity 1200-AI"], display: "AMOLED", size: '6.43"', x: "1080", y: "2400", battery: "4500" }],
  ["886", "Nord CE 5G", ["EB2103", "EB2101"], "11", { cpu: ["Qualcomm Snapdragon 750G"], display: "AMOLED", size: '6.43"', x: "1080", y: "2400", battery: "4500" }],
  ["885", "Nord N10 5G", ["BE2029", "BE2026"], "10", { cpu: ["Qualcomm Snapdragon 690"], display: "IPS LCD", size: '6.49"', x: "1080", y: "2400", battery: "4300" }],
  ["884", "Nord N100", ["BE2013", "BE2015"], "10", { cpu: ["Qualcomm Snapdragon 460"], display: "IPS LCD", size: '6.52"', x: "720", y: "1600", battery: "5000", fourG: true }],
];
/**
 * Adds a maker's rows and returns their device-tree keys. `anchored`: the key starts with the ";"
 * before Build.MODEL, for short codes ("V2250", "LE2123") that could occur inside other text.
 */
function makerDevices(vendor, rows, { anchored = false } = {}) {
  const keys = [];
  for (const [id, model, codes, ver, o] of rows) {
    const mobile = o.tablet !== true;
    device(id, android(vendor, model, { ...o, aliases: codes }), [
      ...androidAppUas(codes[0], ver, BUILDS[ver], { mobile }),
      ...codes.slice(1, 2).map((code) => androidAppUas(code, ver, BUILDS[ver], { mobile })[0]),
    ]);
    for (const code of codes) keys.push([anchored ? `;${code}` : code, id]);
  }
  return keys;
}
const MAKER_KEYS = [
  ...makerDevices("Xiaomi", XIAOMI),
  ...makerDevices("OPPO", OPPO),
  ...makerDevices("vivo", VIVO, { anchored: true }),
  ...makerDevices("Motorola", MOTOROLA),
  ...makerDevices("OnePlus", ONEPLUS, { anchored: true }),
];

// --- Amazon -----------------------------------------------------------------------------------
const FIRES = [
  ["601", "Fire HD 10 (13th generation)", "KFTUWI", { dims: "246 x 164.8 x 8.6", weight: "434", size: '10.1"', x: "1200", y: "1920", cpu: ["MediaTek octa-core 2.05GHz"], storage: ["32GB", "64GB"], cameras: ["5MP"], front: "5MP" }],
  ["602", "Fire Max 11", "KFSNWI", { dims: "259.1 x 163.7 x 7.5", weight: "490", size: '11"', x: "1200", y: "2000", cpu: ["MediaTek MT8188J"], storage: ["64GB", "128GB"], cameras: ["8MP"], front: "8MP" }],
  ["603", "Fire HD 8 (12th generation)", "KFRAWI", { dims: "201.9 x 137.3 x 9.6", weight: "337", size: '8"', x: "800", y: "1280", cpu: ["MediaTek hexa-core 2.0GHz"], storage: ["32GB", "64GB"], cameras: ["2MP"], front: "2MP" }],
];
for (const [id, model, code, o] of FIRES) {
  device(id, android("Amazon", model, { ...o, tablet: true, platform: "Fire OS", aliases: [code], display: "IPS LCD", slot: true }), [
    `Mozilla/5.0 (Linux; Android 11; ${code}) AppleWebKit/537.36 (KHTML, like Gecko) Silk/126.4.1 like Chrome/126.0.6478.153 Safari/537.36`,
    `Mozilla/5.0 (Linux; Android 11; ${code} Build/RS8332.3115N; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.153 Safari/537.36`,
  ]);
}
device("604", generic("Amazon", "Fire TV Stick 4K", "TV", "Fire OS", { general_aliases: ["Amazon AFTMM"], general_cpu: ["MediaTek MT8695"], design_formfactor: "Streaming media player", display_x: "1920", display_y: "1080", connectors: ["HDMI", "Micro-USB (power)"] }), [
  "Mozilla/5.0 (Linux; Android 7.1.2; AFTMM Build/NS6297; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.153 Mobile Safari/537.36",
]);

// Fire TV devices: model codes from Amazon's developer documentation ("Fire TV device specifications").
const FIRE_TVS = [
  ["605", "Fire TV Stick 4K Max", "AFTKA", "9", { general_cpu: ["MediaTek MT8695D"], display_x: "3840", display_y: "2160" }],
  ["606", "Fire TV Stick 4K (2nd generation)", "AFTKM", "11", { general_cpu: ["MediaTek MT8696T"], display_x: "3840", display_y: "2160" }],
  ["607", "Fire TV Stick (3rd generation)", "AFTSSS", "9", { general_cpu: ["MediaTek MT8695D"], display_x: "1920", display_y: "1080" }],
  ["608", "Fire TV Stick Lite", "AFTSS", "9", { general_cpu: ["MediaTek MT8695D"], display_x: "1920", display_y: "1080" }],
  ["609", "Fire TV Cube (3rd generation)", "AFTGAZL", "11", { general_cpu: ["Amlogic POP1-G"], display_x: "3840", display_y: "2160" }],
];
for (const [id, model, code, ver, o] of FIRE_TVS) {
  device(id, generic("Amazon", model, "TV", "Fire OS", { general_aliases: [`Amazon ${code}`], design_formfactor: "Streaming media player", connectors: ["HDMI"], ...o }), [
    `Mozilla/5.0 (Linux; Android ${ver}; ${code} Build/PS7633.3445N; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.153 Mobile Safari/537.36`,
    `Mozilla/5.0 (Linux; Android ${ver}; ${code}) AppleWebKit/537.36 (KHTML, like Gecko) Silk/126.4.1 like Chrome/126.0.6478.153 Safari/537.36`,
  ]);
}
/** Fire TV model codes, for the device trees (the Fire TV Stick 4K, 604, is older than the list). */
const FIRE_TV_KEYS = longestFirst([["AFTMM", "604"], ...FIRE_TVS.map(([id, , code]) => [code, id])]);
// Apps on Fire TV also send a short "Amazon;<model code>;<device id>;;..." user-agent.
useragentsOf("604").push("Amazon;AFTMM;0a1b2c3d4e5f60718293a4b5c6d7e8f9;;tpapi;3.202.356");

// --- TV boxes and TVs ---------------------------------------------------------------------------
// Cast devices without Android (Chromecast 3rd generation, Nest Hub ...) carry "CrKey/".
device("423", generic("Google", "Chromecast", "TV", "Cast OS", { design_formfactor: "Streaming media player", display_x: "1920", display_y: "1080", connectors: ["HDMI"] }), [
  "Mozilla/5.0 (X11; Linux armv7l) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/90.0.4430.225 Safari/537.36 CrKey/1.56.500000",
]);
device("710", generic("Sony", "BRAVIA (Google TV)", "TV", "Android TV", { general_aliases: ["Sony BRAVIA Android TV"], design_formfactor: "TV", display_x: "3840", display_y: "2160" }), [
  "Mozilla/5.0 (Linux; Android 12; BRAVIA 4K VH2 Build/STT2.230904.001.S21; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.134 Safari/537.36",
  "Mozilla/5.0 (Linux; Android 10; BRAVIA 4K GB ATV3 Build/QTG3.200305.006.S292) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.134 Safari/537.36",
]);
device("835", generic("Xiaomi", "Mi Box S", "TV", "Android TV", { general_aliases: ["Xiaomi MIBOX4"], general_cpu: ["Amlogic S905X"], design_formfactor: "Streaming media player", display_x: "3840", display_y: "2160", connectors: ["HDMI", "USB-A"] }), [
  "Mozilla/5.0 (Linux; Android 9; MIBOX4 Build/PI; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.134 Mobile Safari/537.36",
]);
device("836", generic("Xiaomi", "Mi Box 3", "TV", "Android TV", { general_aliases: ["Xiaomi MIBOX3"], general_cpu: ["Amlogic S905X"], design_formfactor: "Streaming media player", display_x: "3840", display_y: "2160", connectors: ["HDMI", "USB-A"] }), [
  "Mozilla/5.0 (Linux; Android 9; MIBOX3 Build/PI; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/119.0.6045.193 Mobile Safari/537.36",
]);

// --- Consoles and set-top boxes -----------------------------------------------------------------
device("701", generic("Sony", "PlayStation 5", "Console", "PlayStation 5 system software", { general_cpu: ["AMD Zen 2 8-core 3.5GHz"], design_formfactor: "Console", connectors: ["HDMI 2.1", "USB-C", "USB-A", "Ethernet"], network: ["Wi-Fi 6", "Bluetooth 5.1"] }), [
  "Mozilla/5.0 (PlayStation; PlayStation 5/2.26) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.0 Safari/605.1.15",
  "Mozilla/5.0 (PlayStation; PlayStation 5/8.40) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/15.4 Safari/605.1.15",
]);
device("702", generic("Microsoft", "Xbox Series X", "Console", "Xbox system software", { general_cpu: ["AMD Zen 2 8-core 3.8GHz"], design_formfactor: "Console", design_dimensions: "151 x 151 x 301", design_weight: "4450", connectors: ["HDMI 2.1", "USB-A", "Ethernet"], network: ["Wi-Fi 5", "Ethernet"] }), [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64; Xbox; Xbox Series X) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/48.0.2564.82 Safari/537.36 Edge/20.02",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64; Xbox; Xbox Series X) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
]);
device("703", generic("Microsoft", "Xbox One", "Console", "Xbox system software", { general_cpu: ["AMD Jaguar 8-core"], design_formfactor: "Console", connectors: ["HDMI", "USB-A", "Ethernet"] }), [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64; Xbox; Xbox One) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.102 Safari/537.36 Edge/18.19041",
]);
device("704", generic("Nintendo", "Switch", "Console", "Nintendo Switch system software", { general_aliases: ["Nintendo Switch", "Nintendo Switch OLED", "Nintendo Switch Lite"], general_cpu: ["NVIDIA Tegra X1"], design_formfactor: "Hybrid console", display_type: "LCD", display_x: "1280", display_y: "720", display_other: ["Capacitive", "Multitouch"], connectors: ["USB-C"] }), [
  "Mozilla/5.0 (Nintendo Switch; WifiWebAuthApplet) AppleWebKit/601.6 (KHTML, like Gecko) NF/4.0.0.5.10 NintendoBrowser/5.1.0.13343",
  "Mozilla/5.0 (Nintendo Switch; ShareApplet) AppleWebKit/601.6 (KHTML, like Gecko) NF/4.0.0.5.9 NintendoBrowser/5.1.0.13341",
  // The Switch family is one record: the Lite names itself after the applet.
  "Mozilla/5.0 (Nintendo Switch; LoginApplet; Nintendo Switch Lite) AppleWebKit/606.4 (KHTML, like Gecko) NF/6.0.1.16.11 NintendoBrowser/5.1.0.22023",
]);
device("705", generic("NVIDIA", "SHIELD TV", "TV", "Android TV", { general_aliases: ["NVIDIA SHIELD Android TV"], general_cpu: ["NVIDIA Tegra X1+"], design_formfactor: "Streaming media player", display_x: "1920", display_y: "1080", connectors: ["HDMI", "Ethernet"] }), [
  "Mozilla/5.0 (Linux; Android 11; SHIELD Android TV Build/RQ1A.210105.003; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.134 Mobile Safari/537.36",
]);
device("706", generic("Sony", "PlayStation 4", "Console", "PlayStation 4 system software", { general_cpu: ["AMD Jaguar 8-core"], design_formfactor: "Console", connectors: ["HDMI", "USB-A", "Ethernet"] }), [
  "Mozilla/5.0 (PlayStation 4 11.00) AppleWebKit/601.2 (KHTML, like Gecko)",
  "Mozilla/5.0 (PlayStation 4 9.00) AppleWebKit/605.1.15 (KHTML, like Gecko)",
]);
device("707", generic("Sony", "PlayStation Vita", "Console", "PlayStation Vita system software", { design_formfactor: "Handheld console", display_type: "OLED", display_size: '5"', display_x: "960", display_y: "544", display_other: ["Capacitive", "Multitouch"] }), [
  "Mozilla/5.0 (PlayStation Vita 3.74) AppleWebKit/537.73 (KHTML, like Gecko) Silk/3.2",
]);
device("709", generic("Nintendo", "3DS", "Console", "Nintendo 3DS system software", { design_formfactor: "Handheld console", display_type: "LCD", display_x: "800", display_y: "240", display_other: ["Resistive (lower screen)"] }), [
  "Mozilla/5.0 (Nintendo 3DS; U; ; en) Version/1.7630.EU",
  "Mozilla/5.0 (New Nintendo 3DS like iPhone) AppleWebKit/536.30 (KHTML, like Gecko) NX/3.0.0.5.15 Mobile NintendoBrowser/1.3.10126.EU",
]);
device("711", generic("Nintendo", "Wii U", "Console", "Wii U system software", { design_formfactor: "Console", connectors: ["HDMI", "USB-A"] }), [
  "Mozilla/5.0 (Nintendo WiiU) AppleWebKit/536.30 (KHTML, like Gecko) NX/3.0.4.2.12 NintendoBrowser/4.3.1.11264.US",
]);
device("712", generic("Valve", "Steam Deck", "Console", "SteamOS", { general_cpu: ["AMD Zen 2 4-core APU"], design_formfactor: "Handheld console", display_size: '7"', display_x: "1280", display_y: "800", display_other: ["Capacitive", "Multitouch"], connectors: ["USB-C"] }), [
  "Mozilla/5.0 (X11; Linux x86_64; Valve Steam Client/Steam Deck/default/1731454530) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.183 Safari/537.36",
]);


// ---------------------------------------------------------------------------------------------
// Device trees. Each rule: [filter, [[match, id], ...]]; keys are written raw and normalised here.

/** Samsung keys: each model code without its region letter ("SM-S921B" -> "sms921"). */
const samsungKeys = (codes) => [...new Set(codes.map((c) => deviceKey(c).replace(/[a-z]$/, "")))];

const USER_AGENT0 = [
  // 100: Apple hardware identifiers carried by in-app browsers. Specific models before generics.
  ["100", [
    ["iphone", longestFirst(IPHONES.flatMap(([id, , o]) => o.ids.map((hw) => [hw, id])))],
    ["ipad", longestFirst(IPADS.flatMap(([id, , o]) => o.ids.map((hw) => [hw, id])))],
  ]],
  // 200: Android models. Longer names first: "Pixel 9 Pro XL" before "Pixel 9 Pro" before "Pixel 9".
  ["200", [
    ["android", [
      ...SAMSUNG.flatMap(([id, , codes]) => samsungKeys(codes).map((key) => [key, id])),
      ...longestFirst(PIXELS.map(([id, model]) => [model, id])),
      ["Nexus 5X", "501"],
      ...longestFirst(MAKER_KEYS),
      ...FIRES.map(([id, , code]) => [code, id]),
      ...FIRE_TV_KEYS,
      ["Chromecast", "408"],
      ["SHIELD Android TV", "705"],
      ["BRAVIA", "710"],
      ["MIBOX4", "835"],
      ["MIBOX3", "836"],
    ]],
  ]],
  // 300: consoles and TVs that say what they are.
  ["300", [
    ["PlayStation", [["PlayStation 5", "701"], ["PlayStation 4", "706"], ["PlayStation Vita", "707"]]],
    ["Xbox", [["Xbox Series X", "702"], ["Xbox One", "703"]]],
    ["Nintendo", [["Nintendo Switch", "704"], ["Nintendo 3DS", "709"], ["Nintendo WiiU", "711"]]],
    ["Valve Steam", [["Steam Deck", "712"]]],
    ["CrKey/", [["CrKey", "423"]]],
    ["Amazon;AFT", FIRE_TV_KEYS],
    ["Tizen", [["SMART-TV", "316"]]],
    ["Web0S", [["SmartTV", "502"]]],
  ]],
  // 400: iPhone and iPad browsers, which never name the model.
  ["400", [
    ["iPhone", [["iPhone", "201"]]],
    ["iPad", [["iPad", "220"]]],
  ]],
];
const USER_AGENT1 = [
  ["100", [["SmartTV", [["SmartTV", "103"]]], ["HbbTV", [["HbbTV", "103"]]]]],
  // Reduced Chrome user-agents ("Android 10; K") and Firefox name no model: phone if "Mobile".
  ["200", [["Android", [["Mobile", "101"], ["Android", "102"]]]]],
  ["300", [
    ["Windows NT", [["Windows NT", "104"]]],
    ["Macintosh", [["Macintosh", "105"]]],
    ["X11; CrOS", [["CrOS", "107"]]],
    ["X11;", [["Linux", "106"]]],
  ]],
];

// ---------------------------------------------------------------------------------------------
// Extras: platform (ids 9xx) and browser (ids 95x+). Keys use the extra normalisation.

const EXTRAS = [];
function extra(id, hd_specs) {
  EXTRAS.push({ Extra: { _id: id, hd_specs } });
  return id;
}
const platform = (id, name, version = "") =>
  extra(id, { general_platform: name, general_platform_version: version });
const browser = (id, name, version = "") =>
  extra(id, { general_browser: name, general_browser_version: version });

const P = {
  ios18: platform("901", "iOS", "18"),
  ios17: platform("902", "iOS", "17"),
  ios16: platform("903", "iOS", "16"),
  ios: platform("904", "iOS"),
  ipados18: platform("905", "iPadOS", "18"),
  ipados17: platform("906", "iPadOS", "17"),
  ipados16: platform("907", "iPadOS", "16"),
  ipados: platform("908", "iPadOS"),
  android: platform("910", "Android"),
  fireos8: platform("927", "Fire OS", "8"),
  fireos7: platform("928", "Fire OS", "7"),
  windows10: platform("930", "Windows", "10"),
  windows: platform("931", "Windows"),
  macos: platform("932", "macOS"),
  chromeos: platform("933", "ChromeOS"),
  linux: platform("934", "Linux"),
  xbox: platform("935", "Xbox system software"),
  tizen80: platform("940", "Tizen", "8.0"),
  tizen70: platform("941", "Tizen", "7.0"),
  tizen65: platform("942", "Tizen", "6.5"),
  tizen60: platform("943", "Tizen", "6.0"),
  tizen: platform("944", "Tizen"),
  webos24: platform("945", "webOS", "24"),
  webos23: platform("946", "webOS", "23"),
  webos22: platform("947", "webOS", "22"),
  webos6: platform("948", "webOS", "6"),
  webos: platform("949", "webOS"),
};
// iOS and iPadOS majors beyond those above. From iOS 26 on, Safari freezes the OS token at 18_x;
// "26" is read where a user-agent carries it (desktop-mode user-agents rebuilt from Safari's version).
const APPLE_OS = [
  ["26", platform("2001", "iOS", "26"), platform("2011", "iPadOS", "26")],
  ["18", P.ios18, P.ipados18],
  ["17", P.ios17, P.ipados17],
  ["16", P.ios16, P.ipados16],
  ["15", platform("2002", "iOS", "15"), platform("2012", "iPadOS", "15")],
  ["14", platform("2003", "iOS", "14"), platform("2013", "iPadOS", "14")],
  ["13", platform("2004", "iOS", "13"), platform("2014", "iPadOS", "13")],
  ["12", platform("2005", "iOS", "12")],
];
const ANDROID_MAJORS = ["16", "15", "14", "13", "12", "11", "10", "9", "8", "7", "6", "5"];
const ANDROID_IDS = Object.fromEntries(
  ANDROID_MAJORS.map((v, i) => [v, platform(String(911 + i), "Android", v)]),
);

const B = {
  facebook: browser("951", "Facebook App"),
  instagram: browser("952", "Instagram App"),
  googlebot: browser("953", "Googlebot"),
  edge: browser("954", "Edge"),
  opera: browser("955", "Opera"),
  samsung: browser("956", "Samsung Internet"),
  silk: browser("957", "Silk"),
  firefox: browser("958", "Firefox"),
  nintendo: browser("959", "NetFront NX"),
  playstation: browser("960", "PlayStation Browser"),
  webview: browser("961", "Android WebView"),
  chrome: browser("962", "Chrome"),
  safari18: browser("963", "Safari", "18"),
  safari17: browser("964", "Safari", "17"),
  safari16: browser("965", "Safari", "16"),
  safari: browser("966", "Safari"),
};

// Browser versions: one record per major version, as the vendor's data has them. Each version's
// key ends with the "." after the major, and starts with the browser's token and "/", so that
// "chrome/99." cannot catch "chrome/199.". Beyond these ranges the version-less record answers.
let nextBrowserId = 3001;
/** Browser records for majors `from`..`to`, newest first: major → extra id. */
function browserVersions(name, from, to, known = {}) {
  const ids = new Map();
  for (let major = to; major >= from; major--) {
    ids.set(major, known[major] ?? browser(String(nextBrowserId++), name, String(major)));
  }
  return ids;
}
const VERSIONS = {
  chrome: browserVersions("Chrome", 70, 150),
  edge: browserVersions("Edge", 79, 150),
  firefox: browserVersions("Firefox", 60, 150),
  samsung: browserVersions("Samsung Internet", 10, 29),
  opera: browserVersions("Opera", 60, 125),
  safari: browserVersions("Safari", 9, 26, { 18: B.safari18, 17: B.safari17, 16: B.safari16 }),
};
/** The matches of a browser token ("chrome/"): each major, then the token alone. */
const versioned = (token, versions, fallback) => [
  ...[...versions].map(([major, id]) => [`${token}${major}.`, id]),
  [token, fallback],
];

const USER_AGENT_PLATFORM = [
  // 100: platforms that also carry another platform's token (Xbox says "Windows NT", TVs say Linux).
  ["100", [
    ["xbox;", [["xbox", P.xbox]]],
    ["tizen", [["tizen8.0", P.tizen80], ["tizen7.0", P.tizen70], ["tizen6.5", P.tizen65], ["tizen6.0", P.tizen60], ["tizen", P.tizen]]],
    // webOS TV names no version; its Chromium version tells it (LG's developer documentation).
    ["web0s", [["chrome/108.", P.webos24], ["chrome/94.", P.webos23], ["chrome/87.", P.webos22], ["chrome/79.", P.webos6], ["web0s", P.webos]]],
    // Fire OS: Silk on Fire OS 8 reports Android 11, on Fire OS 7 Android 9.
    ["silk/", [["android11;", P.fireos8], ["android9;", P.fireos7]]],
  ]],
  ["200", [
    ["cpuiphoneos", [...APPLE_OS.map(([v, ios]) => [`cpuiphoneos${v}_`, ios]), ["cpuiphoneos", P.ios]]],
    ["(ipad;cpuos", [...APPLE_OS.filter(([, , ipad]) => ipad).map(([v, , ipad]) => [`cpuos${v}_`, ipad]), ["cpuos", P.ipados]]],
    // Reduced Chrome user-agents freeze "Android 10; K": the real version is unknown. Each major
    // key ends with the ";" or "." that follows the number, so "android6." cannot catch "16".
    ["android", [
      ["android10;k)", P.android],
      ...ANDROID_MAJORS.flatMap((v) => [[`android${v};`, ANDROID_IDS[v]], [`android${v}.`, ANDROID_IDS[v]]]),
    ]],
    // Windows 11 still says "Windows NT 10.0".
    ["windowsnt", [["windowsnt10.0", P.windows10], ["windowsnt", P.windows]]],
    // Safari, Chrome and Firefox freeze the macOS version (10_15_7 / 10.15): no version is given.
    ["macintosh;", [["macosx", P.macos]]],
    ["x11;", [["cros", P.chromeos], ["linux", P.linux]]],
  ]],
];
const USER_AGENT_BROWSER = [
  // 100: bots and in-app browsers, whose user-agents also carry a browser token.
  ["100", [
    ["googlebot", [["googlebot", B.googlebot]]],
    ["[fban/", [["fban/", B.facebook]]],
    ["[fb_iab/", [["fb_iab/", B.facebook]]],
    ["instagram", [["instagram", B.instagram]]],
  ]],
  // 200: Chromium and WebKit browsers that name themselves besides "Chrome/" or "Safari/".
  ["200", [
    ["edg/", versioned("edg/", VERSIONS.edge, B.edge)],
    ["edga/", versioned("edga/", VERSIONS.edge, B.edge)],
    ["edgios/", versioned("edgios/", VERSIONS.edge, B.edge)],
    ["edge/", [["edge/", B.edge]]],
    ["opr/", versioned("opr/", VERSIONS.opera, B.opera)],
    ["samsungbrowser/", versioned("samsungbrowser/", VERSIONS.samsung, B.samsung)],
    ["silk/", [["silk/", B.silk]]],
    ["crios/", versioned("crios/", VERSIONS.chrome, B.chrome)],
    ["fxios/", versioned("fxios/", VERSIONS.firefox, B.firefox)],
    ["firefox/", versioned("firefox/", VERSIONS.firefox, B.firefox)],
    ["nintendobrowser/", [["nintendobrowser/", B.nintendo]]],
    ["playstation", [["playstation", B.playstation]]],
  ]],
  ["300", [[";wv)", [["version/4.0", B.webview]]]]],
  ["400", [["chrome/", versioned("chrome/", VERSIONS.chrome, B.chrome)]]],
  ["500", [["safari/", versioned("version/", VERSIONS.safari, B.safari)]]],
];

// ---------------------------------------------------------------------------------------------
// Output

/** A sieve tree as ordered entries, keys normalised with `norm`. Throws on duplicate keys. */
function sieve(orders, norm, where) {
  return orders.map(([order, filters]) => {
    const seenFilters = new Set();
    return [order, filters.map(([filter, matches]) => {
      const f = norm(filter);
      if (f.length < 4) throw new Error(`${where}: filter ${JSON.stringify(filter)} is shorter than 4 bytes`);
      if (seenFilters.has(f)) throw new Error(`${where}: duplicate filter ${f} in order ${order}`);
      seenFilters.add(f);
      const seen = new Set();
      return [f, matches.map(([match, id]) => {
        const m = norm(match);
        if (m.length < 4) throw new Error(`${where}: match ${JSON.stringify(match)} is shorter than 4 bytes`);
        if (seen.has(m)) throw new Error(`${where}: duplicate match ${m} under ${f}`);
        // The first match found wins: a key inside a later one would hide it ("pixel9" before "pixel9pro").
        for (const earlier of seen) {
          if (m.includes(earlier)) throw new Error(`${where}: ${earlier} under ${f} hides the later ${m}`);
        }
        seen.add(m);
        return [m, id];
      })];
    })];
  });
}

/** Serialises a value where ordered entry lists (arrays of [key, value]) become JSON objects. */
function toJson(value, indent = "") {
  const next = `${indent}  `;
  if (isEntries(value)) {
    if (value.length === 0) return "{}";
    return `{\n${value.map(([k, v]) => `${next}${JSON.stringify(k)}: ${toJson(v, next)}`).join(",\n")}\n${indent}}`;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    if (value.every((v) => typeof v === "string")) return `[${value.map((v) => JSON.stringify(v)).join(", ")}]`;
    return `[\n${value.map((v) => `${next}${toJson(v, next)}`).join(",\n")}\n${indent}]`;
  }
  if (value !== null && typeof value === "object") return toJson(Object.entries(value).map(([k, v]) => entry(k, v)), indent);
  return JSON.stringify(value);
}
const ENTRY = Symbol("entry");
function entry(k, v) {
  const e = [k, v];
  e[ENTRY] = true;
  return e;
}
function isEntries(value) {
  return Array.isArray(value) && value.every((e) => Array.isArray(e) && e[ENTRY] === true);
}
/** Marks nested [key, value] lists (trees) as entries, so toJson writes them as objects in order. */
function markTree(node) {
  if (typeof node === "string") return node;
  return node.map(([k, v]) => entry(k, markTree(v)));
}

const notice = { note: NOTE, generated: GENERATED, source: SOURCE };
const specs = {
  _notice: notice,
  devices: DEVICES.map(({ id, specs: hd_specs }) => ({ Device: { _id: id, hd_specs } })),
  extras: EXTRAS,
};
const trees = {
  _notice: notice,
  trees: markTree([
    ["user-agent0", sieve(USER_AGENT0, deviceKey, "user-agent0")],
    ["user-agent1", sieve(USER_AGENT1, deviceKey, "user-agent1")],
    ["profile0", []],
    ["x-operamini-phone0", []],
    ["user-agentplatform", sieve(USER_AGENT_PLATFORM, extraKey, "user-agentplatform")],
    ["user-agentbrowser", sieve(USER_AGENT_BROWSER, extraKey, "user-agentbrowser")],
  ]),
};
const useragents = {
  _notice: {
    note: "For every device of the SAMPLE database, real-format user-agents that its trees detect as that device (test/sample proves it).",
    generated: GENERATED,
    source: SOURCE,
  },
  devices: Object.fromEntries(
    DEVICES.map(({ id, specs: s, userAgents }) => [id, { device: `${s.general_vendor} ${s.general_model}`, userAgents }]),
  ),
};

const outputs = {
  "sample-specs.json": `${toJson(specs)}\n`,
  "sample-trees.json": `${toJson(trees)}\n`,
  "useragents.json": `${toJson(useragents)}\n`,
};
// Sanity: the output is JSON, every tree id has a record, every record is reachable.
const deviceIds = new Set(DEVICES.map((d) => d.id));
const extraIds = new Set(EXTRAS.map((e) => e.Extra._id));
if (deviceIds.size !== DEVICES.length) throw new Error("duplicate device id");
for (const text of Object.values(outputs)) JSON.parse(text);
const treeText = outputs["sample-trees.json"];
for (const [name, tree] of Object.entries(JSON.parse(treeText).trees)) {
  const ids = new Set();
  const walk = (n) => (typeof n === "string" ? ids.add(n) : Object.values(n).forEach(walk));
  walk(tree);
  const known = name.startsWith("user-agentplatform") || name.startsWith("user-agentbrowser") ? extraIds : deviceIds;
  for (const id of ids) if (!known.has(id)) throw new Error(`${name} points at unknown id ${id}`);
}

if (process.argv.includes("--check")) {
  let stale = false;
  for (const [name, text] of Object.entries(outputs)) {
    let current = "";
    try {
      current = readFileSync(join(HERE, name), "utf8");
    } catch {}
    if (current !== text) {
      console.error(`${name} is out of date: run node data/sample/build-sample.mjs`);
      stale = true;
    }
  }
  process.exit(stale ? 1 : 0);
}
for (const [name, text] of Object.entries(outputs)) writeFileSync(join(HERE, name), text);
console.error(`wrote ${DEVICES.length} devices and ${EXTRAS.length} extras to ${HERE}`);
