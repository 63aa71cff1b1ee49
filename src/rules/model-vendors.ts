// The maker behind a model code (`SM-S928B`, `CPH2389`, `RMX3085`): the one table of well-known model-code schemes.

/**
 * One scheme: a pattern over the model code as sent (`Sec-CH-UA-Model`, or the user-agent's
 * model), and the maker it names, spelt as the maker spells itself. First match wins, so the
 * narrower schemes (OnePlus among OPPO's `CPH`, Honor among Huawei's `ABC-L29`) come first.
 */
interface ModelScheme {
  readonly pattern: RegExp;
  readonly vendor: string;
}

/**
 * OnePlus models sold under OPPO's `CPH` numbering (since 2021) and its Chinese `P..110` codes,
 * from OnePlus's published specifications. Any other `CPH` code is OPPO's.
 */
const ONEPLUS_CPH =
  /^(?:CPH(?:2381|2389|2399|2401|2409|2411|2413|2415|2417|2419|2423|2447|2449|2451|2459|2465|2467|2469|2487|2491|2493|2513|2551|2569|2573|2581|2583|2585|2605|2609|2611|2613|2619|2621|2645|2647|2649|2653|2655|2661|2663|2691|2707|2709)|P(?:GK|GP|GZ|HB|HK|HP|JA|JD|JE|JF|JX|JZ|KG|KR|KX|LK)(?:110|M10)|OPD(?:2203|2304|2403))$/i;

/**
 * Honor models since its split from Huawei (2020) share Huawei's `ABC-L29` form; these three-letter
 * series are Honor's (Honor 50 to 400, X6 to X9c, Magic 4 to 7, Pad 8/9/X8/X9).
 */
const HONOR_SERIES =
  /^(?:DLI|PLK|HRY|ALI|ANY|BRP|CLK|CMA|CRT|DNN|ELI|ELN|ELP|FNE|GDI|HEY|LGE|LLY|MGI|NTH|NTN|PGT|REA|REP|RKY|RMO|ROD|TFY|VER|VNE|BVL|PTP|FRI|HBN|AGM|BRT|ROL|WDY|MAA|LRA|BKQ|BVK|DUA|TMA|JDY|WOD|VNA)\d?-|-[A-Z0-9]+HN$/i;

/**
 * Huawei's model codes: a series of letters (and a generation digit), then the variant, which
 * starts with the network letters (`L`/`LX` LTE, `NX` 5G, `AL`/`AN`/`TL`/`DL`/`CL`/`UL` Chinese
 * networks, `W` Wi-Fi, `U` 3G) before its number (`ELS-NX9`, `VOG-L29`, `BAH3-W09`, `OCE-AN10`).
 * A code whose variant starts with a digit or another letter (`XYZ-123`, `AB-12C`) is not Huawei's.
 */
const HUAWEI_CODE = /^[A-Z][A-Z0-9]{1,4}-(?:[ACDLNTUW][A-Z]?)\d{1,2}[A-Z]{0,2}$/i;

