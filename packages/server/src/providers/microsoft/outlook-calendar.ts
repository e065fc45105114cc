/**
 * Outlook calendar tools (Microsoft Graph v1.0 /me/events, /me/calendarView, findMeetingTimes,
 * getSchedule). Times are Graph's dateTimeTimeZone: a local date-time and a time zone name
 * (Windows or IANA), so arguments carry both.
 */
import type { ToolDeclaration } from "../declaration-schema.js";
import { addressList, collectionOf, graphId, skip, top } from "./graph.js";

export const EVENT_FIELDS = {
  id: "/id",
  subject: "/subject",
  start: "/start/dateTime",
  start_time_zone: "/start/timeZone",
  end: "/end/dateTime",
  end_time_zone: "/end/timeZone",
  is_all_day: "/isAllDay",
  location: "/location/displayName",
  organizer: "/organizer/emailAddress/address",
  is_online_meeting: "/isOnlineMeeting",
  join_url: "/onlineMeeting/joinUrl",
  show_as: "/showAs",
  response: "/responseStatus/response",
  is_cancelled: "/isCancelled",
  web_link: "/webLink",
};
export const EVENT_SELECT = "id,subject,start,end,isAllDay,location,organizer,isOnlineMeeting,onlineMeeting,showAs,responseStatus,isCancelled,webLink";

const eventId = graphId("The event id (from list_events)");
/** A local date-time as Graph writes it: no offset, the zone travels beside it. */
const localDateTime = (what: string) => ({ type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,7})?)?$", description: `${what}, a local date-time like 2026-03-02T09:30:00` });
const timeZone = { type: "string", minLength: 1, maxLength: 64, pattern: "^[A-Za-z0-9 _/+().,-]+$", description: "Time zone of the times given: IANA (Europe/Paris) or Windows (W. Europe Standard Time) name; default UTC" };
const isoInstant = (what: string) => ({ type: "string", format: "date-time", description: `${what}, an ISO 8601 date-time with offset, e.g. 2026-03-02T00:00:00Z` });

const eventArguments = {
  subject: { type: "string", maxLength: 255, description: "Title of the event" },
  body: { type: "string", maxLength: 100000, description: "Description, as plain text" },
  start: localDateTime("Start"),
  end: localDateTime("End"),
  time_zone: timeZone,
  location: { type: "string", maxLength: 255, description: "Where it takes place" },
  attendees: addressList("People invited (each gets an invitation email)", 500),
  is_online_meeting: { type: "boolean", description: "Add a Teams meeting link" },
  is_all_day: { type: "boolean", description: "An all-day event: start and end are midnights" },
  show_as: { type: "string", enum: ["free", "tentative", "busy", "oof", "workingElsewhere"], description: "How the time shows in free/busy" },
};

/** Start, end and their zone, as Graph takes them (the hook puts UTC when no zone is given). */
const eventBody = {
  subject: "{subject}",
  body: { contentType: "text", content: "{body}" },
  start: { dateTime: "{start}", timeZone: "{time_zone}" },
  end: { dateTime: "{end}", timeZone: "{time_zone}" },
  location: { displayName: "{location}" },
  attendees: "{attendees}",
  isOnlineMeeting: "{is_online_meeting}",
  isAllDay: "{is_all_day}",
  showAs: "{show_as}",
};

const respondArguments = {
  event_id: eventId,
  comment: { type: "string", maxLength: 10000, description: "A note to the organizer" },
  send_response: { type: "boolean", description: "Tell the organizer (default true)" },
};

