/**
 * The name and logo your end users see on the hosted connect page. The logo is uploaded as the
 * image itself (PNG, JPEG or WebP, at most 100 KiB); the broker checks it by its bytes and shows it
 * inside its own page. Admins change it; viewers see what the page shows.
 */
import { useId, useState, type ChangeEvent, type FormEvent } from "react";
import type { Branding, BrandingPatch } from "../api/types";
import { ErrorMessage, Loading, Notice } from "../ui/feedback";
import { useTenant } from "../tenant/tenant-context";
import { Time } from "../ui/time";
import { WriteButton } from "../ui/write-button";
import { useBranding, useSaveBranding } from "./settings-queries";

const LOGO_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
type LogoType = (typeof LOGO_TYPES)[number];
const MAX_LOGO_BYTES = 100 * 1024;

type PickedLogo = { content_type: LogoType; data_base64: string; dataUrl: string };

/** Reads a chosen file as base64, or says why it cannot be a logo (the broker checks again). */
function readLogo(file: File): Promise<PickedLogo> {
  if (!LOGO_TYPES.includes(file.type as LogoType)) return Promise.reject(new Error("choose a PNG, JPEG or WebP image (SVG is not accepted)"));
  if (file.size > MAX_LOGO_BYTES) return Promise.reject(new Error(`the image has ${Math.ceil(file.size / 1024)} KiB; a logo may have at most 100 KiB`));
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const dataUrl = String(reader.result);
      resolve({ content_type: file.type as LogoType, data_base64: dataUrl.slice(dataUrl.indexOf(",") + 1), dataUrl });
    };
    reader.onerror = () => reject(new Error("the file could not be read"));
    reader.readAsDataURL(file);
  });
}

function BrandPreview({ name, logo }: { name: string; logo: string | null }) {
  return (
    <div className="brand-preview" aria-label="How the connect page shows your brand">
      {logo ? <img src={logo} alt={`${name} logo`} /> : <span className="brand-badge" aria-hidden="true">{(Array.from(name.trim())[0] ?? "?").toUpperCase()}</span>}
      <strong>{name}</strong>
    </div>
  );
}

function Form({ branding }: { branding: Branding }) {
  const [name, setName] = useState(branding.display_name ?? "");
  // undefined: keep the saved logo; null: remove it.
  const [logo, setLogo] = useState<PickedLogo | null | undefined>(undefined);
  const [pickError, setPickError] = useState<string | null>(null);
  // A new key empties the file field once its file is saved or the logo removed.
  const [fileField, setFileField] = useState(0);
  const save = useSaveBranding();
  const nameId = useId();
  const logoId = useId();
  const fallbackName = branding.display_name === null ? branding.page_name : null;
  const shownLogo = logo === undefined ? (branding.logo?.data_url ?? null) : (logo?.dataUrl ?? null);

  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    save.reset();
    setPickError(null);
    const file = event.target.files?.[0];
    if (!file) return;
    try {
      setLogo(await readLogo(file));
    } catch (error) {
      setPickError((error as Error).message);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: BrandingPatch = { display_name: name.trim() ? name.trim() : null };
    if (logo !== undefined) body.logo = logo && { content_type: logo.content_type, data_base64: logo.data_base64 };
    save.mutate(body, { onSuccess: () => (setLogo(undefined), setFileField((key) => key + 1)) });
  };
  return (
    <form className="card stack" onSubmit={submit} aria-label="Connect page branding">
      <BrandPreview name={name.trim() || (fallbackName ?? branding.page_name)} logo={shownLogo} />
      <div className="form-grid">
        <div className="field">
          <label htmlFor={nameId}>Name shown to end users</label>
          <input id={nameId} value={name} maxLength={100} placeholder={fallbackName ?? ""} onChange={(event) => (save.reset(), setName(event.target.value))} />
          <p className="field-hint">Empty: the page shows the tenant's name.</p>
        </div>
        <div className="field">
          <label htmlFor={logoId}>Logo</label>
          <input key={fileField} id={logoId} type="file" accept={LOGO_TYPES.join(",")} onChange={(event) => void pick(event)} />
          <p className="field-hint">PNG, JPEG or WebP, at most 100 KiB. Without one, the page shows a badge with the name's first letter.</p>
        </div>
      </div>
      {pickError ? <p className="warning" role="alert">The logo was not taken: {pickError}.</p> : null}
      <ErrorMessage error={save.error} prefix="The branding was not saved" />
      {save.isSuccess ? <Notice tone="success">Saved the connect page branding.</Notice> : null}
      {branding.updated_at ? (
        <p className="muted">
          Last changed <Time value={branding.updated_at} showRelative />.
        </p>
      ) : null}
      <div className="button-row">
        <WriteButton type="submit" variant="primary" busy={save.isPending}>
          Save branding
        </WriteButton>
        {shownLogo ? (
          <WriteButton onClick={() => (save.reset(), setLogo(null), setPickError(null), setFileField((key) => key + 1))} disabled={save.isPending}>
            Remove logo
          </WriteButton>
        ) : null}
      </div>
    </form>
  );
}

export function BrandingForm() {
  const { canWrite } = useTenant();
  const branding = useBranding();
  if (branding.isPending) return <Loading label="Loading the branding…" />;
  if (!branding.data) return <ErrorMessage error={branding.error} prefix="The branding could not be loaded" />;
  if (!canWrite) {
    return (
      <div className="card stack">
        <BrandPreview name={branding.data.page_name} logo={branding.data.logo?.data_url ?? null} />
        <Notice>Only admins change the name and logo end users see.</Notice>
      </div>
    );
  }
  return <Form branding={branding.data} />;
}
