import type { Migration } from "kysely";
import * as foundation from "./0001-foundation.js";

/** Every migration, in order. Names never change once released. */
export const migrations: Record<string, Migration> = {
  "0001-foundation": foundation,
};