/** Every scheme, most specific first. */
const MODEL_SCHEMES: readonly ModelScheme[] = [
  // Makers that put their name in the model. POCO, HONOR and nubia are sold as brands of their
  // own (HONOR a separate company since 2020): the brand on the box, not the parent's.
  { pattern: /^POCO/i, vendor: "POCO" },
  {
    pattern: /^(?:Redmi|Xiaomi|Mi(?: |-)|MI |MIX|HM |Hongmi|SHARK |Qin|MiTV|MI ?BOX)/i,
    vendor: "Xiaomi",
  },
  { pattern: /^(?:nubia|Red ?Magic)\b/i, vendor: "nubia" },
  { pattern: /^(?:OnePlus|ONE ?A\d{4}|ONEPLUS)/i, vendor: "OnePlus" },
  { pattern: /^(?:Galaxy|SAMSUNG|Gear )\b/i, vendor: "Samsung" },
  { pattern: /^(?:motorola|moto\b|moto[a-z]|Moto |DROID)/i, vendor: "Motorola" },
  { pattern: /^(?:Pixel|Google|Nexus|Chromecast)/i, vendor: "Google" },
  { pattern: /^HONOR/i, vendor: "Honor" },
  { pattern: /^(?:HUAWEI|nova\b|Mate\b|MediaPad)/i, vendor: "Huawei" },
  { pattern: /^(?:TECNO|CAMON|SPARK|POVA|PHANTOM)\b/i, vendor: "Tecno" },
  { pattern: /^Infinix/i, vendor: "Infinix" },
  { pattern: /^itel/i, vendor: "itel" },
  { pattern: /^(?:Nokia|TA-\d{4})/i, vendor: "Nokia" },
  {
    pattern: /^(?:Sony|Xperia|BRAVIA|XQ-[A-Z]{2}\d{2}|SO-\d{2}[A-Z]|SO[GVL]\d{2}|SGP\d{3})/i,
    vendor: "Sony",
  },
  { pattern: /^(?:ZTE|Blade|Axon)\b/i, vendor: "ZTE" },
  { pattern: /^(?:LG|LM-[A-Z]\d|LGM-|VS\d{3}|VK\d{3}|G Watch|L-\d{2}[A-Z]|LGL|LGV\d{2})/i, vendor: "LG" },
  {
    pattern: /^(?:Lenovo|TB-?\d|TB-[A-Z]\d|TB\d{3}[A-Z]|YT-|YT3-|PB\d?-\d|IdeaTab|ThinkPad)/i,
    vendor: "Lenovo",
  },
  {
    pattern:
      /^(?:ASUS|ZenFone|PadFone|ROG|P0\d[0-9A-Z]$|I00\dD|AI2\d{3}|Z0[01][0-9A-Z]{1,2}D?\b|Z01[A-Z]{2}|ZS\d{3}K[LS]|ZB\d{3}K[LG]|ZC\d{3}K[LG]|ZE\d{3}K[LG]|X00[A-Z]{2})/i,
    vendor: "ASUS",
  },
  // Alcatel's four-digit codes have a 0 second (5033D, 8082, 9032X); TCL's since 2020 do not (6165H, 9137W), but for 904x-909x tablets.
  { pattern: /^(?:Alcatel|ONE ?TOUCH|(?:[4-8]0\d{2}|90[0-3]\d)[A-Z]{1,2}$)/i, vendor: "Alcatel" },
  { pattern: /^(?:TCL\b|(?:[4-9][1-9]\d{2}|90[4-9]\d)[A-Z]{1,2}$|T\d{3}[A-Z]{0,2}$)/i, vendor: "TCL" },
  { pattern: /^vivo\b|^iQOO/i, vendor: "vivo" },
  { pattern: /^realme|^RMX\d{4}|^RMP\d{4}/i, vendor: "realme" },
  { pattern: /^OPPO/i, vendor: "OPPO" },
  { pattern: /^HTC/i, vendor: "HTC" },
  { pattern: /^(?:Nothing|A0(?:63|65|142)$)/i, vendor: "Nothing" },
  { pattern: /^(?:Fairphone|FP[1-6])\b/i, vendor: "Fairphone" },
  { pattern: /^(?:KF[A-Z]{2,6}|AFT[A-Z0-9]{1,6}|AEO[A-Z]{2})$/, vendor: "Amazon" },
  { pattern: /^Meizu|^M\d{3}[A-Z]$/i, vendor: "Meizu" },
  { pattern: /^(?:SH-\d{2}[A-Z]|SHV\d{2}|SHG\d{2}|AQUOS|SHARP)/i, vendor: "Sharp" },
  { pattern: /^(?:Archos)/i, vendor: "Archos" },
  { pattern: /^Hisense|^HLTE\d/i, vendor: "Hisense" },
  { pattern: /^(?:Blackview|BV\d{4})/i, vendor: "Blackview" },
  { pattern: /^(?:Ulefone|Armor \d|Power Armor)/i, vendor: "Ulefone" },
  { pattern: /^CUBOT/i, vendor: "CUBOT" },
  { pattern: /^(?:DOOGEE)/i, vendor: "Doogee" },
  { pattern: /^(?:OUKITEL)/i, vendor: "Oukitel" },
  { pattern: /^(?:UMIDIGI)/i, vendor: "UMIDIGI" },
  { pattern: /^BLU\b/i, vendor: "BLU" },
  { pattern: /^(?:Philips)/i, vendor: "Philips" },
  { pattern: /^(?:Coolpad)/i, vendor: "Coolpad" },
  { pattern: /^(?:Wiko)/i, vendor: "Wiko" },
  { pattern: /^(?:LAVA)\b/i, vendor: "LAVA" },
  { pattern: /^(?:Micromax)/i, vendor: "Micromax" },
  { pattern: /^(?:Kyocera|KY[VT]\d{2}|KC-)/i, vendor: "Kyocera" },
  // Code schemes, after the names: a name beats a code-like remainder.
  {
    pattern: /^(?:SM-[A-Z]\d|GT-[A-Z0-9]|SC-\d{2}[A-Z]|SC[GV]\d{2}|SGH-|SCH-|SPH-|SHV-E|SHW-M)/i,
    vendor: "Samsung",
  },
  { pattern: ONEPLUS_CPH, vendor: "OnePlus" },
  {
    pattern:
      /^(?:A0001|GM19\d{2}|HD19\d{2}|IN20\d{2}|KB20\d{2}|LE2\d{3}|MT2\d{3}|NE2\d{3}|PJ[A-Z]\d{3}|AC200\d|BE20\d{2}|DN210\d|EB210\d|IV2201)$/i,
    vendor: "OnePlus",
  },
  { pattern: /^(?:CPH\d{4}|OP[A-Z0-9]{4,6}|P[A-Z]{2}[0-9A-Z]\d{2}|OPD\d{4}|OW\d{2}W\d)$/i, vendor: "OPPO" },
  { pattern: /^(?:V[12]\d{3}[A-Z]{0,2}|I2\d{3}|PD\d{4}[A-Z]{0,2})$/i, vendor: "vivo" },
  // Xiaomi's model numbers name the line. Since 2023: year and month, one character, two letters
  // for the line (`PC` POCO, `RA`/`RN` Redmi, `RP` Redmi Pad), then the variant and the market
  // (`24069PC21G`); before, a `P` or `C` variant just before the global or Indian market letter
  // marked POCO's version of a shared design (`2201116PG`, `M2010J19CG`).
  {
    pattern: /^(?:\d{4}[0-9A-Z]PC[0-9A-Z]{2,3}|(?:M\d{4}[A-Z]\d{1,2}|\d{6}[0-9A-Z]{1,2})[CP][GI])$/i,
    vendor: "POCO",
  },
  {
    pattern: /^(?:M[12]\d{3}[A-Z0-9]{3,8}|2[0-6](?:0[1-9]|1[0-2])[0-9A-Z]{3,8}|201\d{4,5})$/i,
    vendor: "Xiaomi",
  },
  { pattern: /^XT\d{3,4}/i, vendor: "Motorola" },
  { pattern: /^L\d{5}$/, vendor: "Lenovo" },
  { pattern: HONOR_SERIES, vendor: "Honor" },
  { pattern: HUAWEI_CODE, vendor: "Huawei" },
  { pattern: /^(?:[GH]8\d{3}|J[89]\d{3}|I[34]\d{3}|[CDEF]\d{4})$/, vendor: "Sony" },
  { pattern: /^(?:G[A-Z0-9]{4}|GA\d{5})$/, vendor: "Google" },
  { pattern: /^NX\d{3}J$/i, vendor: "nubia" },
  { pattern: /^Z\d{3,4}[A-Z]{0,2}$/i, vendor: "ZTE" },
  { pattern: /^(?:K[A-Z]\d|X6\d{3}[A-Z]?|X[5-6]\d{2}[A-Z]?)$/i, vendor: "Infinix" },
];

