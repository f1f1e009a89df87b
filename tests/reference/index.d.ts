import "#init";
export * from "./api.js";
