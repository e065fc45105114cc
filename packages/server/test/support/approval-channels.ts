/**
 * A channel of the tests' own for the approval outbox: it records every notice it is handed and
 * fails, hangs or succeeds as the test says, so the worker can be watched without Slack or SMTP.
 */
import { ChannelFailure, type ApprovalChannel, type ApprovalNotice } from "../../src/approvals/approval-channel.js";
import type { ApprovalChannelKind } from "../../src/approvals/approval.js";

type Behaviour = (notice: ApprovalNotice) => Promise<unknown>;

export type RecordingChannel = ApprovalChannel & {
  notices: ApprovalNotice[];
  /** What the next sends do, in order; once they are used up, sends succeed with `{ sent: n }`. */
  queue(...behaviours: Behaviour[]): void;
  /** Every send from now on fails with this message and progress. */
  failAlways(message: string, progress?: unknown): void;
};

export const failWith = (message: string, progress: unknown = null): Behaviour => async () => {
  throw new ChannelFailure(message, progress);
};

/** A send that waits until the returned `release` is called, then succeeds. */
export function hanging(): { behaviour: Behaviour; started: Promise<void>; release: () => void } {
  let release!: () => void;
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    behaviour: async () => {
      markStarted();
      await released;
      return { sent: "after the hang" };
    },
    started,
    release,
  };
}

export function recordingChannel(kind: ApprovalChannelKind): RecordingChannel {
  const notices: ApprovalNotice[] = [];
  let queued: Behaviour[] = [];
  let always: Behaviour | undefined;
  return {
    kind,
    notices,
    async send(notice) {
      notices.push(notice);
      const behaviour = queued.shift() ?? always;
      return behaviour ? behaviour(notice) : { sent: notices.length };
    },
    queue(...behaviours) {
      queued = [...queued, ...behaviours];
    },
    failAlways(message, progress = null) {
      always = failWith(message, progress);
    },
  };
}
