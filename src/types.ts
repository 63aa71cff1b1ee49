// The data shapes of the Device Detection Web API v3, as this package hands them to callers.

/** Every string field of a v3 device record (`hd_specs`). Numeric values are carried as strings. */
export const DEVICE_STRING_FIELDS = [
  "general_vendor",
  "general_model",
  "general_platform",
  "general_platform_version",
  "general_browser",
  "general_browser_version",
  "general_image",
  "general_eusar",
  "general_type",
  "general_language",
  "design_formfactor",
  "design_dimensions",
  "design_weight",
  "design_antenna",
  "design_keyboard",
  "design_softkeys",
  "display_type",
  "display_color",
  "display_colors",
  "display_size",
  "display_x",
  "display_y",
] as const;

/** Every list-of-string field of a v3 device record (`hd_specs`). */
export const DEVICE_LIST_FIELDS = [
  "general_aliases",
  "general_battery",
  "general_cpu",
  "design_sidekeys",
  "display_other",
  "memory_internal",
  "memory_slot",
  "network",
  "media_camera",
  "media_secondcamera",
  "media_videocapture",
  "media_videoplayback",
  "media_audio",
  "media_other",
  "features",
  "connectors",
] as const;

/** Name of a string field of the device specs. */
export type DeviceStringField = (typeof DEVICE_STRING_FIELDS)[number];
/** Name of a list field of the device specs. */
export type DeviceListField = (typeof DEVICE_LIST_FIELDS)[number];

/**
 * Device specs (`hd_specs`) in the v3 schema, after normalisation: every list field is an array
 * (an empty list that arrived as `""` becomes `[]`), every other field a string.
 */
export type DeviceSpecs = { [K in DeviceStringField]: string } & { [K in DeviceListField]: string[] };

/** Specs of an unknown device: every string field `""`, every list `[]`. Frozen and shared. */
export const EMPTY_SPECS: DeviceSpecs = Object.freeze(
  Object.fromEntries([
    ...DEVICE_STRING_FIELDS.map((f) => [f, ""] as const),
    ...DEVICE_LIST_FIELDS.map((f) => [f, Object.freeze([]) as unknown as string[]] as const),
  ]) as DeviceSpecs,
);

/** A device record as `view` returns it: the specs without the per-request fields. */
export type DeviceRecord = Omit<
  DeviceSpecs,
  "general_platform_version" | "general_browser" | "general_browser_version" | "general_language"
>;

/** Fields of the legacy `product_info` group. Every value is a string, `"true"`/`"false"` flags included. */
export const PRODUCT_INFO_FIELDS = [
  "brand_name",
  "can_assign_phone_number",
  "can_skip_aligned_link_row",
  "device_claims_web_support",
  "device_os",
  "device_os_version",
  "has_qwerty_keyboard",
  "is_tablet",
  "is_wireless_device",
  "marketing_name",
  "mobile_browser",
  "mobile_browser_version",
  "model_extra_info",
  "model_name",
  "nokia_edition",
  "nokia_feature_pack",
  "nokia_series",
  "pointing_method",
  "release_date",
  "uaprof",
  "uaprof2",
  "uaprof3",
  "unique",
  "ununiqueness_handler",
  "hd_image1",
] as const;

/** The legacy `product_info` group of a detect reply. */
export type ProductInfo = Partial<Record<(typeof PRODUCT_INFO_FIELDS)[number], string>>;

/** Fields of the legacy `display` group. Every value is a string. */
export const DISPLAY_FIELDS = [
  "columns",
  "dual_orientation",
  "max_image_height",
  "max_image_width",
  "physical_screen_height",
  "physical_screen_width",
  "resolution_height",
  "resolution_width",
  "rows",
] as const;

/** The legacy `display` group of a detect reply. */
export type DisplayInfo = Partial<Record<(typeof DISPLAY_FIELDS)[number], string>>;

/** The `geoip` group of a detect reply. */
export interface GeoIp {
  country?: string;
  city?: string;
  countrycode?: string;
  region?: string;
  regioncode?: string;
  isp?: string;
  company?: string;
  latitude?: number;
  longitude?: number;
}

