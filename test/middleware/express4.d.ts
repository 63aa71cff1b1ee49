// Types for the `express4` alias (express@4 installed under another name): the same API as express.

declare module "express4" {
  import express from "express";
  export default express;
}
