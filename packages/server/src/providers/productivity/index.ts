/** The built-in providers of Notion, Dropbox and Airtable. */
import type { BuiltInProvider } from "../built-in.js";

export const productivityProviders: readonly BuiltInProvider[] = [];
