/** The built-in providers of Microsoft 365 (Outlook, OneDrive, Teams) through Microsoft Graph, and Zoom and Box. */
import type { BuiltInProvider } from "../built-in-provider.js";
import { box } from "./box.js";
import { microsoftOnedrive } from "./onedrive.js";
import { microsoftOutlook } from "./outlook.js";
import { microsoftTeams } from "./teams.js";
import { zoom } from "./zoom.js";

export const microsoftProviders: readonly BuiltInProvider[] = [microsoftOutlook, microsoftOnedrive, microsoftTeams, zoom, box];