/** Japanese carriers' codes end in the maker's two letters: `605HW`, `901ZT`, `A101OP`. */
const CARRIER_CODE = /^[A-Z]?\d{3}(HW|SH|ZT|LV|SO|KC|OP|XM|SC|FJ|HT)$/i;
const CARRIER_MAKERS: Readonly<Record<string, string>> = {
  HW: "Huawei",
  SH: "Sharp",
  ZT: "ZTE",
  LV: "Lenovo",
  SO: "Sony",
  KC: "Kyocera",
  OP: "OPPO",
  XM: "Xiaomi",
  SC: "Samsung",
  FJ: "Fujitsu",
  HT: "HTC",
};
/** A region suffix some makers add to the code: `8491X_EEA`, `T766H_RU`. */
const REGION_SUFFIX = /_[A-Z]{2,3}$/;

/** What a model code says of its maker. */
export interface ModelMaker {
  /** The maker, spelt as it spells itself (`Samsung`, `OPPO`, `vivo`, `realme`). */
  readonly vendor: string;
  /** The model without the maker's name in front (`Lenovo TB-X505F` → `TB-X505F`). */
  readonly model: string;
}

/** A maker's name heading a model (`Lenovo TB-X505F`, `HUAWEI BTV-W09`, `Google Pixel 8`), to drop. */
const LEADING_NAME =
  /^(?:Lenovo|HUAWEI|HONOR|Samsung|Xiaomi|nubia|Google|TECNO|Infinix|itel|Nokia|Sony|ZTE|LGE?|ASUS|TCL|Alcatel|vivo|realme|OPPO|HTC|Philips|Hisense|Sharp|Archos|Coolpad|Wiko|BLU|Micromax|Kyocera|Meizu)[ _-]+(?=\S)/i;

/**
 * The maker of a model code, from well-known model-code schemes and makers' names; `undefined`
 * when no scheme fits.
 *
 * @example
 * modelMaker("CPH2389"); // { vendor: "OPPO", model: "CPH2389" }
 * modelMaker("Lenovo TB-X505F"); // { vendor: "Lenovo", model: "TB-X505F" }
 */
export function modelMaker(code: string): ModelMaker | undefined {
  const trimmed = code.trim();
  const bare = trimmed.replace(REGION_SUFFIX, "");
  const carrier = CARRIER_CODE.exec(bare)?.[1]?.toUpperCase();
  if (carrier !== undefined) return { vendor: CARRIER_MAKERS[carrier] ?? "", model: trimmed };
  for (const { pattern, vendor } of MODEL_SCHEMES) {
    if (pattern.test(bare)) return { vendor, model: trimmed.replace(LEADING_NAME, "") || trimmed };
  }
  return undefined;
}
