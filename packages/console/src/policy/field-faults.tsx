/** The server's faults for one field, shown under it and named by its aria-describedby. */
import type { FieldFault } from "../api/errors";

export function FieldFaults({ id, faults }: { id: string; faults: readonly FieldFault[] }) {
  if (faults.length === 0) return null;
  return (
    <ul id={id} className="faults field-faults" role="alert">
      {faults.map((fault, index) => (
        <li key={index}>{fault.message}</li>
      ))}
    </ul>
  );
}

/** Props that tie an input to its faults. */
export const faultProps = (id: string, faults: readonly FieldFault[]) => (faults.length > 0 ? { "aria-invalid": true, "aria-describedby": id } : {});
