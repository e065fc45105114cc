/**
 * Names for the broker's request and response shapes, all derived from the generated OpenAPI
 * types (generated.ts): nothing here describes a field by hand.
 */
import type { components, paths } from "./generated";

export type { paths };
export type Method = "get" | "post" | "put" | "patch" | "delete";

/** The paths that declare `method`. */
export type PathsWith<M extends Method> = { [P in keyof paths]: paths[P][M] extends { responses: unknown } ? P : never }[keyof paths];
export type Operation<P extends keyof paths, M extends Method> = paths[P][M] extends infer O ? (O extends { responses: unknown } ? O : never) : never;

type Json<R> = R extends { content: { "application/json": infer J } } ? J : never;
/** The JSON body of the operation's 2xx answer. */
export type SuccessBody<O> = O extends { responses: infer R } ? Json<R[Extract<keyof R, 200 | 201 | 202>]> : never;
export type RequestBody<O> = O extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;
export type PathParams<O> = O extends { parameters: { path: infer PP } } ? PP : never;
export type QueryParams<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** The answer of `method path`, e.g. `ApiResult<"get", "/v1/me">`. */
export type ApiResult<M extends Method, P extends PathsWith<M>> = SuccessBody<Operation<P, M>>;
export type ApiBody<M extends Method, P extends PathsWith<M>> = RequestBody<Operation<P, M>>;
export type ApiQuery<M extends Method, P extends PathsWith<M>> = QueryParams<Operation<P, M>>;

type Schemas = components["schemas"];
export type Approval = Schemas["Approval"];
export type ApprovalRequirementRule = Approval["approvers"]["rule"];
export type ApprovalVote = Approval["approvers"]["votes"][number];
export type ApprovalDelivery = Approval["deliveries"][number];
export type ArgumentChange = NonNullable<Approval["edit"]>["changes"][number];
export type ApprovalListStatus = NonNullable<ApiQuery<"get", "/v1/approvals">["status"]>;
export type Decision = ApiBody<"post", "/v1/approvals/{id}/decide">;
export type Member = ApiResult<"get", "/v1/members">["data"][number];
export type MemberPatch = ApiBody<"patch", "/v1/members/{id}">;
export type ApprovalSettings = ApiResult<"get", "/v1/approval-settings">;
export type ApprovalSettingsBody = ApiBody<"put", "/v1/approval-settings">;
export type Branding = ApiResult<"get", "/v1/branding">;
export type BrandingPatch = ApiBody<"patch", "/v1/branding">;
export type ApprovalRisk = Approval["risk"];
export type AgentApp = Schemas["AgentApp"];
export type AuditEvent = Schemas["AuditEvent"];
export type Connection = Schemas["Connection"];
export type ControlKey = Schemas["ControlKey"];
export type ErrorEnvelope = Schemas["ErrorEnvelope"];
export type WebhookEndpoint = Schemas["WebhookEndpoint"];
export type WebhookDelivery = Schemas["WebhookDelivery"];
export type BillingPlanMatch = Schemas["BillingPlanMatch"];
export type CatalogueProvider = Schemas["CatalogueProvider"];
export type CatalogueTool = Schemas["CatalogueTool"];
export type CatalogueEnv = CatalogueTool["env"];

export type Me = ApiResult<"get", "/v1/me">;
export type TenantMembership = Me["tenants"][number];
export type Role = TenantMembership["role"];
export type ConsoleConfig = ApiResult<"get", "/v1/console/config">;
export type Health = ApiResult<"get", "/v1/ops/health">;
export type ProviderReadiness = NonNullable<Health["providers"]>[number];
export type CreatedControlKey = ApiResult<"post", "/v1/keys">;
export type CreatedWebhook = ApiResult<"post", "/v1/webhooks">;
export type WebhookEvent = NonNullable<ApiBody<"post", "/v1/webhooks">["events"]>[number];
export type WebhookTestResult = ApiResult<"post", "/v1/webhooks/{id}/test">;
export type PolicyDocument = ApiResult<"get", "/v1/policy">;
export type PolicyRules = ApiBody<"put", "/v1/policy">["rules"];
export type SimulateBody = ApiBody<"post", "/v1/policy/simulate">;
export type SimulateResult = ApiResult<"post", "/v1/policy/simulate">;
export type Tool = ApiResult<"get", "/v1/tools">["data"][number];
export type ToolImportBody = ApiBody<"post", "/v1/providers/{id}/tools/import">;
export type ToolImportResult = ApiResult<"post", "/v1/providers/{id}/tools/import">;
export type UsageReport = ApiResult<"get", "/v1/usage">;
export type UsageRow = UsageReport["data"][number];
export type BillingStatus = ApiResult<"get", "/v1/billing/status">;
export type Invoice = ApiResult<"post", "/v1/billing/invoice-preview">;
export type Env = Connection["env"];
export type RevealedArguments = ApiResult<"post", "/v1/approvals/{id}/arguments">;
export type PolicyVersion = ApiResult<"get", "/v1/policy/versions">["data"][number];
export type AuditVerification = ApiResult<"get", "/v1/audit/verify">;
export type DailyUsage = ApiResult<"get", "/v1/usage/daily">;
export type DailyUsageRow = DailyUsage["data"][number];
export type PolicyTemplate = ApiResult<"get", "/v1/policy/templates">["data"][number];
export type PolicyComparison = ApiResult<"post", "/v1/policy/compare">;
export type ComparedDecision = PolicyComparison["results"][number];
