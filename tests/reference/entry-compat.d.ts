export * from "./compat.js";
