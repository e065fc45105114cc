/**
 * `POST /v1/slack/interactivity`: the Slack app's interactivity request URL. Slack posts a
 * form-encoded `payload` when someone presses an approval message's button; the request is
 * believed only with a valid Slack signature over the body exactly as received (slack-signature.ts),
 * checked before anything in it is read. No bearer credential: the signature is the credential.
 */
import { Type, type Static } from "@sinclair/typebox";
import type { FastifyRequest } from "fastify";
import type { Clock } from "../clock.js";
import { notFound } from "../errors.js";
import type { App } from "../http/app-type.js";
import { errorResponses, StringEnum, Uuid } from "../http/schemas.js";
import type { SlackInteractivity } from "./slack-interactivity.js";
import { assertSignedBySlack } from "./slack-signature.js";

/** The body as Slack signed it, kept by the form parser for the signature check. */
const rawBodies = new WeakMap<FastifyRequest, string>();

const headerOf = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return typeof value === "string" ? value : undefined;
};

const PressForm = Type.Object({ payload: Type.String({ minLength: 1, maxLength: 250_000 }) });

const PressAnswer = Type.Object({
  handled: Type.Boolean({ description: "false for an interaction that is not an approval button (acknowledged and ignored)" }),
  approval_id: Type.Optional(Uuid),
  decision: Type.Optional(StringEnum(["approve", "deny"] as const)),
  status: Type.Optional(Type.String({ description: "The approval's status after the press" })),
  reason: Type.Optional(Type.String()),
});

type SlackInteractivityRouteDeps = { slackInteractivity: SlackInteractivity; slackSigningSecret: string | undefined; clock: Clock };

export function registerSlackInteractivityRoutes(app: App, deps: SlackInteractivityRouteDeps) {
  app.register(async (slack) => {
    // Slack posts a form; parsed here only, everything else stays JSON.
    slack.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (request, body, done) => {
      rawBodies.set(request, body as string);
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    slack.post(
      "/v1/slack/interactivity",
      {
        bodyLimit: 256 * 1024,
        preValidation: async (request) => {
          if (!deps.slackSigningSecret) throw notFound("Slack interactivity (BROKER_SLACK_SIGNING_SECRET is not set)");
          const signed = { timestamp: headerOf(request, "x-slack-request-timestamp"), signature: headerOf(request, "x-slack-signature"), rawBody: rawBodies.get(request) ?? "" };
          assertSignedBySlack(deps.slackSigningSecret, signed, deps.clock.now());
        },
        schema: {
          tags: ["approvals"],
          summary: "Slack's interactivity requests: Approve and Deny presses on approval messages",
          description:
            "Set as the Slack app's Interactivity Request URL. Form field `payload` (Slack's `block_actions` JSON); headers `X-Slack-Request-Timestamp` and " +
            "`X-Slack-Signature` (`v0=` HMAC-SHA256 of `v0:{timestamp}:{body}` under `BROKER_SLACK_SIGNING_SECRET`). 401 for a missing or wrong signature or a timestamp " +
            "more than five minutes from now; 404 when the broker has no signing secret, or for an unknown approval; 403 forbidden when the presser's Slack identity " +
            "is no member of the approval's tenant; 409 when the approval was decided or expired, and 409 approval_changed for an Approve on a message showing a call edited since it was posted.",
          consumes: ["application/x-www-form-urlencoded"],
          body: PressForm,
          response: { 200: PressAnswer, ...errorResponses(400, 401, 403, 404, 409, 413, 415) },
        },
      },
      async (request) => {
        const outcome = await deps.slackInteractivity.press((request.body as Static<typeof PressForm>).payload);
        if (!outcome.handled) return { handled: false, reason: outcome.reason };
        return { handled: true, approval_id: outcome.approvalId, decision: outcome.decision, status: outcome.status };
      },
    );
  });
}
