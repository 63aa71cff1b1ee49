// Placeholder until the example app lands.
console.log("example app arrives with a later issue");
