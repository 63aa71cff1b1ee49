// How much of a log a report reads to tell its format, and how much it keeps of the lines that do not parse.

/** Lines read to tell the format when none is given. */
export const SNIFF_LINES = 20;
/** Bad lines kept as samples. */
export const BAD_SAMPLES = 10;
/** Longest sample text kept, in characters. */
export const SAMPLE_CHARS = 500;
