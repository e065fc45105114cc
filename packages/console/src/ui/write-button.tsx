/**
 * A button that changes something: disabled for viewers, with a tooltip saying why. Keyboard
 * users read the same reason in the banner the layout shows viewers.
 */
import type { ButtonHTMLAttributes } from "react";
import { useTenant } from "../tenant/tenant-context";

type Props = ButtonHTMLAttributes<HTMLButtonElement> & { busy?: boolean; variant?: "primary" | "danger" | "secondary" };

export function WriteButton({ busy = false, variant = "secondary", disabled, title, className, type = "button", children, ...rest }: Props) {
  const { canWrite, readOnlyReason } = useTenant();
  return (
    <button
      {...rest}
      type={type}
      className={`button button-${variant}${className ? ` ${className}` : ""}`}
      disabled={!canWrite || disabled || busy}
      aria-busy={busy || undefined}
      title={canWrite ? title : readOnlyReason}
    >
      {children}
    </button>
  );
}
