// The bridges `qbridge serve` runs, one line each: a bridge's plug, re-exported from its folder.
// Adding a bridge is its folder under bridges/ and one line here (docs/BRIDGES.md).

export { email } from "../../bridges/email/bridge.ts";
export { telegram } from "../../bridges/telegram/bridge.ts";
