// User-agents several test files detect on.

/** Chrome's WebView on a Samsung Galaxy S24 (SM-S921B): a device of the embedded sample database. */
export const GALAXY_S24_UA =
  "Mozilla/5.0 (Linux; Android 14; SM-S921B Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.122 Mobile Safari/537.36";

/** Safari on an iPhone (iOS 17.5): the generic Apple iPhone (1179 x 2556) of the embedded sample database. */
export const IPHONE_SAFARI_UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
