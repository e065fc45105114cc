import type { Kysely } from "kysely";

/**
 * A tenant's branding on the pages its end users open (the hosted connect page): the name they
 * know the application by and its logo. The logo is the image itself (PNG, JPEG or WebP, checked
 * by its bytes, at most 100 KiB), kept as base64 text so both engines store it the same way; the
 * broker sends it inside its own pages, so an end user's browser never fetches a URL of the
 * tenant's choosing.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("tenant_branding")
    .ifNotExists()
    .addColumn("tenant_id", "text", (c) => c.primaryKey().references("tenants.id").onDelete("cascade"))
    .addColumn("display_name", "text")
    .addColumn("logo_base64", "text")
    .addColumn("logo_content_type", "text")
    .addColumn("logo_sha256", "text")
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("updated_by", "text", (c) => c.notNull())
    .execute();
}
