/** The built-in providers of Notion, Dropbox and Airtable. */
import type { BuiltInProvider } from "../built-in-provider.js";
import { airtable } from "./airtable.js";
import { dropbox } from "./dropbox.js";
import { notion } from "./notion.js";

export const productivityProviders: readonly BuiltInProvider[] = [notion, dropbox, airtable];
