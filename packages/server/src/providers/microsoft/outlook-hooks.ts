/**
 * Outlook's quirks that need code; the rest is data (outlook-mail.ts, outlook-calendar.ts).
 * - Recipients and attendees are objects (`{ emailAddress: { address } }`); a model gives addresses.
 * - A dateTimeTimeZone without its zone is refused, and a PATCH with an empty `location` or
 *   `body` object would blank the event's: what was not given is left out.
 * - sendMail, send, reply, forward, cancel, accept, decline and DELETE answer 202/204 with no
 *   body: the result says what was done, from the arguments.
 * - calendarView's order is unspecified and $orderby takes no nested property, so events are
 *   sorted by start here.
 */
import type { ProviderHooks, ToolHooks } from "../provider-types.js";
import type { UpstreamRequest } from "../upstream-client.js";
import { recipients } from "./graph.js";

type Json = Record<string, any>;

const DEFAULT_TIME_ZONE = "UTC";

/** Fills the message body's content type and turns address lists into Graph recipients. */
function shapeMessage(message: Json, args: Json) {
  if (args.body === undefined) delete message.body;
  else message.body.contentType = args.body_type ?? "text";
  for (const key of ["toRecipients", "ccRecipients", "bccRecipients"]) if (message[key] !== undefined) message[key] = recipients(message[key]);
}

const attendees = (addresses: unknown) =>
  Array.isArray(addresses) ? addresses.map((address) => ({ emailAddress: { address: String(address) }, type: "required" })) : addresses;

/** A dateTimeTimeZone whose dateTime was given keeps it with the zone (UTC when none); an unfilled one goes. */
function zoned(parent: Json, key: string) {
  const value = parent[key] as Json | undefined;
  if (!value || value.dateTime === undefined) delete parent[key];
  else value.timeZone ??= DEFAULT_TIME_ZONE;
}

function shapeEvent(event: Json, args: Json) {
  zoned(event, "start");
  zoned(event, "end");
  if (args.body === undefined) delete event.body;
  if (args.location === undefined) delete event.location;
  if (event.attendees !== undefined) event.attendees = attendees(event.attendees);
}

/** A request hook that edits a copy of the built JSON body. */
const withBody = (edit: (body: Json, args: Json) => void): ToolHooks["request"] => (built: UpstreamRequest, args) => {
  const body = structuredClone((built.body ?? {}) as Json);
  edit(body, args);
  return { ...built, body };
};

/** The result of a call Graph answers without a body. */
const done = (result: (args: Json) => Json): ToolHooks["mapResponse"] => (_response, args) => result(args);

type GraphEvent = Json & { start?: { dateTime?: string; timeZone?: string }; end?: { dateTime?: string; timeZone?: string } };

function eventSummary(event: GraphEvent) {
  return {
    id: event.id,
    subject: event.subject,
    start: event.start?.dateTime,
    end: event.end?.dateTime,
    time_zone: event.start?.timeZone,
    is_all_day: event.isAllDay,
    location: event.location?.displayName,
    organizer: event.organizer?.emailAddress?.address,
    join_url: event.onlineMeeting?.joinUrl,
    show_as: event.showAs,
    response: event.responseStatus?.response,
    is_cancelled: event.isCancelled,
    web_link: event.webLink,
  };
}

type Suggestion = Json & { meetingTimeSlot?: { start?: Json; end?: Json } };

export const outlookHooks: ProviderHooks = {
  tools: {
    "microsoft_outlook.send_mail": {
      request: withBody((body, args) => shapeMessage(body.Message, args)),
      mapResponse: done((args) => ({ sent: true, to: args.to, subject: args.subject })),
    },
    "microsoft_outlook.create_draft": { request: withBody(shapeMessage) },
    "microsoft_outlook.send_draft": { mapResponse: done((args) => ({ sent: true, message_id: args.message_id })) },
    "microsoft_outlook.reply_to_message": { mapResponse: done((args) => ({ sent: true, in_reply_to: args.message_id })) },
    "microsoft_outlook.forward_message": {
      request: withBody((body) => {
        body.ToRecipients = recipients(body.ToRecipients);
      }),
      mapResponse: done((args) => ({ sent: true, forwarded: args.message_id, to: args.to })),
    },
    "microsoft_outlook.delete_message": { mapResponse: done((args) => ({ deleted: true, message_id: args.message_id })) },
    "microsoft_outlook.list_events": {
      mapResponse: ({ body }) => {
        const events = ((body as { value: GraphEvent[] }).value ?? []).map(eventSummary);
        events.sort((a, b) => String(a.start ?? "").localeCompare(String(b.start ?? "")));
        return { events };
      },
    },
    "microsoft_outlook.create_event": { request: withBody(shapeEvent) },
    "microsoft_outlook.update_event": { request: withBody(shapeEvent) },
    "microsoft_outlook.delete_event": { mapResponse: done((args) => ({ deleted: true, event_id: args.event_id })) },
    "microsoft_outlook.cancel_event": { mapResponse: done((args) => ({ cancelled: true, event_id: args.event_id })) },
    "microsoft_outlook.accept_event": { mapResponse: done((args) => ({ response: "accepted", event_id: args.event_id, organizer_told: args.send_response !== false })) },
    "microsoft_outlook.decline_event": { mapResponse: done((args) => ({ response: "declined", event_id: args.event_id, organizer_told: args.send_response !== false })) },
    "microsoft_outlook.find_meeting_times": {
      request: withBody((body) => {
        body.attendees = attendees(body.attendees);
        for (const slot of body.timeConstraint.timeSlots as Json[]) {
          slot.start.timeZone ??= DEFAULT_TIME_ZONE;
          slot.end.timeZone ??= DEFAULT_TIME_ZONE;
        }
      }),
      mapResponse: ({ body }) => {
        const { meetingTimeSuggestions = [], emptySuggestionsReason } = (body ?? {}) as { meetingTimeSuggestions?: Suggestion[]; emptySuggestionsReason?: string };
        return {
          suggestions: meetingTimeSuggestions.map((suggestion) => ({
            start: suggestion.meetingTimeSlot?.start?.dateTime,
            end: suggestion.meetingTimeSlot?.end?.dateTime,
            time_zone: suggestion.meetingTimeSlot?.start?.timeZone,
            confidence: suggestion.confidence,
            organizer_availability: suggestion.organizerAvailability,
            attendees: ((suggestion.attendeeAvailability ?? []) as Json[]).map((a) => ({ address: a.attendee?.emailAddress?.address, availability: a.availability })),
            reason: suggestion.suggestionReason,
          })),
          empty_reason: emptySuggestionsReason || null,
        };
      },
    },
    "microsoft_outlook.get_schedule": {
      request: withBody((body) => {
        body.StartTime.timeZone ??= DEFAULT_TIME_ZONE;
        body.EndTime.timeZone ??= DEFAULT_TIME_ZONE;
      }),
    },
  },
};
