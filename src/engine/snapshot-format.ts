// The engine snapshot's file format: header, block directory, the blocks in order and the numbers block.

/**
 * The format this version writes and reads. Bump it whenever what a snapshot holds changes
 * meaning: a block added, removed or read differently, and ANY change to how the automaton
 * tables are built or laid out (`automatonTablesSteps`, `ScanMemory`, the scan module's reading
 * of them): an older file would load and answer wrongly. A reader refuses every other format,
 * and the data-directory loader then reads the JSON pair. The shipped sample snapshot's test
 * fails when the tables built today differ from it, which is the reminder.
 */
export const SNAPSHOT_FORMAT = 1;

/**
 * The first bytes of every snapshot: a byte above 0x7f (no text file starts so), then `HD3SNAP`.
 * A JSON download, an archive or an empty file fails here with a message that says so.
 */
export const SNAPSHOT_MAGIC: readonly number[] = [0x89, 0x48, 0x44, 0x33, 0x53, 0x4e, 0x41, 0x50];

/**
 * The header, little-endian 32-bit fields after the magic: format, file size in bytes, block
 * count, the CRC-32 of everything before the tables block (the header itself with its two CRC
 * fields left out), the CRC-32 of the tables block. The block directory follows: per block,
 * its offset and its size in bytes.
 */
export const HEADER = {
  format: 8,
  fileBytes: 12,
  blockCount: 16,
  frontCrc: 20,
  tablesCrc: 24,
  /** Where the CRC fields start: the front CRC covers the header up to here, then from {@link HEADER.bytes}. */
  crcFields: 20,
  bytes: 28,
} as const;

/** Bytes of one directory entry: offset, size. */
export const DIRECTORY_ENTRY_BYTES = 8;

/** Every block starts at a multiple of this, so that 32-bit views of it need no copy. */
export const BLOCK_ALIGN = 8;

/** The largest snapshot: offsets and sizes are 32-bit. */
export const MAX_SNAPSHOT_BYTES = 0xffffffff;

/**
 * The blocks, in file order. `i32` blocks are arrays of little-endian 32-bit integers; string
 * columns hold string numbers (in the `strings` pool), -1 for none. The tables block comes
 * last: the reader reads it straight into the scan memory.
 */
export const BLOCKS = [
  /** The named numbers of {@link NUMBERS}. */
  "numbers",
  /** Every distinct string, one after the other: Latin-1, or UTF-16LE when `stringsWide` is 1. */
  "strings",
  /** i32: where each string ends, in UTF-16 code units from the pool's start. */
  "stringEnds",
  /** i32: the specs' `_notice` note, generated, source; then the trees'; -1 each when absent. */
  "notices",
  /** i32 string columns, one entry per device record: id, `general_vendor`, `general_model`. */
  "deviceIds",
  "deviceVendors",
  "deviceModels",
  /** i32: where each device's aliases end in `aliases`; i32: every alias, device after device. */
  "aliasEnds",
  "aliases",
  /** i32: extra ids; four strings per extra (platform, its version, browser, its version). */
  "extraIds",
  "extraFields",
  /**
   * The device records (see `RecordEncoder`): their own string pool (as `strings`, wide when
   * `recordStringsWide` is 1) and its ends; i32: each key list's keys, where each list ends;
   * where each record ends in `records`; i32: the records.
   */
  "recordStrings",
  "recordStringEnds",
  "recordKeyListKeys",
  "recordKeyListEnds",
  "recordEnds",
  "records",
  /** i32 string columns: every tree name of the download; the detection trees it lacked. */
  "treeNames",
  "missingTrees",
  /** Per sieve tree (`user-agent0`, `user-agent1`, `user-agentplatform`, `user-agentbrowser`): see `SieveTree`. */
  ...sieveBlocks("ua0"),
  ...sieveBlocks("ua1"),
  ...sieveBlocks("platform"),
  ...sieveBlocks("browser"),
  /** i32 string columns: each direct tree's keys and ids, in document order. */
  "profile0.keys",
  "profile0.ids",
  "opera0.keys",
  "opera0.ids",
  /** i32 string columns: the ids the device trees name, and the extra trees', in first-seen order. */
  "treeDeviceIds",
  "treeExtraIds",
  /** i32: `EngineData.stepDevice` for the steps 1 to 5, one after the other (see `stepIds` for each length). */
  "stepDevice",
  /** i32: `EngineData.platformRuleSource`, `platformRuleBrowserSource`, `browserRuleSource`. */
  "platformRuleSource",
  "platformRuleBrowserSource",
  "browserRuleSource",
  /** i32 string column: `EngineData.missingDeviceIds`. */
  "missingDeviceIds",
  /** i32: the class entry most code units have, then (code unit, entry) for each of the others. */
  "classEntries",
  /** The scan memory's rows and hit data (`ScanMemory.tablesStart` to `tablesEnd`), stamps all 0. */
  "tables",
] as const;

/** A block's name. */
export type BlockName = (typeof BLOCKS)[number];

/** The sieve trees as the blocks name them, in `TreesData` field names. */
export const SIEVE_FIELDS = ["ua0", "ua1", "platform", "browser"] as const;

function sieveBlocks<T extends string>(tree: T) {
  return [
    `${tree}.filterOrder`,
    `${tree}.filterKey`,
    `${tree}.filterStart`,
    `${tree}.ruleMatch`,
    `${tree}.ruleId`,
    `${tree}.ruleFilter`,
  ] as const;
}

/** The named numbers of the `numbers` block, in order. Sizes of the source pair are -1 when unknown. */
export const NUMBERS = [
  "stringsWide",
  "recordStringsWide",
  "devices",
  "extras",
  "reorderedKeys",
  "specsBytes",
  "treesBytes",
  "deviceTrees",
  "extraTrees",
  "device.rowsAt",
  "device.stride",
  "device.states",
  "device.deletedClass",
  "device.hitDataLength",
  "device.filters",
  "extra.rowsAt",
  "extra.stride",
  "extra.states",
  "extra.deletedClass",
  "extra.hitDataLength",
  "extra.filters",
] as const;

/** A named number. */
export type NumberName = (typeof NUMBERS)[number];
