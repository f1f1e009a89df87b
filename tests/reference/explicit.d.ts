export * from "./api.js";
