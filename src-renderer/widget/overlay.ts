// The age gate's overlay: one implementation for the storefront (age-gate.ts, live) and for the
// console's preview (renderPreview, no network). Plain DOM inside a Shadow DOM whose styles are
// its own (a constructable stylesheet where the browser has one, so a storefront CSP without
// 'unsafe-inline' still styles it; a <style> element otherwise): storefront CSS cannot reach in,
// ours cannot leak out, and `:host { all: initial }` stops inherited fonts and colours.
// Every word is in strings.ts; merchant text is only ever set as text, never as HTML.
import type { AgeGatePublicConfig } from '../../src-shared/contracts/age-gate';
import { birthDateProblem, calendarDate, formatIsoDate, localDay } from '../../src-shared/dates';
import { t } from './strings';

/** What the overlay shows of a store's settings. */
export type OverlayConfig = Pick<AgeGatePublicConfig, 'min_age' | 'use_case' | 'custom_message' | 'logo' | 'test_mode'>;

/** The overlay's steps; the widget moves between them on the service's answers. */
export type OverlayView =
  | { step: 'dob'; error?: string; attemptsLeft?: number }
  | { step: 'checking' }
  | { step: 'selfie'; error?: string; attemptsLeft?: number }
  | { step: 'not_conclusive'; message: string; attemptsLeft?: number }
  | { step: 'underage'; redirecting: boolean }
  | { step: 'too_many' }
  | { step: 'error'; message: string };

export interface OverlayActions {
  /** A checked date of birth, `YYYY-MM-DD`. */
  submitDob: (dob: string) => void;
  /** A JPEG selfie, base64 without a data: prefix. */
  submitSelfie: (b64: string) => void;
  /** Try again after a non-conclusive selfie (back to the selfie step) or an error (back to the date). */
  retry: () => void;
}

export interface Overlay {
  show: (view: OverlayView) => void;
  update: (config: OverlayConfig) => void;
  destroy: () => void;
}

const CSS = `
:host{all:initial;position:fixed;inset:0;z-index:2147483647;display:block}
:host([data-preview]){position:absolute;z-index:auto}
*,*::before,*::after{box-sizing:border-box}
[hidden]{display:none!important}
.backdrop{position:absolute;inset:0;display:flex;align-items:center;justify-content:center;padding:16px;overflow:auto;
background:rgba(17,20,24,.82);-webkit-backdrop-filter:blur(8px);backdrop-filter:blur(8px);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#1c1f23}
.card{position:relative;width:100%;max-width:420px;margin:auto;background:#fff;border-radius:14px;box-shadow:0 24px 60px rgba(0,0,0,.35);overflow:hidden}
.test{margin:0;padding:8px 16px;background:#ffc83d;color:#2b1d00;font-size:13px;font-weight:600;text-align:center}
.body{padding:28px 28px 24px;display:grid;gap:14px;text-align:center}
.logo{display:block;max-width:160px;max-height:64px;margin:0 auto;object-fit:contain}
h2{margin:0;font-size:21px;line-height:1.3;font-weight:700;color:#111}
h2:focus{outline:none}
p{margin:0}
.msg{color:#3d444d;white-space:pre-line;overflow-wrap:anywhere}
form{display:grid;gap:12px}
fieldset{border:0;margin:0;padding:0;min-width:0}
legend{padding:0;margin:0 auto 8px;font-weight:600;color:#111}
.dob{display:flex;gap:10px;justify-content:center}
.dob label{display:grid;gap:4px;font-size:13px;color:#3d444d;text-align:left}
input[type=text]{width:64px;padding:10px 8px;font:inherit;font-size:17px;text-align:center;color:#111;background:#fff;border:1.5px solid #aab2bc;border-radius:8px}
input.year{width:88px}
select{width:136px;padding:10px 6px;font:inherit;font-size:16px;color:#111;background:#fff;border:1.5px solid #aab2bc;border-radius:8px}
input[aria-invalid=true],select[aria-invalid=true]{border-color:#b3261e}
input:focus-visible,select:focus-visible,button:focus-visible,.file:focus-within{outline:3px solid #2f6fdb;outline-offset:2px}
button,.file{display:block;width:100%;padding:12px 16px;font:inherit;font-weight:600;border-radius:8px;cursor:pointer;text-align:center}
.primary{color:#fff;background:#111;border:1.5px solid #111}
.primary:hover{background:#333}
.secondary,.file{color:#111;background:#fff;border:1.5px solid #aab2bc}
.secondary:hover,.file:hover{background:#f2f4f6}
button:disabled{opacity:.6;cursor:default}
.file{position:relative}
.file input{position:absolute;inset:0;width:100%;height:100%;opacity:0;cursor:pointer}
.actions{display:grid;gap:10px}
.error{color:#b3261e;font-weight:600}
.note{font-size:13px;color:#5a6370}
.status{font-size:14px;color:#3d444d;min-height:1px}
video{display:block;width:100%;max-height:300px;border-radius:10px;background:#000;transform:scaleX(-1)}
.spinner{width:36px;height:36px;margin:6px auto;border:4px solid #d5dae0;border-top-color:#111;border-radius:50%;animation:spin 1s linear infinite}
@keyframes spin{to{transform:rotate(360deg)}}
@media (prefers-reduced-motion:reduce){.spinner{animation:none}}
/* Empty live regions stay in the accessibility tree (so what fills them is read out) but take no room. */
.status:empty,.error:empty{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
`;

