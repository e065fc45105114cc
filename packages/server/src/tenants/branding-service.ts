/**
 * A tenant's branding: the name and logo its end users see on the hosted pages (the connect page).
 * Without a display name the page shows the tenant's own name; without a logo, a badge with its
 * initial. Changes are audited as `branding.updated` (the logo by its type, size and hash).
 */
import type { AuditActor, AuditLog } from "../audit/audit-log.js";
import type { Clock } from "../clock.js";
import type { Store } from "../store/database.js";
import { checkLogo, type LogoContentType } from "./branding-logo.js";
import type { BrandingFields, BrandingQueries } from "./branding-queries.js";
import type { TenantQueries } from "./tenant-queries.js";

export type BrandingLogo = { contentType: LogoContentType; base64: string; sha256: string; bytes: number };
export type Branding = { displayName: string | null; logo: BrandingLogo | null; updatedAt: string | null; updatedBy: string | null };
/** What an end user's page shows: a name always, a logo when the tenant set one. */
export type PageBranding = { name: string; logo: { contentType: LogoContentType; base64: string } | null };

/** `undefined` keeps a field; `null` clears it. */
export type BrandingChange = {
  display_name?: string | null | undefined;
  logo?: { content_type: LogoContentType; data_base64: string } | null | undefined;
};

type BrandingServiceDeps = {
  store: Pick<Store, "transaction">;
  queries: BrandingQueries;
  tenants: Pick<TenantQueries, "findTenant">;
  audit: Pick<AuditLog, "appendIn">;
  clock: Clock;
};

const NO_BRANDING: Branding = { displayName: null, logo: null, updatedAt: null, updatedBy: null };

export function createBrandingService({ store, queries, tenants, audit, clock }: BrandingServiceDeps) {
  async function get(tenantId: string): Promise<Branding> {
    const row = await queries.find(tenantId);
    if (!row) return NO_BRANDING;
    const logo =
      row.logo_base64 && row.logo_content_type && row.logo_sha256
        ? { contentType: row.logo_content_type, base64: row.logo_base64, sha256: row.logo_sha256, bytes: Buffer.byteLength(row.logo_base64, "base64") }
        : null;
    return { displayName: row.display_name, logo, updatedAt: row.updated_at, updatedBy: row.updated_by };
  }

  return {
    get,

    /** Sets the fields the change names; a change that names none writes nothing (and audits nothing). */
    async update(tenantId: string, change: BrandingChange, actor: AuditActor): Promise<Branding> {
      if (change.display_name === undefined && change.logo === undefined) return get(tenantId);
      const fields: BrandingFields = {};
      if (change.display_name !== undefined) fields.display_name = change.display_name;
      let logoAudit: Record<string, unknown> | null | undefined;
      if (change.logo === null) {
        Object.assign(fields, { logo_base64: null, logo_content_type: null, logo_sha256: null });
        logoAudit = null;
      } else if (change.logo !== undefined) {
        const logo = checkLogo(change.logo);
        Object.assign(fields, { logo_base64: logo.base64, logo_content_type: logo.contentType, logo_sha256: logo.sha256 });
        logoAudit = { content_type: logo.contentType, bytes: logo.bytes, sha256: logo.sha256 };
      }
      await store.transaction(async (trx) => {
        await queries.upsertFields(tenantId, fields, { updated_at: clock.now().toISOString(), updated_by: actor.id }, trx);
        const data = { ...(change.display_name !== undefined ? { display_name: change.display_name } : {}), ...(logoAudit !== undefined ? { logo: logoAudit } : {}) };
        await audit.appendIn({ tenantId, actor, action: "branding.updated", target: { type: "tenant", id: tenantId }, data }, trx);
      });
      return get(tenantId);
    },

    /** The branding of a tenant's end-user pages: its display name (or the tenant's name) and logo. */
    async forPage(tenantId: string): Promise<PageBranding> {
      const [branding, tenant] = await Promise.all([get(tenantId), tenants.findTenant(tenantId)]);
      const name = branding.displayName ?? tenant?.name ?? "";
      return { name, logo: branding.logo ? { contentType: branding.logo.contentType, base64: branding.logo.base64 } : null };
    },
  };
}

export type BrandingService = ReturnType<typeof createBrandingService>;
