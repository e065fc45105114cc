import { describe, expect, it } from "vitest";
import { DEFAULT_REQUIREMENT, type ApprovalRequirement } from "./approval.js";
import { eligibleMembers, requirementOf, votesNeeded, type ApproverMember } from "./approval-requirement.js";

const member = (id: string, role: "admin" | "viewer", groups: string[] = []): ApproverMember => ({ id, role, groups, email: null, displayName: null, slackUserId: null });
const MEMBERS = [member("ann", "admin"), member("bob", "admin", ["finance"]), member("cy", "viewer", ["finance"]), member("dee", "viewer")];
const ids = (requirement: ApprovalRequirement, requester: string | null = null) => eligibleMembers({ requirement }, MEMBERS, requester).map((m) => m.id);

describe("requirementOf", () => {
  it("is one admin, edits allowed, the default expiry, when the rule says nothing", () => {
    expect(requirementOf(undefined, null, 86400)).toEqual({ ...DEFAULT_REQUIREMENT, ttlSeconds: 86400 });
  });

  it("keeps the rule's choices", () => {
    const rule = { approvers: { count: 2, of: { group: "finance" } }, requester_may_approve: false, edits: "forbidden", ttl_seconds: 600, remind_before_seconds: 60, channels: ["email"] } as const;
    expect(requirementOf({ ...rule, channels: ["email"] }, "u1", 86400)).toEqual({
      approvers: { count: 2, of: { group: "finance" } },
      requesterMayApprove: false,
      editsAllowed: false,
      channels: ["email"],
      remindBeforeSeconds: 60,
      ttlSeconds: 600,
    });
  });

  it("sends an end-user rule to one admin when the call acts for no end user", () => {
    expect(requirementOf({ approvers: "end_user" }, null, 60).approvers).toEqual({ count: 1, of: "admins" });
    expect(requirementOf({ approvers: "end_user" }, "u1", 60).approvers).toBe("end_user");
  });
});

describe("eligibleMembers and votesNeeded", () => {
  const rule = (approvers: ApprovalRequirement["approvers"], requesterMayApprove = true): ApprovalRequirement => ({ ...DEFAULT_REQUIREMENT, approvers, requesterMayApprove });

  it("takes admins, a group's members, or exactly the listed members", () => {
    expect(ids(rule({ count: 1, of: "admins" }))).toEqual(["ann", "bob"]);
    expect(ids(rule({ count: 2, of: { group: "finance" } }))).toEqual(["bob", "cy"]);
    expect(ids(rule({ all_of: ["dee", "ann", "gone"] }))).toEqual(["dee", "ann"]);
    expect(ids(rule({ all_of: ["DEE"] }))).toEqual(["dee"]);
    expect(ids(rule("end_user"))).toEqual([]);
  });

  it("leaves out the requester's own member when the rule says so", () => {
    expect(ids(rule({ count: 1, of: "admins" }, false), "ann")).toEqual(["bob"]);
    expect(ids(rule({ count: 1, of: "admins" }, true), "ann")).toEqual(["ann", "bob"]);
  });

  it("needs count votes, every listed member, or the end user's one", () => {
    expect(votesNeeded(rule({ count: 2, of: "admins" }))).toBe(2);
    expect(votesNeeded(rule({ all_of: ["a", "b", "c"] }))).toBe(3);
    expect(votesNeeded(rule("end_user"))).toBe(1);
  });
});
