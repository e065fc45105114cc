/**
 * A ciphertext the vault produced. It is a string in the database, but the brand keeps a plain
 * string from being stored in a sealed column or handed to `vault.open`, and keeps a sealed value
 * recognisable wherever it travels. Only the vault mints one (vault/vault.ts); the type sits
 * below the store so that its schema can name the sealed columns.
 */
declare const sealedBrand: unique symbol;

export type Sealed = string & { readonly [sealedBrand]: true };
