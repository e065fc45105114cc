/** `GET/PATCH /v1/branding`: the name and logo a tenant's end users see on its hosted pages. */
import { Type } from "@sinclair/typebox";
import { BrokerError } from "../errors.js";
import type { App } from "../http/app-type.js";
import { errorResponses, StringEnum, Timestamp } from "../http/schemas.js";
import { LOGO_CONTENT_TYPES, MAX_LOGO_BYTES } from "./branding-logo.js";
import type { Branding, BrandingService } from "./branding-service.js";

const DisplayName = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: "^[^\\u0000-\\u001F\\u007F]*[^\\s\\u0000-\\u001F\\u007F][^\\u0000-\\u001F\\u007F]*$",
  description: "The name your end users know your application by: 1–100 characters, not only spaces, no control characters",
});
const LogoInput = Type.Object(
  {
    content_type: StringEnum(LOGO_CONTENT_TYPES, { description: "What the image is; it must match its bytes (SVG is not accepted)" }),
    data_base64: Type.String({ minLength: 4, maxLength: Math.ceil(MAX_LOGO_BYTES / 3) * 4, pattern: "^[A-Za-z0-9+/]+={0,2}$", description: `The image, standard base64 with padding; at most ${MAX_LOGO_BYTES} bytes decoded` }),
  },
  { additionalProperties: false },
);

const BrandingView = Type.Object(
  {
    display_name: Type.Union([Type.String(), Type.Null()], { description: "As set; null: the pages show the tenant's name" }),
    page_name: Type.String({ description: "The name the pages show: display_name, or else the tenant's name" }),
    logo: Type.Union(
      [
        Type.Object({
          content_type: StringEnum(LOGO_CONTENT_TYPES),
          bytes: Type.Integer(),
          sha256: Type.String(),
          data_url: Type.String({ description: "The image as a data: URL, to show it" }),
        }),
        Type.Null(),
      ],
      { description: "null: the pages show a badge with the name's initial" },
    ),
    updated_at: Type.Union([Timestamp, Type.Null()]),
    updated_by: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: "Branding" },
);

const present = (branding: Branding, pageName: string) => ({
  display_name: branding.displayName,
  page_name: pageName,
  logo: branding.logo
    ? { content_type: branding.logo.contentType, bytes: branding.logo.bytes, sha256: branding.logo.sha256, data_url: `data:${branding.logo.contentType};base64,${branding.logo.base64}` }
    : null,
  updated_at: branding.updatedAt,
  updated_by: branding.updatedBy,
});

export function registerBrandingRoutes(app: App, deps: { branding: BrandingService }) {
  const tags = ["branding"];
  const view = async (tenantId: string) => {
    const [branding, page] = await Promise.all([deps.branding.get(tenantId), deps.branding.forPage(tenantId)]);
    return present(branding, page.name);
  };

  app.get(
    "/v1/branding",
    {
      config: { credentials: ["operator"] },
      schema: { tags, summary: "The name and logo your end users see on the hosted connect page", response: { 200: BrandingView, ...errorResponses(401, 403) } },
    },
    async (request) => view(request.credential.tenantId),
  );

  app.patch(
    "/v1/branding",
    {
      config: { credentials: ["operator"], role: "admin", validationError: { status: 422, code: "invalid_request" } },
      schema: {
        tags,
        summary: "Set the name and logo your end users see on the hosted connect page",
        description:
          "Each field is optional: a field left out keeps its value, `null` clears it. The logo is the image itself, never a URL: PNG, JPEG or WebP, " +
          `at most ${MAX_LOGO_BYTES / 1024} KiB, its \`content_type\` matching its bytes; the broker sends it inside its own pages, so an end user's browser ` +
          "fetches nothing from elsewhere. 422 invalid_request names the field (not base64, too large, not such an image, a type that does not match the bytes). " +
          "Admins only. Audited as `branding.updated` (the logo by type, size and SHA-256).",
        body: Type.Object(
          { display_name: Type.Optional(Type.Union([DisplayName, Type.Null()])), logo: Type.Optional(Type.Union([LogoInput, Type.Null()])) },
          { additionalProperties: false },
        ),
        response: { 200: BrandingView, ...errorResponses(400, 401, 403, 413, 415, 422) },
      },
    },
    async (request) => {
      const { credential } = request;
      if (credential.kind !== "operator") throw new BrokerError("forbidden", "only a tenant member sets the branding");
      await deps.branding.update(credential.tenantId, request.body, { type: "operator", id: `${credential.issuer}|${credential.subject}` });
      return view(credential.tenantId);
    },
  );
}
