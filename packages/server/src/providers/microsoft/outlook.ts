/** `microsoft_outlook`: Outlook mail and calendar through Microsoft Graph v1.0. */
import type { ProviderDeclaration } from "../declaration-schema.js";
import type { BuiltInProvider } from "../built-in-provider.js";
import { GRAPH_BASE_URL, GRAPH_DESCRIPTION, GRAPH_IDENTITY, TENANT_NOTE, graphAuth, scopesOf } from "./graph.js";
import { outlookCalendarTools } from "./outlook-calendar.js";
import { outlookHooks } from "./outlook-hooks.js";
import { outlookMailTools } from "./outlook-mail.js";
import { OUTLOOK_ICON } from "./icons.js";

const tools = [...outlookMailTools, ...outlookCalendarTools];

const declaration: ProviderDeclaration = {
  id: "microsoft_outlook",
  display_name: "Microsoft Outlook",
  description: `Outlook mail and calendar of a Microsoft 365 or Outlook.com account, through Microsoft Graph. ${TENANT_NOTE}`,
  icon: OUTLOOK_ICON,
  docs_url: "https://learn.microsoft.com/en-us/graph/api/resources/mail-api-overview?view=graph-rest-1.0",
  api_base_url: GRAPH_BASE_URL,
  auth: graphAuth(scopesOf(tools)),
  identity: GRAPH_IDENTITY,
};

const MESSAGE_ID = "AAMkAGI2TAAA=";
const EVENT_ID = "AAMkAGI2TGuLAAA=";

export const microsoftOutlook: BuiltInProvider = {
  declaration,
  tools,
  hooks: outlookHooks,
  vendorDescription: GRAPH_DESCRIPTION,
  examples: {
    "microsoft_outlook.search_messages": { query: "from:ana@contoso.com subject:invoice", top: 10 },
    "microsoft_outlook.list_folder_messages": { folder_id: "inbox", filter: "isRead eq false", top: 20 },
    "microsoft_outlook.get_message": { message_id: MESSAGE_ID },
    "microsoft_outlook.list_mail_folders": { top: 50 },
    "microsoft_outlook.send_mail": { to: ["ana@contoso.com"], cc: ["ben@contoso.com"], subject: "Quarterly report", body: "The report is attached to the team site." },
    "microsoft_outlook.create_draft": { to: ["ana@contoso.com"], subject: "Draft: quarterly report", body: "<p>Please review.</p>", body_type: "html" },
    "microsoft_outlook.send_draft": { message_id: MESSAGE_ID },
    "microsoft_outlook.reply_to_message": { message_id: MESSAGE_ID, comment: "Thanks, received." },
    "microsoft_outlook.forward_message": { message_id: MESSAGE_ID, to: ["ben@contoso.com"], comment: "FYI" },
    "microsoft_outlook.move_message": { message_id: MESSAGE_ID, destination_id: "archive" },
    "microsoft_outlook.update_message": { message_id: MESSAGE_ID, is_read: true, categories: ["Finance"] },
    "microsoft_outlook.delete_message": { message_id: MESSAGE_ID },
    "microsoft_outlook.list_events": { start: "2026-03-02T00:00:00Z", end: "2026-03-09T00:00:00Z", time_zone: "Europe/Paris", top: 50 },
    "microsoft_outlook.get_event": { event_id: EVENT_ID },
    "microsoft_outlook.create_event": {
      subject: "Planning",
      start: "2026-03-02T09:30:00",
      end: "2026-03-02T10:00:00",
      time_zone: "Europe/Paris",
      attendees: ["ana@contoso.com"],
      location: "Room 4",
      is_online_meeting: true,
    },
    "microsoft_outlook.update_event": { event_id: EVENT_ID, start: "2026-03-02T10:00:00", end: "2026-03-02T10:30:00", time_zone: "Europe/Paris" },
    "microsoft_outlook.delete_event": { event_id: EVENT_ID },
    "microsoft_outlook.cancel_event": { event_id: EVENT_ID, comment: "Moved to next week" },
    "microsoft_outlook.accept_event": { event_id: EVENT_ID, comment: "See you there" },
    "microsoft_outlook.decline_event": { event_id: EVENT_ID, send_response: false },
    "microsoft_outlook.find_meeting_times": {
      attendees: ["ana@contoso.com", "ben@contoso.com"],
      start: "2026-03-02T09:00:00",
      end: "2026-03-06T18:00:00",
      time_zone: "Europe/Paris",
      meeting_duration: "PT1H",
      max_candidates: 5,
    },
    "microsoft_outlook.get_schedule": { schedules: ["ana@contoso.com"], start: "2026-03-02T09:00:00", end: "2026-03-02T18:00:00", interval_minutes: 30 },
    "microsoft_outlook.list_calendars": { top: 20 },
  },
};