/** Detection option words the API knows. Joined with commas on the wire. */
export const KNOWN_DETECT_OPTIONS = ["hd_specs", "legacy", "product_info", "display", "geoip"] as const;

/** One detection option word: one of {@link KNOWN_DETECT_OPTIONS} (others are refused, with a suggestion). */
export type DetectOption = (typeof KNOWN_DETECT_OPTIONS)[number];

/**
 * Request headers as detection reads them: names in lower case, each value one string.
 * Node's `IncomingHttpHeaders` is accepted wherever this package takes headers.
 */
export type DetectionHeaders = Record<string, string>;

/** Headers as callers may hold them: any case, repeated values as arrays, absent ones undefined. */
export type HeadersInput = Readonly<Record<string, string | readonly string[] | undefined>>;

/** What the caller may add to a detection besides the headers. */
export interface DetectParams {
  /** Detection options; default (none) gives `hd_specs`. */
  options?: readonly DetectOption[];
  /** The client's IP address, used by the `geoip` option. */
  ipAddress?: string;
  /**
   * Cancels the detection: a cloud call stops (retries included) and rejects with the signal's
   * reason. The middleware passes the request's budget (`timeoutMs`) here. The local engine
   * answers synchronously and ignores it.
   */
  signal?: AbortSignal;
  /**
   * More lower-case header names the cloud client may send for this call, besides its
   * allow-list (e.g. `["x-att-deviceid"]`). Names that carry credentials or personal data
   * (`cookie`, `x-msisdn`, ...) are refused. The middleware passes its `allowHeaders` here.
   * The local engine reads the headers it is given and ignores it.
   */
  allowHeaders?: readonly string[];
}

/** The JSON body of a detect request: lower-case header names plus `options` and `ipaddress`. */
export type DetectRequestBody = DetectionHeaders & { options?: string; ipaddress?: string };

/** Every reply carries these after normalisation: `status` is always a number. */
export interface ReplyStatus {
  /** API status: 0 on success. */
  status: number;
  /** `OK` on success, otherwise the service's explanation. */
  message: string;
}

/** Reply of detect (cloud or local). */
export interface DetectReply extends ReplyStatus {
  hd_specs?: DeviceSpecs;
  product_info?: ProductInfo;
  display?: DisplayInfo;
  geoip?: GeoIp;
  /** Device class, e.g. `Mobile`, `Tablet`, `Computer`; `Unknown` when nothing was found. */
  class?: string;
}

/** Reply of vendors. */
export interface VendorsReply extends ReplyStatus {
  vendor: string[];
}

/** Reply of models. */
export interface ModelsReply extends ReplyStatus {
  model: string[];
}

/** Reply of view. */
export interface ViewReply extends ReplyStatus {
  device: DeviceRecord;
}

/** One device of a whathas reply. */
export interface DeviceListItem {
  id: string;
  general_vendor: string;
  general_model: string;
}

/** Reply of whathas. The wire reply carries no status; it is normalised to `0`/`OK`. */
export interface WhatHasReply extends ReplyStatus {
  devices: DeviceListItem[];
}

/** The `_notice` object of a download. */
export interface DownloadNotice {
  note: string;
  /** Date-time text of form `YYYY-MM-DD HH:MM:SS`. */
  generated: string;
  source: string;
}

/** One device of a specs download. */
export interface SpecsDevice {
  Device: { _id: string; hd_specs: DeviceSpecs };
}

/** Platform and browser fields that an extra (a `user-agentplatform`/`user-agentbrowser` hit) carries. */
export interface ExtraSpecs {
  general_platform?: string;
  general_platform_version?: string;
  general_browser?: string;
  general_browser_version?: string;
}

/** One extra of a specs download. */
export interface SpecsExtra {
  Extra: { _id: string; hd_specs: ExtraSpecs };
}

/** A fetchspecs download. */
export interface SpecsDownload {
  _notice: DownloadNotice;
  devices: SpecsDevice[];
  /** Platform and browser extras; absent in older downloads. */
  extras?: SpecsExtra[];
}

