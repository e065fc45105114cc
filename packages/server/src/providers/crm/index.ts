/** The built-in providers of Salesforce, HubSpot, Zendesk and Stripe. */
import type { BuiltInProvider } from "../built-in-provider.js";
import { hubspot } from "./hubspot.js";
import { salesforce } from "./salesforce.js";
import { stripe } from "./stripe.js";
import { zendesk } from "./zendesk.js";

export const crmProviders: readonly BuiltInProvider[] = [salesforce, hubspot, zendesk, stripe];