export const outlookCalendarTools: ToolDeclaration[] = [
  {
    name: "microsoft_outlook.list_events",
    title: "List calendar events",
    description:
      "List the events of the default calendar between two instants, recurring ones expanded into their occurrences, ordered by start. Times come back in time_zone (default UTC).",
    arguments_schema: {
      type: "object",
      properties: { start: isoInstant("From"), end: isoInstant("Until"), time_zone: timeZone, top: top(500, "events"), skip },
      required: ["start", "end"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "read",
    scopes: ["Calendars.Read"],
    request: {
      method: "GET",
      path: "/me/calendarView",
      query: { startDateTime: "{start}", endDateTime: "{end}", $top: "{top}", $skip: "{skip}", $select: EVENT_SELECT },
      headers: { Prefer: 'outlook.timezone="{time_zone}"' },
    },
    response: { schema: collectionOf() },
  },
  {
    name: "microsoft_outlook.get_event",
    title: "Read a calendar event",
    description: "Read one event: times, location, organizer, attendees and their responses, and its description as text.",
    arguments_schema: { type: "object", properties: { event_id: eventId, time_zone: timeZone }, required: ["event_id"], additionalProperties: false },
    risk: "low",
    side_effect: "read",
    scopes: ["Calendars.Read"],
    request: {
      method: "GET",
      path: "/me/events/{event_id}",
      query: { $select: `${EVENT_SELECT},attendees,body` },
      headers: { Prefer: 'outlook.timezone="{time_zone}"' },
    },
    response: { schema: { type: "object" }, fields: { ...EVENT_FIELDS, attendees: "/attendees", body: "/body/content" } },
  },
  {
    name: "microsoft_outlook.create_event",
    title: "Create a calendar event",
    description:
      "Create an event in the default calendar. Each attendee is sent an invitation email at once, which cannot be recalled (cancel_event sends a cancellation). Returns the event's id and link.",
    arguments_schema: { type: "object", properties: eventArguments, required: ["subject", "start", "end"], additionalProperties: false },
    risk: "high",
    side_effect: "write",
    scopes: ["Calendars.ReadWrite"],
    request: { method: "POST", path: "/me/events", body: eventBody },
    response: { schema: { type: "object" }, fields: EVENT_FIELDS },
  },
  {
    name: "microsoft_outlook.update_event",
    title: "Change a calendar event",
    description:
      "Change an event's subject, times, location, attendees or description; only what is given changes (attendees replaces the whole list). When you organise it, Outlook emails the attendees the update at once.",
    arguments_schema: { type: "object", properties: { event_id: eventId, ...eventArguments }, required: ["event_id"], additionalProperties: false },
    risk: "high",
    side_effect: "write",
    idempotent: true,
    scopes: ["Calendars.ReadWrite"],
    request: { method: "PATCH", path: "/me/events/{event_id}", body: eventBody },
    response: { schema: { type: "object" }, fields: EVENT_FIELDS },
  },
  {
    name: "microsoft_outlook.delete_event",
    title: "Delete a calendar event",
    description:
      "Delete an event from the calendar. For a meeting you organise, the attendees are sent a cancellation at once; the event cannot be restored. Prefer cancel_event to say why.",
    arguments_schema: { type: "object", properties: { event_id: eventId }, required: ["event_id"], additionalProperties: false },
    risk: "high",
    side_effect: "write",
    destructive: true,
    idempotent: true,
    scopes: ["Calendars.ReadWrite"],
    request: { method: "DELETE", path: "/me/events/{event_id}" },
  },
  {
    name: "microsoft_outlook.cancel_event",
    title: "Cancel a meeting",
    description: "Cancel a meeting you organise: every attendee is sent a cancellation with the comment, and the event is removed. Cannot be undone.",
    arguments_schema: {
      type: "object",
      properties: { event_id: eventId, comment: { type: "string", maxLength: 10000, description: "Why it is cancelled, sent to the attendees" } },
      required: ["event_id"],
      additionalProperties: false,
    },
    risk: "high",
    side_effect: "write",
    destructive: true,
    scopes: ["Calendars.ReadWrite"],
    request: { method: "POST", path: "/me/events/{event_id}/microsoft.graph.cancel", body: { Comment: "{comment}" } },
  },
  {
    name: "microsoft_outlook.accept_event",
    title: "Accept an invitation",
    description: "Accept a meeting invitation; unless send_response is false, the organizer is emailed the acceptance with the comment.",
    arguments_schema: { type: "object", properties: respondArguments, required: ["event_id"], additionalProperties: false },
    risk: "low",
    side_effect: "write",
    scopes: ["Calendars.ReadWrite"],
    request: { method: "POST", path: "/me/events/{event_id}/microsoft.graph.accept", body: { Comment: "{comment}", SendResponse: "{send_response}" } },
  },
  {
    name: "microsoft_outlook.decline_event",
    title: "Decline an invitation",
    description: "Decline a meeting invitation; it leaves the calendar and, unless send_response is false, the organizer is emailed the refusal with the comment.",
    arguments_schema: { type: "object", properties: respondArguments, required: ["event_id"], additionalProperties: false },
    risk: "low",
    side_effect: "write",
    scopes: ["Calendars.ReadWrite"],
    request: { method: "POST", path: "/me/events/{event_id}/microsoft.graph.decline", body: { Comment: "{comment}", SendResponse: "{send_response}" } },
  },
  {
    name: "microsoft_outlook.find_meeting_times",
    title: "Find meeting times",
    description:
      "Suggest times when the attendees (people in the same organisation) and the organizer are free, within a window. Suggestions only: nothing is booked. meeting_duration is ISO 8601 (PT30M, PT1H).",
    arguments_schema: {
      type: "object",
      properties: {
        attendees: { ...addressList("People who should attend", 50), minItems: 1 },
        start: localDateTime("Earliest start of the window"),
        end: localDateTime("End of the window"),
        time_zone: timeZone,
        meeting_duration: { type: "string", pattern: "^PT(\\d{1,2}H)?(\\d{1,3}M)?$", description: "Length of the meeting, e.g. PT30M or PT1H30M" },
        max_candidates: { type: "integer", minimum: 1, maximum: 50, description: "How many suggestions at most" },
      },
      required: ["attendees", "start", "end", "meeting_duration"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "read",
    idempotent: true,
    scopes: ["Calendars.Read.Shared"],
    request: {
      method: "POST",
      path: "/me/microsoft.graph.findMeetingTimes",
      body: {
        attendees: "{attendees}",
        timeConstraint: { timeSlots: [{ start: { dateTime: "{start}", timeZone: "{time_zone}" }, end: { dateTime: "{end}", timeZone: "{time_zone}" } }] },
        meetingDuration: "{meeting_duration}",
        maxCandidates: "{max_candidates}",
      },
    },
    response: { schema: { type: "object" } },
  },
  {
    name: "microsoft_outlook.get_schedule",
    title: "Get free/busy",
    description: "Free/busy of people, distribution lists or rooms between two times: an availability string per interval (0 free, 1 tentative, 2 busy, 3 out of office, 4 working elsewhere) and their busy items.",
    arguments_schema: {
      type: "object",
      properties: {
        schedules: { ...addressList("Whose availability", 20), minItems: 1 },
        start: localDateTime("Start"),
        end: localDateTime("End"),
        time_zone: timeZone,
        interval_minutes: { type: "integer", minimum: 5, maximum: 1440, description: "Length of each availability slot in minutes (default 30)" },
      },
      required: ["schedules", "start", "end"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "read",
    idempotent: true,
    scopes: ["Calendars.Read"],
    request: {
      method: "POST",
      path: "/me/calendar/microsoft.graph.getSchedule",
      body: { Schedules: "{schedules}", StartTime: { dateTime: "{start}", timeZone: "{time_zone}" }, EndTime: { dateTime: "{end}", timeZone: "{time_zone}" }, AvailabilityViewInterval: "{interval_minutes}" },
    },
    response: {
      schema: collectionOf(),
      root: "/value",
      fields: { schedule: "/scheduleId", availability: "/availabilityView", items: "/scheduleItems", working_hours: "/workingHours", error: "/error/message" },
    },
  },
  {
    name: "microsoft_outlook.list_calendars",
    title: "List calendars",
    description: "List the calendars of the connected account (its own and those shared with it).",
    arguments_schema: { type: "object", properties: { top: top(100, "calendars"), skip }, additionalProperties: false },
    risk: "low",
    side_effect: "read",
    scopes: ["Calendars.Read"],
    request: { method: "GET", path: "/me/calendars", query: { $top: "{top}", $skip: "{skip}" } },
    response: {
      schema: collectionOf(),
      root: "/value",
      fields: { id: "/id", name: "/name", owner: "/owner/address", can_edit: "/canEdit", is_default: "/isDefaultCalendar" },
    },
  },
];