/**
 * One tree of a trees download. A direct tree maps normalised keys to ids; a sieve tree maps
 * order keys to filters, filters to matches and matches to ids.
 */
export interface TreeNode {
  [key: string]: string | TreeNode;
}

/** A fetchtrees download. Key order inside each tree is significant (document order). */
export interface TreesDownload {
  _notice: DownloadNotice;
  trees: Record<string, TreeNode>;
}

/**
 * The one seam shared by the cloud client and the local engine: detect a device from request
 * headers. The local engine answers "nothing found" (301) and "broken data" (255) as replies;
 * the cloud client, like the vendor kits, rejects with an `HdApiError` for any non-zero status
 * (the reply is kept on the error). Transport, licence and protocol failures always reject.
 */
export interface Detector {
  detect(headers: HeadersInput, params?: DetectParams): DetectReply | Promise<DetectReply>;
}

/** The device database calls, answered by the cloud client or by local data. */
export interface DeviceCatalog {
  vendors(): VendorsReply | Promise<VendorsReply>;
  models(vendor: string): ModelsReply | Promise<ModelsReply>;
  view(vendor: string, model: string): ViewReply | Promise<ViewReply>;
  whatHas(property: string, value: string): WhatHasReply | Promise<WhatHasReply>;
}

/**
 * What decided a device: `user-agent` (the user-agent as sent, the usual case),
 * `client-hints` (the user-agent rebuilt from the User-Agent Client Hints, which name the model
 * a reduced user-agent hides, or a field a rule filled from them, such as Windows 11 behind
 * `Windows NT 10.0`), or `page-script` (the page script's cookie: a touch screen behind a Mac
 * user-agent, an iPad or an iPhone asking for the desktop site, or the model from the screen).
 * `decisions` says which rules filled which fields.
 */
export type DecidedBy = (typeof DECIDED_BY)[number];

/** Every {@link DecidedBy}. */
export const DECIDED_BY = ["user-agent", "client-hints", "page-script"] as const;

/** Who a crawler is, when the request comes from one (`req.device.bot`). */
export interface BotInfo {
  /** The crawler's name as it announces itself, e.g. `Googlebot`, `GPTBot`. */
  readonly name: string;
  readonly category: BotCategory;
}

/** What a crawler is for. */
export type BotCategory = (typeof BOT_CATEGORIES)[number];

/** Every {@link BotCategory}. */
export const BOT_CATEGORIES = [
  "search",
  "ai-crawler",
  "ai-assistant",
  "monitor",
  "feed-reader",
  "social-preview",
  "other",
] as const;

/** One rule above the database that changed a reply, and the fields it set (`class` for the device class). */
export interface RuleDecision {
  readonly rule: string;
  readonly fields: readonly string[];
}

/**
 * A remembered detection (the reply without `geoip`, the crawler, what decided it, the rules'
 * decisions and candidates), keyed by the request's evidence. Never holds geoip.
 */
export interface MemoDevice {
  readonly kind: "device";
  /** Where the reply came from. */
  readonly source: "local" | "cloud";
  readonly reply: DetectReply;
  /** Whether the request comes from a crawler. */
  readonly bot: boolean;
  /** Which crawler, when one is named. */
  readonly botInfo?: BotInfo;
  /** What decided the device; `user-agent` when not set. */
  readonly decidedBy?: DecidedBy;
  /** The rules that changed the reply. */
  readonly decisions?: readonly RuleDecision[];
  /** The models that fit when one alone cannot be told. */
  readonly candidates?: readonly string[];
}

/** A remembered geoip, keyed by client IP. */
export interface MemoGeoIp {
  readonly kind: "geoip";
  readonly geoip: GeoIp;
}

/**
 * What the detector's memo store holds: detections under a key made of the request's evidence,
 * geoip under a key made of the client IP (a visitor's geoip is never served to another visitor).
 */
export type MemoValue = MemoDevice | MemoGeoIp;
