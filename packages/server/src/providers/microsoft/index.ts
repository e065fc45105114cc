/** The built-in providers of Microsoft 365 (Outlook, OneDrive, Teams) through Microsoft Graph, and Zoom and Box. */
import type { BuiltInProvider } from "../built-in.js";

export const microsoftProviders: readonly BuiltInProvider[] = [];
