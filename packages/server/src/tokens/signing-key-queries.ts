/** Every query on `signing_keys`, the broker's own JWT keys; bound to the store once in app.ts. */
import type { Store } from "../store/database.js";
import type { SigningKeysTable } from "../store/schema.js";
import type { Sealed } from "../shared/sealed.js";

export type SigningKeyRow = SigningKeysTable;
export type SealedPrivateKey = Pick<SigningKeyRow, "kid" | "private_key_sealed">;

export function createSigningKeyQueries({ db }: Pick<Store, "db">) {
  return {
    /** Public halves (JSON JWKs), oldest first. */
    async publicJwks(): Promise<string[]> {
      const rows = await db.selectFrom("signing_keys").select("public_jwk").orderBy("created_at").execute();
      return rows.map((row) => row.public_jwk);
    },

    async hasActiveKey(): Promise<boolean> {
      return (await db.selectFrom("signing_keys").select("kid").where("status", "=", "active").executeTakeFirst()) !== undefined;
    },

    insert: (row: SigningKeyRow) => db.insertInto("signing_keys").values(row).execute(),

    /** The newest active key's sealed private half. */
    activePrivateKey: (): Promise<SealedPrivateKey> =>
      db.selectFrom("signing_keys").select(["kid", "private_key_sealed"]).where("status", "=", "active").orderBy("created_at", "desc").executeTakeFirstOrThrow(),

    allPrivateKeys: (): Promise<SealedPrivateKey[]> => db.selectFrom("signing_keys").select(["kid", "private_key_sealed"]).execute(),

    replacePrivateKey: (kid: string, sealed: Sealed) => db.updateTable("signing_keys").set({ private_key_sealed: sealed }).where("kid", "=", kid).execute(),
  };
}

export type SigningKeyQueries = ReturnType<typeof createSigningKeyQueries>;
