/**
 * The hosted approval page (`/approve/{token}`): an end user deciding their own call, or an
 * approver confirming the choice their email's link made. The signed link is the only credential.
 * A GET decides nothing (mail scanners and link previews follow links); a decision is a post from
 * the page itself, guarded like the connect pages (a cookie and a token the page's form carries).
 */
import { Type, type Static } from "@sinclair/typebox";
import type { FastifyReply } from "fastify";
import type { ConnectPageGuard, GuardedPage } from "../connect/connect-page-guard.js";
import type { App } from "../http/app-type.js";
import { sendPage } from "../http/html-page.js";
import { errorResponses, StringEnum } from "../http/schemas.js";
import { APPROVAL_PAGE_PATH } from "./approval-links.js";
import { APPROVAL_PAGE_DIGEST_FIELD, APPROVAL_PAGE_TOKEN_FIELD, approvalPage, decidedPage } from "./approval-page-html.js";
import type { ApprovalPageService } from "./approval-page-service.js";

export const APPROVAL_PAGE: GuardedPage = {
  name: "approval",
  refusal: "this request did not come from the approval page: open the approval link and press the button there",
};

const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 2000 }) });
const DecideForm = Type.Object(
  {
    decision: Type.Optional(StringEnum(["approve", "deny"] as const)),
    [APPROVAL_PAGE_TOKEN_FIELD]: Type.Optional(Type.String({ maxLength: 2000, description: "The hidden field of the page's form: it proves the post comes from this browser's view of the page" })),
    [APPROVAL_PAGE_DIGEST_FIELD]: Type.Optional(
      Type.String({ pattern: "^sha256:[0-9a-f]{64}$", description: "The hidden field naming the call's digest as the page showed it: an approve counts for that version only" }),
    ),
  },
  { additionalProperties: false },
);
const Html = { description: "An HTML page", content: { "text/html": { schema: Type.String() } } };
const PAGE_ERRORS = errorResponses(400, 403, 404, 409, 410);

type PageRouteDeps = { approvalPages: ApprovalPageService; pageGuard: ConnectPageGuard; publicUrl: string };

export function registerApprovalPageRoutes(app: App, deps: PageRouteDeps) {
  const tags = ["approvals"];
  const pageUrl = (token: string) => `${deps.publicUrl}${APPROVAL_PAGE_PATH}/${token}`;

  app.get(
    `${APPROVAL_PAGE_PATH}/:token`,
    {
      config: { htmlErrors: true },
      schema: {
        tags,
        summary: "The hosted approval page (HTML): the call, and Approve / Deny",
        description:
          "Opened from an approval's `end_user_url` (the end user decides) or from an approver's email link (a confirmation of that link's choice). " +
          "Shows the tool, the account's display name, the agent app, the digest and the arguments with credential-like fields redacted. Decides nothing: " +
          "the page's form posts the decision. 404 for a link that is not valid, 403 forbidden for a link naming someone the approval does not wait for, " +
          "410 approval_link_expired.",
        params: TokenParams,
        response: { 200: Html, ...PAGE_ERRORS },
      },
    },
    async (request, reply) => {
      const view = await deps.approvalPages.open(request.params.token);
      const pageToken = deps.pageGuard.issue(request, reply, view.claims.linkId);
      return sendPage(reply, 200, approvalPage(view, pageUrl(request.params.token), pageToken));
    },
  );

  app.register(async (forms) => {
    // The page's form is the only body these routes take: parsed here only, everything else stays JSON.
    forms.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    forms.post(
      `${APPROVAL_PAGE_PATH}/:token`,
      {
        config: { htmlErrors: true },
        bodyLimit: 16 * 1024,
        schema: {
          tags,
          summary: "Decide from the hosted approval page (form post; answers a page)",
          description:
            `Form fields \`decision\` (approve or deny; an email's link is its own choice) and the page's \`${APPROVAL_PAGE_TOKEN_FIELD}\`, with the cookie the page set: ` +
            "403 forbidden when the post did not come from this browser's view of the page. The link is spent with the decision: 410 approval_link_used afterwards. " +
            `The form's \`${APPROVAL_PAGE_DIGEST_FIELD}\` is the digest the page showed: an approve of a call edited since is 409 approval_changed (the link stays unspent; open it again to review the call as it stands). ` +
            "409 approval_already_decided or approval_expired as for the API's decide; 403 approval_not_eligible for an approver the approval does not wait for.",
          params: TokenParams,
          consumes: ["application/x-www-form-urlencoded"],
          body: DecideForm,
          response: { 200: Html, ...PAGE_ERRORS, ...errorResponses(413, 415) },
        },
      },
      async (request, reply: FastifyReply) => {
        const { token } = request.params as Static<typeof TokenParams>;
        const form = request.body as Static<typeof DecideForm>;
        const opened = await deps.approvalPages.open(token);
        deps.pageGuard.check(request, opened.claims.linkId, form[APPROVAL_PAGE_TOKEN_FIELD]);
        const view = await deps.approvalPages.decide(opened, form.decision, form[APPROVAL_PAGE_DIGEST_FIELD]);
        return sendPage(reply, 200, decidedPage(view, view.claims.kind === "end_user" ? form.decision! : view.claims.kind));
      },
    );
  });
}
