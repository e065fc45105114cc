import { Link } from "react-router-dom";
import { PageHeader } from "../ui/page";

export function NotFoundPage() {
  return (
    <>
      <PageHeader title="Page not found" />
      <p>
        There is no console page at this address. <Link to="/approvals">Go to Approvals</Link>.
      </p>
    </>
  );
}
