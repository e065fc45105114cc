/**
 * The file `toolbroker login` writes and the HTTP commands read: the broker's URL, the operator's
 * token and tenant, and the control key `token` and `api --as agent` mint broker JWTs with. It
 * holds secrets, so it is written owner-only (0600, in a 0700 folder), replaced atomically, and
 * its contents are never printed.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { UsageError } from "./commands.js";

export type StoredLogin = {
  broker_url: string;
  issuer: string;
  subject: string;
  tenant_id: string;
  tenant_name: string;
  role: string;
  operator_token: string;
  /** Signed in through the broker's development sign-in: an expired token is renewed the same way. */
  development: boolean;
  /** A control key the CLI created for minting broker JWTs (`token`, `api --as agent`). */
  control_keys?: Partial<Record<"test" | "live", { id: string; key: string }>>;
};

const REQUIRED: (keyof StoredLogin)[] = ["broker_url", "subject", "tenant_id", "operator_token"];

export function readLogin(file: string): StoredLogin | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    const login = JSON.parse(text) as StoredLogin;
    if (REQUIRED.every((field) => typeof login[field] === "string")) return login;
  } catch {
    // reported below
  }
  throw new UsageError(`${file} is not a login this CLI wrote: run toolbroker login again (or toolbroker logout to remove it)`);
}

export function requireLogin(file: string): StoredLogin {
  const login = readLogin(file);
  if (!login) throw new UsageError("not logged in: run toolbroker login first");
  return login;
}

export function saveLogin(file: string, login: StoredLogin): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600 });
  // A umask or an older file must not widen it.
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}

export function removeLogin(file: string): boolean {
  const existed = existsSync(file);
  rmSync(file, { force: true });
  return existed;
}