type Attrs = Record<string, string | boolean | undefined>;
type Child = Node | string | null | undefined | false;

function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === true) el.setAttribute(k, '');
    else if (typeof v === 'string') el.setAttribute(k, v);
  }
  for (const c of children) if (c) el.append(c);
  return el;
}

function styleRoot(root: ShadowRoot): void {
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
    root.adoptedStyleSheets = [sheet];
  } catch {
    root.append(h('style', {}, CSS));
  }
}

/** A logo the overlay may show: an https address or a small inline picture (the contract's two forms). */
function logoSrc(logo: string): string | null {
  return /^https:\/\/\S+$/.test(logo) || /^data:image\/(png|jpeg|webp|gif);base64,/.test(logo) ? logo : null;
}

/** The visitor's own language (the browser's first), for the order of the date's parts and the month names. */
function visitorLocale(): string | undefined {
  return typeof navigator === 'undefined' ? undefined : (navigator.languages?.[0] ?? navigator.language);
}

/** The visitor's locale order of day, month and year (a US visitor gives the month first). */
export function dateOrder(locale = visitorLocale()): ('day' | 'month' | 'year')[] {
  try {
    const order = new Intl.DateTimeFormat(locale).formatToParts(new Date(2000, 10, 22)).map((p) => p.type)
      .filter((k): k is 'day' | 'month' | 'year' => k === 'day' || k === 'month' || k === 'year');
    if (order.length === 3) return order;
  } catch {
    // No Intl, or an unknown language: day, month, year.
  }
  return ['day', 'month', 'year'];
}

/** The twelve month names in the visitor's language ("March", "mars", "März"); English without Intl. */
export function monthNames(locale = visitorLocale()): string[] {
  try {
    const f = new Intl.DateTimeFormat(locale, { month: 'long', timeZone: 'UTC' });
    return Array.from({ length: 12 }, (_, i) => f.format(new Date(Date.UTC(2000, i, 15))));
  } catch {
    return ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
  }
}

/** `YYYY-MM-DD` from the three fields, or the message saying what is wrong. */
export function checkDob(day: string, month: string, year: string, now = new Date()): { dob: string } | { error: string } {
  const [d, m, y] = [day, month, year].map((s) => s.trim());
  if (!d || !m || !y) return { error: t.dobMissing };
  if (!/^\d{1,2}$/.test(d) || !/^\d{1,2}$/.test(m) || !/^\d{4}$/.test(y)) return { error: t.dobInvalid };
  const date = calendarDate(Number(y), Number(m), Number(d));
  // The rule the store's service applies, on the visitor's own day.
  const problem = date ? birthDateProblem(formatIsoDate(date), localDay(now)) : 'not_a_date';
  if (problem === 'in_the_future') return { error: t.dobFuture };
  if (problem || !date) return { error: t.dobInvalid };
  return { dob: formatIsoDate(date) };
}

