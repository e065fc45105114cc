/** The built-in providers of Salesforce, HubSpot, Zendesk and Stripe. */
import type { BuiltInProvider } from "../built-in.js";
import { hubspot } from "./hubspot.js";
import { salesforce } from "./salesforce.js";
import { stripe } from "./stripe.js";
import { zendesk } from "./zendesk.js";

// Salesforce joins once the broker resolves its per-connection API base ({instance_url}).
void salesforce;
export const crmProviders: readonly BuiltInProvider[] = [hubspot, zendesk, stripe];
