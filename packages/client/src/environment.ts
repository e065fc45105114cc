/**
 * Where is this code running? `ControlClient` holds a control key, which must never ship in a
 * browser bundle or a mobile app, so it refuses to start in one unless told otherwise.
 */

export type ClientSideEnvironment = "browser" | "web worker" | "React Native";

type Globals = {
  window?: unknown;
  document?: unknown;
  Deno?: unknown;
  importScripts?: unknown;
  WorkerGlobalScope?: unknown;
  navigator?: { product?: unknown };
};

/** The client-side environment this looks like, or undefined for a server runtime. */
export function detectClientSide(globals: Globals = globalThis as Globals): ClientSideEnvironment | undefined {
  // Deno 1.x defines `window` but is a server runtime.
  if (globals.Deno !== undefined) return undefined;
  // Checked before any Node detection: an Electron renderer or a jsdom bundle has both.
  if (globals.window !== undefined || globals.document !== undefined) return "browser";
  if (typeof globals.importScripts === "function" || globals.WorkerGlobalScope !== undefined) return "web worker";
  if (globals.navigator?.product === "ReactNative") return "React Native";
  return undefined;
}
