/** The built-in providers of Google (Gmail, Calendar, Drive, Sheets, Docs). */
import type { BuiltInProvider } from "../built-in-provider.js";
import { gmail } from "./gmail.js";
import { googleCalendar } from "./google-calendar.js";
import { googleDocs } from "./google-docs.js";
import { googleDrive } from "./google-drive.js";
import { googleSheets } from "./google-sheets.js";

export const googleProviders: readonly BuiltInProvider[] = [gmail, googleCalendar, googleDrive, googleSheets, googleDocs];
