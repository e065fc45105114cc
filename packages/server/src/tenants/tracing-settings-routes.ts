/** `GET/PUT /v1/tracing-settings`: whether a tenant's tool calls pass their trace context on to the upstream. */
import { Type } from "@sinclair/typebox";
import { BrokerError } from "../errors.js";
import type { App } from "../http/app-type.js";
import { errorResponses, Timestamp } from "../http/schemas.js";
import type { TracingSettings } from "./tracing-settings-queries.js";
import type { TracingSettingsService } from "./tracing-settings-service.js";

const PropagateTraceContext = Type.Boolean({
  description:
    "Whether a tool call's W3C trace context (`traceparent`, `tracestate` of the broker's upstream request span) is sent to the provider with the call's request. " +
    "Off by default: the provider would learn which calls belong to one trace. Only has an effect while the broker exports traces (OTEL_* configuration).",
});

const Settings = Type.Object(
  {
    propagate_trace_context: PropagateTraceContext,
    updated_at: Type.Union([Timestamp, Type.Null()], { description: "Null while the tenant keeps the defaults" }),
    updated_by: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: "TracingSettings" },
);

const present = (settings: TracingSettings) => ({ propagate_trace_context: settings.propagateTraceContext, updated_at: settings.updatedAt, updated_by: settings.updatedBy });

export function registerTracingSettingsRoutes(app: App, deps: { tracingSettings: TracingSettingsService }) {
  const tags = ["tenants"];
  app.get(
    "/v1/tracing-settings",
    { config: { credentials: ["operator"] }, schema: { tags, summary: "The tenant's tracing settings", response: { 200: Settings, ...errorResponses(401, 403) } } },
    async (request) => present(await deps.tracingSettings.get(request.credential.tenantId)),
  );

  app.put(
    "/v1/tracing-settings",
    {
      config: { credentials: ["operator"], role: "admin" },
      schema: {
        tags,
        summary: "Set whether the tenant's tool calls pass their trace context to the upstream",
        description: "Admins only (403 for a viewer). Takes effect within 2 seconds on every broker instance. Audited as `tracing_settings.updated`.",
        body: Type.Object({ propagate_trace_context: PropagateTraceContext }, { additionalProperties: false }),
        response: { 200: Settings, ...errorResponses(400, 401, 403, 415, 422) },
      },
    },
    async (request) => {
      const { credential } = request;
      if (credential.kind !== "operator") throw new BrokerError("forbidden", "only a tenant member changes tracing settings");
      const saved = await deps.tracingSettings.put(credential.tenantId, { propagateTraceContext: request.body.propagate_trace_context }, { type: "operator", id: `${credential.issuer}|${credential.subject}` });
      return present(saved);
    },
  );
}
