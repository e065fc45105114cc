/**
 * A ciphertext the vault produced. It is a string in the database, but the brand keeps a plain
 * string from being stored in a sealed column or handed to `vault.open`, and keeps a sealed value
 * recognisable wherever it travels. Only the vault mints one (in `vault.ts`).
 */
declare const sealedBrand: unique symbol;

export type Sealed = string & { readonly [sealedBrand]: true };
