/** The built-in providers of Salesforce, HubSpot, Zendesk and Stripe. */
import type { BuiltInProvider } from "../built-in.js";

export const crmProviders: readonly BuiltInProvider[] = [];
