// The node app as CommonJS: require() of the ESM-only package (node >= 20.19 loads ES
// modules without top-level await synchronously; the node entry has none).
const { readFileSync } = require("node:fs");
const { Session } = require("agentscope-message");
const { rebuild } = require("./rebuild.js");

console.log(JSON.stringify({ entry: "agentscope-message (require)", ...rebuild(new Session(), new Uint8Array(readFileSync(process.argv[2]))) }));
