/** Copies a value to the clipboard and says whether it worked (a live region, for screen readers too). */
import { useState } from "react";

/** Whether `value` was copied ("no" until asked), and the function that copies it. */
export function useCopy(value: string) {
  const [copied, setCopied] = useState<"no" | "yes" | "failed">("no");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied("yes");
    } catch {
      setCopied("failed");
    }
  };
  return { copied, copy };
}

export function CopyButton({ value, label }: { value: string; label: string }) {
  const { copied, copy } = useCopy(value);
  return (
    <span className="copy">
      <button type="button" className="button button-secondary button-small" onClick={copy} aria-label={label}>
        Copy
      </button>
      <span role="status" className="muted copy-status">
        {copied === "yes" ? "Copied" : copied === "failed" ? "Copying failed: select and copy by hand" : ""}
      </span>
    </span>
  );
}
