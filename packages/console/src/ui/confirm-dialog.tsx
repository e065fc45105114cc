/**
 * A modal confirmation on the native <dialog>: focus moves into it and Escape cancels. The
 * caller renders it only while a confirmation is wanted; it is placed at the end of <body>, so
 * its buttons come after every button of the page.
 */
import { useEffect, useId, useRef, type FormEvent, type ReactNode } from "react";
import { createPortal } from "react-dom";
import { ErrorMessage } from "./feedback";

type Props = {
  title: string;
  confirmLabel: string;
  onConfirm(): void;
  onCancel(): void;
  busy?: boolean;
  error?: unknown;
  danger?: boolean;
  children?: ReactNode;
};

export function ConfirmDialog({ title, confirmLabel, onConfirm, onCancel, busy = false, error, danger = true, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onConfirm();
  };
  return createPortal(
    <dialog ref={ref} className="dialog" aria-labelledby={titleId} onCancel={(event) => (event.preventDefault(), onCancel())}>
      <form onSubmit={submit} className="stack">
        <h2 id={titleId}>{title}</h2>
        {children}
        <ErrorMessage error={error} />
        <div className="button-row">
          <button type="submit" className={`button ${danger ? "button-danger" : "button-primary"}`} disabled={busy} aria-busy={busy || undefined}>
            {confirmLabel}
          </button>
          <button type="button" className="button button-secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>,
    document.body,
  );
}
