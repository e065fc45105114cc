/** The built-in providers of Google (Gmail, Calendar, Drive, Sheets, Docs). */
import type { BuiltInProvider } from "../built-in.js";

export const googleProviders: readonly BuiltInProvider[] = [];
