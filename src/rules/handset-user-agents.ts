// Real handset user-agent formats that generic bot lists mistake for crawlers: the bot test drops every pattern they trip.

/**
 * User-agents of real people's devices and browsers, one per format, that name-based bot lists
 * (such as `isbot`) flag as crawlers: feature phones that send a bare `Model/firmware`, Java (MIDP)
 * phones that name their `Java/...` runtime, Bada and Wii browsers with a `Name/1.0;` token,
 * Windows Phone 7 (`HTC; Radar`), iOS system clients (`Apple-iPhone3C1/...`), and desktop Internet
 * Explorer with toolbar and add-on tokens (`chromeframe`, `MSN Optimized`, `DMBrowser`, `Library`).
 * Formats that no bot pattern trips (BlackBerry, Symbian, Opera Mini, consoles, in-app browsers)
 * are listed too, so a future `isbot` pattern that flags them is dropped as well.
 *
 * Written for this package from the public descriptions of these formats: the vendors' user-agent
 * conventions (Nokia Series 30/40 and S60, Sony Ericsson `Model/Rxxx` firmware ids and
 * `JavaPlatform/JP-x`, Samsung `SAMSUNG-GT-...` and Bada, LG `LG-Model/Vxx` with Obigo/Teleca
 * browsers and its `gsm.lge.com` UAProf host, Motorola `MOT-...` and MOTOMAGX `OSS/1.0; Chameleon`,
 * RIM `BlackBerry<model>/<os> ... VendorID`, Windows Phone `IEMobile; <maker>; <model>`, Nintendo's
 * Opera and NetFront browsers) and the add-on tokens that Internet Explorer carried in its
 * user-agent. Firmware numbers, build ids and GUIDs are made up in the real formats.
 */
