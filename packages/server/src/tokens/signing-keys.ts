/**
 * The broker's own EdDSA signing keys. Private halves are sealed under the master key; public
 * halves are served at /.well-known/jwks.json. If the sealed key cannot be opened, minting
 * fails with vault_unavailable and nothing is replaced, so a wrong master key never orphans
 * the stored key.
 */
import { randomUUID } from "node:crypto";
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from "jose";
import type { Clock } from "../clock.js";
import type { Store } from "../store/database.js";
import { signingKeyAad, type Vault } from "../vault/vault.js";

export const BROKER_JWT_ALGORITHM = "EdDSA";

export type SigningKeys = {
  publicJwks(): { keys: JWK[] };
  /** The active private key; throws vault_unavailable when it cannot be opened. */
  activeSigner(): Promise<{ kid: string; key: CryptoKey }>;
  /** Reloads public keys, e.g. when a token names a kid another instance created. */
  refresh(): Promise<void>;
};

type SigningKeyDeps = { store: Pick<Store, "db">; vault: Pick<Vault, "sealSystem" | "openSystem">; clock: Clock };

export async function loadSigningKeys({ store, vault, clock }: SigningKeyDeps): Promise<SigningKeys> {
  const { db } = store;
  let publicKeys: JWK[] = [];
  let signer: { kid: string; key: CryptoKey } | undefined;

  async function refresh() {
    const rows = await db.selectFrom("signing_keys").select(["kid", "public_jwk", "status"]).orderBy("created_at").execute();
    publicKeys = rows.map((row) => JSON.parse(row.public_jwk) as JWK);
  }

  async function ensureActiveKey() {
    const existing = await db.selectFrom("signing_keys").select("kid").where("status", "=", "active").executeTakeFirst();
    if (existing) return;
    const { publicKey, privateKey } = await generateKeyPair(BROKER_JWT_ALGORITHM, { crv: "Ed25519", extractable: true });
    const kid = randomUUID();
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: BROKER_JWT_ALGORITHM, use: "sig" };
    const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: BROKER_JWT_ALGORITHM };
    await db
      .insertInto("signing_keys")
      .values({
        kid,
        algorithm: BROKER_JWT_ALGORITHM,
        public_jwk: JSON.stringify(publicJwk),
        private_key_sealed: vault.sealSystem(JSON.stringify(privateJwk), signingKeyAad(kid)),
        status: "active",
        created_at: clock.now().toISOString(),
      })
      .execute();
  }

  await ensureActiveKey();
  await refresh();

  return {
    publicJwks: () => ({ keys: publicKeys }),
    refresh,
    async activeSigner() {
      if (signer) return signer;
      const row = await db
        .selectFrom("signing_keys")
        .select(["kid", "private_key_sealed"])
        .where("status", "=", "active")
        .orderBy("created_at", "desc")
        .executeTakeFirstOrThrow();
      const jwk = JSON.parse(vault.openSystem(row.private_key_sealed, signingKeyAad(row.kid))) as JWK;
      signer = { kid: row.kid, key: (await importJWK(jwk, BROKER_JWT_ALGORITHM)) as CryptoKey };
      return signer;
    },
  };
}