const MAX_SIDE = 1280;

/** A picture (camera frame or file) as a JPEG, at most MAX_SIDE pixels on its longer side, base64. */
function toJpeg(source: CanvasImageSource, width: number, height: number): string {
  const scale = Math.min(1, MAX_SIDE / Math.max(width, height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no canvas');
  ctx.drawImage(source, 0, 0, canvas.width, canvas.height);
  return canvas.toDataURL('image/jpeg', 0.9).replace(/^data:image\/jpeg;base64,/, '');
}

async function fileToJpeg(file: File): Promise<string> {
  const bitmap = await createImageBitmap(file);
  try {
    return toJpeg(bitmap, bitmap.width, bitmap.height);
  } finally {
    bitmap.close();
  }
}

const FOCUSABLE = 'button:not([disabled]),input:not([disabled]),select:not([disabled]),[tabindex]:not([tabindex="-1"])';

/**
 * Renders the overlay into `host` (its shadow root). Live: a modal dialog that keeps focus inside
 * it. Preview (`opts.preview`): the same picture, inert, never taking focus, for the console.
 */
export function mountOverlay(host: HTMLElement, initial: OverlayConfig, actions: OverlayActions, opts: { preview?: boolean } = {}): Overlay {
  const preview = opts.preview === true;
  const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  root.replaceChildren();
  styleRoot(root);
  if (preview) {
    host.setAttribute('data-preview', '');
    host.inert = true;
  }
  let config = initial;
  let view: OverlayView = { step: 'dob' };
  let stream: MediaStream | null = null;
  const dobValues = { day: '', month: '', year: '' };
  const backdrop = h('div', { class: 'backdrop' });
  root.append(backdrop);

  const stopCamera = () => {
    stream?.getTracks().forEach((tr) => tr.stop());
    stream = null;
  };

  const dialog = () => root.querySelector<HTMLElement>('.card');
  const focusables = () => [...(dialog()?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])];

  function dobStep(v: Extract<OverlayView, { step: 'dob' }>): Child[] {
    const error = h('p', { class: 'error', id: 'cc-dob-error', role: 'alert' }, v.error);
    // The month by its name (no 03/11 ambiguity between visitors of different countries).
    const month = h('select', { autocomplete: 'bday-month', 'data-part': 'month' },
      h('option', { value: '' }, t.monthPlaceholder),
      ...monthNames().map((name, i) => h('option', { value: String(i + 1) }, name)));
    const inputs: Record<'day' | 'month' | 'year', HTMLInputElement | HTMLSelectElement> = {
      day: h('input', { type: 'text', inputmode: 'numeric', autocomplete: 'bday-day', maxlength: '2', placeholder: t.dayPlaceholder, 'data-part': 'day' }),
      month,
      year: h('input', { type: 'text', inputmode: 'numeric', autocomplete: 'bday-year', maxlength: '4', placeholder: t.yearPlaceholder, class: 'year', 'data-part': 'year' }),
    };
    for (const [k, input] of Object.entries(inputs) as ['day' | 'month' | 'year', HTMLInputElement | HTMLSelectElement][]) {
      input.value = dobValues[k];
      input.addEventListener(input instanceof HTMLSelectElement ? 'change' : 'input', () => (dobValues[k] = input.value));
      if (v.error) {
        input.setAttribute('aria-invalid', 'true');
        input.setAttribute('aria-describedby', 'cc-dob-error');
      }
    }
    const form = h(
      'form', { novalidate: true, 'data-testid': 'age-gate-dob' },
      h('fieldset', {}, h('legend', {}, t.dobLegend), h('div', { class: 'dob' }, ...dateOrder().map((k) => h('label', {}, t[k], inputs[k])))),
    );
    const submit = h('button', { type: 'submit', class: 'primary', 'data-testid': 'age-gate-continue' }, t.continue);
    form.append(error, submit);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      if (preview) return;
      const checked = checkDob(inputs.day.value, inputs.month.value, inputs.year.value);
      if ('error' in checked) {
        show({ step: 'dob', error: checked.error, ...(v.attemptsLeft !== undefined ? { attemptsLeft: v.attemptsLeft } : {}) });
        return;
      }
      actions.submitDob(checked.dob);
    });
    return [form, attemptsNote(v.attemptsLeft), h('p', { class: 'note' }, t.privacyNote)];
  }

  function attemptsNote(n: number | undefined): Node | null {
    return n !== undefined && n <= 2 ? h('p', { class: 'note', 'data-testid': 'age-gate-attempts' }, t.attemptsLeft(n)) : null;
  }

  function selfieStep(v: Extract<OverlayView, { step: 'selfie' }>): Child[] {
    const status = h('p', { class: 'status', role: 'status' });
    const error = h('p', { class: 'error', role: 'alert', 'data-testid': 'age-gate-selfie-error' }, v.error);
    const video = h('video', { autoplay: true, muted: true, playsinline: true, 'aria-label': t.cameraPreview, hidden: true });
    const open = h('button', { type: 'button', class: 'primary', 'data-testid': 'age-gate-open-camera' }, t.openCamera);
    const take = h('button', { type: 'button', class: 'primary', hidden: true, 'data-testid': 'age-gate-take-photo' }, t.takePhoto);
    const close = h('button', { type: 'button', class: 'secondary', hidden: true }, t.closeCamera);
    const file = h('input', { type: 'file', accept: 'image/*', capture: 'user', 'data-testid': 'age-gate-file' });
    const fileLabel = h('label', { class: 'file' }, t.chooseFile, file);
    const hasCamera = typeof navigator !== 'undefined' && !!navigator.mediaDevices?.getUserMedia;
    if (!hasCamera) open.hidden = true;

    const setCamera = (on: boolean) => {
      video.hidden = !on;
      take.hidden = !on;
      close.hidden = !on;
      open.hidden = on || !hasCamera;
    };
    open.addEventListener('click', () => {
      if (preview) return;
      status.textContent = t.cameraStarting;
      error.textContent = '';
      navigator.mediaDevices
        .getUserMedia({ video: { facingMode: 'user', width: { ideal: 1280 } }, audio: false })
        .then((s) => {
          stream = s;
          video.srcObject = s;
          setCamera(true);
          status.textContent = t.cameraReady;
          take.focus();
        })
        .catch(() => {
          status.textContent = '';
          error.textContent = t.cameraDenied;
          open.hidden = true;
          file.focus();
        });
    });
    close.addEventListener('click', () => {
      stopCamera();
      setCamera(false);
      status.textContent = '';
      open.focus();
    });
    take.addEventListener('click', () => {
      if (!video.videoWidth) return;
      // The frame as the camera saw it (the preview is mirrored only on screen).
      const b64 = toJpeg(video, video.videoWidth, video.videoHeight);
      stopCamera();
      actions.submitSelfie(b64);
    });
    file.addEventListener('change', () => {
      const f = file.files?.[0];
      if (!f || preview) return;
      fileToJpeg(f).then(actions.submitSelfie, () => {
        error.textContent = t.photoUnreadable;
        file.value = '';
      });
    });
    return [
      h('p', { class: 'msg' }, t.selfieIntro),
      video,
      h('div', { class: 'actions' }, open, take, close, fileLabel),
      status,
      error,
      attemptsNote(v.attemptsLeft),
      h('p', { class: 'note' }, t.selfieNote),
    ];
  }

  function retryButton(): HTMLButtonElement {
    const b = h('button', { type: 'button', class: 'primary', 'data-testid': 'age-gate-retry' }, t.tryAgain);
    b.addEventListener('click', () => !preview && actions.retry());
    return b;
  }

  function render(): void {
    stopCamera();
    const v = view;
    let heading: string = t.heading[config.use_case];
    let content: Child[];
    switch (v.step) {
      case 'dob':
        content = [h('p', { class: 'msg', 'data-testid': 'age-gate-message' }, config.custom_message.trim() || t.defaultMessage[config.use_case](config.min_age)), ...dobStep(v)];
        break;
      case 'checking':
        content = [h('div', { class: 'spinner', 'aria-hidden': 'true' }), h('p', { class: 'status', role: 'status' }, t.checking)];
        break;
      case 'selfie':
        heading = t.selfieHeading;
        content = selfieStep(v);
        break;
      case 'not_conclusive':
        heading = t.notConclusiveHeading;
        content = [h('p', { class: 'msg', role: 'alert' }, v.message), attemptsNote(v.attemptsLeft), retryButton()];
        break;
      case 'underage':
        heading = t.underageHeading;
        content = [h('p', { class: 'msg', role: 'alert' }, t.underage(config.min_age)), v.redirecting && h('p', { class: 'status', role: 'status' }, t.redirecting)];
        break;
      case 'too_many':
        heading = t.tooManyHeading;
        content = [h('p', { class: 'msg', role: 'alert', 'data-testid': 'age-gate-too-many' }, t.tooMany)];
        break;
      case 'error':
        heading = t.errorHeading;
        content = [h('p', { class: 'msg', role: 'alert' }, v.message), retryButton()];
        break;
    }
    const logo = logoSrc(config.logo);
    const card = h(
      'div', { class: 'card', role: 'dialog', 'aria-modal': preview ? undefined : 'true', 'aria-labelledby': 'cc-age-gate-heading', 'data-step': v.step, 'data-testid': 'age-gate-dialog' },
      config.test_mode ? h('p', { class: 'test', 'data-testid': 'age-gate-test-banner' }, t.testBanner) : null,
      h(
        'div', { class: 'body', 'aria-busy': v.step === 'checking' ? 'true' : undefined },
        logo ? h('img', { class: 'logo', src: logo, alt: t.logoAlt }) : null,
        h('h2', { id: 'cc-age-gate-heading', tabindex: '-1', 'data-testid': 'age-gate-heading' }, heading),
        ...content,
      ),
    );
    backdrop.replaceChildren(card);
    if (preview) return;
    // Focus follows the step: the first field to fill, or the heading that says what happened.
    const first = v.step === 'dob' || v.step === 'selfie' ? focusables()[0] : null;
    const target = v.step === 'dob' && v.error ? card.querySelector<HTMLElement>('[aria-invalid]') : first;
    (target ?? card.querySelector<HTMLElement>('h2'))?.focus();
  }

  function show(next: OverlayView): void {
    view = next;
    render();
  }

  // Focus stays in the dialog: Tab wraps, and focus that lands outside (a click on the page behind) comes back.
  const onKey = (e: KeyboardEvent) => {
    if (e.key !== 'Tab') return;
    const items = focusables().filter((el) => !el.closest('[hidden]'));
    if (items.length === 0) {
      e.preventDefault();
      return;
    }
    const active = root.activeElement;
    const first = items[0]!;
    const last = items[items.length - 1]!;
    if (e.shiftKey && (active === first || !items.includes(active as HTMLElement))) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (active === last || !items.includes(active as HTMLElement))) {
      e.preventDefault();
      first.focus();
    }
  };
  const onFocusIn = (e: FocusEvent) => {
    if (e.target !== host) (focusables()[0] ?? root.querySelector<HTMLElement>('h2'))?.focus();
  };
  if (!preview) {
    root.addEventListener('keydown', onKey as EventListener);
    document.addEventListener('focusin', onFocusIn);
  }

  render();
  return {
    show,
    update(next) {
      config = next;
      render();
    },
    destroy() {
      stopCamera();
      root.removeEventListener('keydown', onKey as EventListener);
      document.removeEventListener('focusin', onFocusIn);
      root.replaceChildren();
      host.remove();
    },
  };
}

const NO_ACTIONS: OverlayActions = { submitDob: () => undefined, submitSelfie: () => undefined, retry: () => undefined };

/**
 * The console's live preview: the storefront overlay as it would look for `config`, drawn into
 * `host` (positioned by the caller) without any network, focus or interaction. Call `update` on
 * every change; `show` picks the step to look at.
 */
export function renderPreview(host: HTMLElement, config: OverlayConfig, view: OverlayView = { step: 'dob' }): Overlay {
  const overlay = mountOverlay(host, config, NO_ACTIONS, { preview: true });
  if (view.step !== 'dob') overlay.show(view);
  return {
    ...overlay,
    // The console owns the host element: the preview empties it but leaves it in place.
    destroy: () => host.shadowRoot?.replaceChildren(),
  };
}
