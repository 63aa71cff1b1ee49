// What the embedded SAMPLE database holds, for the messages that warn a user it is answering.

/** Devices in the sample database (`data/sample/`); a test holds this to the data. */
export const SAMPLE_DEVICES = 236;
