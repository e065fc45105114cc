/**
 * The broker's own EdDSA signing keys. Private halves are sealed under the master key; public
 * halves are served at /.well-known/jwks.json. If the sealed key cannot be opened, minting
 * fails with vault_unavailable and nothing is replaced, so a wrong master key never orphans
 * the stored key.
 */
import { randomUUID } from "node:crypto";
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from "jose";
import type { Clock } from "../clock.js";
import type { MasterKeyResealer, Vault } from "../vault/vault.js";
import type { SigningKeyQueries } from "./signing-key-queries.js";

export const BROKER_JWT_ALGORITHM = "EdDSA";

/** Binds a sealed private key to its kid: it cannot be moved to another key's row. */
const signingKeyAad = (kid: string) => `signing_key:${kid}`;

export type SigningKeys = {
  publicJwks(): { keys: JWK[] };
  /** The active private key; throws vault_unavailable when it cannot be opened. */
  activeSigner(): Promise<{ kid: string; key: CryptoKey }>;
  /** Reloads public keys, e.g. when a token names a kid another instance created. */
  refresh(): Promise<void>;
};

type SigningKeyDeps = { queries: SigningKeyQueries; vault: Pick<Vault, "sealSystem" | "openSystem">; clock: Clock };

export async function loadSigningKeys({ queries, vault, clock }: SigningKeyDeps): Promise<SigningKeys> {
  let publicKeys: JWK[] = [];
  let signer: { kid: string; key: CryptoKey } | undefined;

  async function refresh() {
    publicKeys = (await queries.publicJwks()).map((jwk) => JSON.parse(jwk) as JWK);
  }

  async function ensureActiveKey() {
    if (await queries.hasActiveKey()) return;
    const { publicKey, privateKey } = await generateKeyPair(BROKER_JWT_ALGORITHM, { crv: "Ed25519", extractable: true });
    const kid = randomUUID();
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: BROKER_JWT_ALGORITHM, use: "sig" };
    const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: BROKER_JWT_ALGORITHM };
    await queries.insert({
      kid,
      algorithm: BROKER_JWT_ALGORITHM,
      public_jwk: JSON.stringify(publicJwk),
      private_key_sealed: vault.sealSystem(JSON.stringify(privateJwk), signingKeyAad(kid)),
      status: "active",
      created_at: clock.now().toISOString(),
    });
  }

  await ensureActiveKey();
  await refresh();

  return {
    publicJwks: () => ({ keys: publicKeys }),
    refresh,
    async activeSigner() {
      if (signer) return signer;
      const row = await queries.activePrivateKey();
      const jwk = JSON.parse(vault.openSystem(row.private_key_sealed, signingKeyAad(row.kid))) as JWK;
      signer = { kid: row.kid, key: (await importJWK(jwk, BROKER_JWT_ALGORITHM)) as CryptoKey };
      return signer;
    },
  };
}

/** Re-seals every private key still under an older master key; the vault's rotation calls it. */
export const createSigningKeyResealer =
  (queries: Pick<SigningKeyQueries, "allPrivateKeys" | "replacePrivateKey">): MasterKeyResealer =>
  async (reseal) => {
    let resealed = 0;
    for (const row of await queries.allPrivateKeys()) {
      const sealed = reseal(row.private_key_sealed, signingKeyAad(row.kid));
      if (sealed === undefined) continue;
      await queries.replacePrivateKey(row.kid, sealed);
      resealed += 1;
    }
    return resealed;
  };
