/** A page's heading and the document title that goes with it. */
import { useEffect, type ReactNode } from "react";

export const APP_NAME = "Toolbroker console";

export function usePageTitle(title: string) {
  useEffect(() => {
    document.title = `${title} · ${APP_NAME}`;
  }, [title]);
}

export function PageHeader({ title, documentTitle, after, children }: { title: string; documentTitle?: string; after?: ReactNode; children?: ReactNode }) {
  usePageTitle(documentTitle ?? title);
  return (
    <header className="page-header">
      <div className="page-title-row">
        <h1 id="page-title" tabIndex={-1}>
          {title}
        </h1>
        {after}
      </div>
      {children ? <div className="page-intro">{children}</div> : null}
    </header>
  );
}

export function Section({ title, id, children, actions }: { title: string; id: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="section" aria-labelledby={id}>
      <div className="section-header">
        <h2 id={id}>{title}</h2>
        {actions}
      </div>
      {children}
    </section>
  );
}