export const HANDSET_USER_AGENTS: readonly string[] = [
  // Nokia Series 30/40: a bare `Model/firmware` (as some gateways forward it), and with MIDP/CLDC.
  "Nokia2330c-2/2.0",
  "Nokia1661/05.71",
  "Nokia2626/2.0 (06.00)",
  "Nokia6300/2.0 (07.21) Profile/MIDP-2.0 Configuration/CLDC-1.1",
  "Nokia2720a-2/2.0 (07.52) Profile/MIDP-2.1 Configuration/CLDC-1.1",
  "NokiaC2-01/5.0 (11.40) Profile/MIDP-2.1 Configuration/CLDC-1.1",
  "Nokia5130c-2/2.0 (07.97) Profile/MIDP-2.1 Configuration/CLDC-1.1 nokia5130c-2/UC Browser7.5.1.77/69/351 UNTRUSTED/1.0",
  "Nokia7210/1.0 (3.09) Profile/MIDP-1.0 Configuration/CLDC-1.0",
  // Nokia S60 and Symbian^3.
  "Mozilla/5.0 (SymbianOS/9.2; U; Series60/3.1 NokiaE71-1/110.07.127; Profile/MIDP-2.0 Configuration/CLDC-1.1 ) AppleWebKit/413 (KHTML, like Gecko) Safari/413",
  "Mozilla/5.0 (SymbianOS/9.4; Series60/5.0 Nokia5800d-1/52.0.007; Profile/MIDP-2.1 Configuration/CLDC-1.1 ) AppleWebKit/525 (KHTML, like Gecko) Version/3.0 BrowserNG/7.2.6.9 3gpp-gba",
  "Mozilla/5.0 (Symbian/3; Series60/5.2 NokiaN8-00/012.002; Profile/MIDP-2.1 Configuration/CLDC-1.1 ) AppleWebKit/533.4 (KHTML, like Gecko) NokiaBrowser/7.3.0 Mobile Safari/533.4 3gpp-gba",
  // Sony Ericsson: `Model/firmware` alone, with NetFront, and with its Java platform version.
  "SonyEricssonK750i/R1CA",
  "SonyEricssonW810i/R4EA",
  "SonyEricssonK800i/R1KG Browser/NetFront/3.3 Profile/MIDP-2.0 Configuration/CLDC-1.1",
  "SonyEricssonK550i/R8BA Browser/NetFront/3.3 Profile/MIDP-2.0 Configuration/CLDC-1.1 UP.Link/6.3.1.20.0",
  "SonyEricssonC905/R1FA Browser/NetFront/3.4 Profile/MIDP-2.1 Configuration/CLDC-1.1 JavaPlatform/JP-8.4.2",
  "SonyEricssonW995/R1EA Browser/NetFront/3.4 Profile/MIDP-2.1 Configuration/CLDC-1.1 JavaPlatform/JP-8.4.4",
  // Samsung feature phones and Bada (Wave) phones with the Dolfin browser.
  "SAMSUNG-SGH-E250/1.0 Profile/MIDP-2.0 Configuration/CLDC-1.1 UP.Browser/6.2.3.3.c.1.101 (GUI) MMP/2.0",
  "SAMSUNG-GT-S3650/S3650XEIK1 NetFront/3.5 Profile/MIDP-2.0 Configuration/CLDC-1.1",
  "Mozilla/5.0 (SAMSUNG; SAMSUNG-GT-S8500/S8500XXJEE; U; Bada/1.0; en-us) AppleWebKit/533.1 (KHTML, like Gecko) Dolfin/2.0 Mobile WVGA SMM-MMS/1.2.0 OPN-B",
  "Mozilla/5.0 (SAMSUNG; SAMSUNG-GT-S5250/S5250XEJK1; U; Bada/1.0; de-de) AppleWebKit/533.1 (KHTML, like Gecko) Dolfin/2.0 Mobile WQVGA SMM-MMS/1.2.0 NexPlayer/3.0 profile/MIDP-2.1 configuration/CLDC-1.1 OPN-B",
  "Mozilla/5.0 (SAMSUNG; SAMSUNG-GT-S8530/S8530XXJK2; U; Bada/1.2; en-gb) AppleWebKit/533.1 (KHTML, like Gecko) Dolfin/2.2 Mobile WVGA SMM-MMS/1.2.0 OPN-B",
  "Mozilla/5.0 (SAMSUNG; SAMSUNG-GT-S5380D/S5380DZHLB1; U; Bada/2.0; zh-cn) AppleWebKit/534.20 (KHTML, like Gecko) Dolfin/3.0 Mobile HVGA SMM-MMS/1.2.0 OPN-B",
  // LG: Obigo/Teleca browsers, the `Java/ASVM` runtime, operator builds, and the UAProf host glued on.
  "LG-GT505/V10c Browser/Teleca-Q7.1 MMS/LG-MMS-V1.0/1.2 MediaPlayer/LGPlayer/1.0 Java/ASVM/1.1 Profile/MIDP-2.1 Configuration/CLDC-1.1",
  "Vodafone/1.0/LG-KU990/V10c Browser/Obigo-Q05A/3.6 MMS/LG-MMS-V1.0/1.2 Java/ASVM/1.1 Profile/MIDP-2.0 Configuration/CLDC-1.1",
  "LG-GB220/V10a Obigo/WAP2.0 Profile/MIDP-2.1 Configuration/CLDC-1.1",
  "LG-GU230/V10d Obigo/WAP2.0 Profile/MIDP-2.1 Configuration/CLDC-1.1 gsm.lge.com/html/gsm/LG-GU230.xml",
  // Motorola: the classic `MOT-` form and the MOTOMAGX (Linux Java) browser.
  "MOT-V3i/08.B4.34R MIB/2.2.1 Profile/MIDP-2.0 Configuration/CLDC-1.1",
  "MOT-L7/08.D5.09R MIB/2.2.1 Profile/MIDP-2.0 Configuration/CLDC-1.1",
  "Mozilla/5.0 (compatible; OSS/1.0; Chameleon; Linux) ZN5/R6637_G_81.03.05R BER/2.0 Profile/MIDP-2.0 Configuration/CLDC-1.1",
  // Java (J2ME) browsers on feature phones.
  "Opera/9.80 (J2ME/MIDP; Opera Mini/4.2.14912/870; U; en) Presto/2.4.15",
  "UCWEB/2.0 (Java; U; MIDP-2.0; en-US; nokia2700c-2) U2/1.0.0 UCBrowser/8.9.0.251 U2/1.0.0 Mobile UNTRUSTED/1.0",
  // BlackBerry: Java OS (bare and MIDP), OS 6/7 WebKit, BlackBerry 10, PlayBook.
  "BlackBerry8310/4.2.2",
  "BlackBerry8520/5.0.0.681 Profile/MIDP-2.1 Configuration/CLDC-1.1 VendorID/600",
  "BlackBerry9700/5.0.0.862 Profile/MIDP-2.1 Configuration/CLDC-1.1 VendorID/331",
  "Mozilla/5.0 (BlackBerry; U; BlackBerry 9800; en-US) AppleWebKit/534.1+ (KHTML, like Gecko) Version/6.0.0.246 Mobile Safari/534.1+",
  "Mozilla/5.0 (BB10; Touch) AppleWebKit/537.10+ (KHTML, like Gecko) Version/10.0.9.2372 Mobile Safari/537.10+",
  "Mozilla/5.0 (PlayBook; U; RIM Tablet OS 2.1.0; en-US) AppleWebKit/536.2+ (KHTML, like Gecko) Version/7.2.1.0 Safari/536.2+",
  // Windows Phone 7 and 8: `IEMobile; maker; model` (the HTC Radar is a model name).
  "Mozilla/5.0 (compatible; MSIE 9.0; Windows Phone OS 7.5; Trident/5.0; IEMobile/9.0; HTC; Radar C110e)",
  "Mozilla/4.0 (compatible; MSIE 7.0; Windows Phone OS 7.0; Trident/3.1; IEMobile/7.0; HTC; Radar 4G)",
  "Mozilla/5.0 (compatible; MSIE 9.0; Windows Phone OS 7.5; Trident/5.0; IEMobile/9.0; NOKIA; Lumia 800)",
  "Mozilla/5.0 (compatible; MSIE 10.0; Windows Phone 8.0; Trident/6.0; IEMobile/10.0; ARM; Touch; NOKIA; Lumia 920)",
  // Nintendo and Sony consoles and handhelds.
  "Opera/9.00 (Nintendo Wii; U; ; 1309-9; Wii Internet Channel/1.0; fr)",
  "Opera/9.30 (Nintendo Wii; U; ; 3642; en)",
  "Opera/9.50 (Nintendo DSi; Opera/507; U; en-US)",
  "Mozilla/5.0 (Nintendo 3DS; U; ; en) Version/1.7412.EU",
  "Mozilla/5.0 (Nintendo WiiU) AppleWebKit/536.28 (KHTML, like Gecko) NX/3.0.3.12.12 NintendoBrowser/2.1.0.10280.EU",
  "Mozilla/4.0 (PSP (PlayStation Portable); 2.00)",
  "Mozilla/5.0 (PlayStation Vita 3.61) AppleWebKit/537.73 (KHTML, like Gecko) Silk/3.2",
  // iOS system clients (`Apple-<device><hardware id>/<build>`), as sent by Apple's own apps.
  "Apple-iPhone3C1/801.293",
  "Apple-iPad2C1/902.206",
  "Apple-iPhone7C2/1202.466",
  // Android: the browser, the Dalvik HTTP client of apps, e-readers and tablets.
  "Mozilla/5.0 (Linux; U; Android 2.3.6; en-us; GT-S5830 Build/GINGERBREAD) AppleWebKit/533.1 (KHTML, like Gecko) Version/4.0 Mobile Safari/533.1",
  "Dalvik/1.6.0 (Linux; U; Android 4.1.2; GT-I9300 Build/JZO54K)",
  "Mozilla/5.0 (Linux; U; Android 4.0.4; en-US; GT-S5360 Build/IMM76D) AppleWebKit/534.31 (KHTML, like Gecko) UCBrowser/9.3.0.321 U3/0.8.0 Mobile Safari/534.31",
  "Mozilla/5.0 (X11; U; Linux armv7l like Android; en-us) AppleWebKit/531.2+ (KHTML, like Gecko) Version/5.0 Safari/531.2+ Kindle/3.0+",
  // In-app browsers of social apps.
  "Mozilla/5.0 (iPhone; CPU iPhone OS 16_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBDV/iPhone14,2;FBMD/iPhone;FBSN/iOS;FBSV/16.5;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5]",
  "Mozilla/5.0 (Linux; Android 13; SM-S911B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/114.0.5735.196 Mobile Safari/537.36 Instagram 290.0.0.13.76 Android (33/13; 480dpi; 1080x2340; samsung; SM-S911B; dm1q; qcom; en_US; 493271211)",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.43(0x18002b2c) NetType/WIFI Language/zh_CN",
  "Mozilla/5.0 (Linux; Android 12; SM-A525F Build/SP1A.210812.016; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/118.0.5993.80 Mobile Safari/537.36 Line/13.18.1/IAB",
  // Smart TVs.
  "Opera/9.80 (Linux mips; U; HbbTV/1.1.1 (; Philips; ; ; ; ) CE-HTML/1.0 NETTV/3.2.1; en) Presto/2.6.33 Version/10.70",
  // Desktop Internet Explorer with toolbar and add-on tokens.
  "Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 5.1; Trident/4.0; GTB7.0; .NET CLR 2.0.50727; .NET CLR 3.0.4506.2152; .NET CLR 3.5.30729; msn OptimizedIE8;ENGB)",
  "Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 6.0; SLCC1; .NET CLR 2.0.50727; MSN Optimized;US; .NET CLR 3.0.04506)",
  "Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; Trident/4.0; chromeframe/11.0.696.57; SLCC2; .NET CLR 2.0.50727; Media Center PC 6.0)",
  "Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; WOW64; Trident/5.0; chromeframe/26.0.1410.64)",
  "Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 6.1; Trident/4.0; SLCC2; .NET CLR 2.0.50727; .NET CLR 3.5.30729); DMBrowser: 6c1e0f4a-2b7d-4e59-9a83-d0f52c7b14e9",
  "Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; Trident/4.0; GTB7.1; SLCC2; .NET CLR 2.0.50727; AskTbPTV/5.11.3.15590; 969806853703; Library2.01182)",
];
