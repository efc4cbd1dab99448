// The storefront age gate, as pasted from the console:
//   <script src="{service}/widget/age-gate.js" data-store="ag_…" async></script>
// Optional attributes: data-product-tags / data-collection-tags (comma-separated tags of the
// page's product or collection), data-page-handle (default: the path's last segment),
// data-customer-id (profile mode). The service is the script's own origin. The widget reads the
// store's public settings, gates the page when its trigger matches and no success is remembered,
// and posts the visitor's answers to POST /api/verify-age. A success is remembered in
// localStorage as `{ until }` only: never the date of birth, nothing personal. The script tag's
// `data-state` says where the gate stands (`off`, `remembered`, `open`, `verified`) for the
// storefront's own code (and tests); `cc-age-gate:verified` is dispatched on document on success.
import type { AgeGateRequest } from '../../src-shared/contracts/age-gate';
import { mountOverlay, type Overlay, type OverlayView } from './overlay';
import { applies, handleOf, list, memoryKey, memoryValue, parseAnswer, parseConfig, remembered, type WidgetConfig } from './rules';
import { t } from './strings';

function ownScript(): HTMLScriptElement | null {
  const current = document.currentScript;
  if (current instanceof HTMLScriptElement) return current;
  // Loaded in a way that leaves no currentScript (a module loader, say): find the tag by its source.
  return document.querySelector<HTMLScriptElement>('script[data-store][src*="/widget/age-gate.js"]');
}

function readMemory(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeMemory(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Storage refused (private mode, sandbox): the visitor is asked again next page.
  }
}

function whenBody(): Promise<HTMLElement> {
  if (document.body) return Promise.resolve(document.body);
  return new Promise((resolve) => document.addEventListener('DOMContentLoaded', () => resolve(document.body), { once: true }));
}

/** Keeps the page behind still while the overlay shows; gives back what it found. */
function lockScroll(): () => void {
  const els = [document.documentElement, document.body];
  const before = els.map((el) => el.style.overflow);
  els.forEach((el) => (el.style.overflow = 'hidden'));
  return () => els.forEach((el, i) => (el.style.overflow = before[i] ?? ''));
}

type State = 'off' | 'remembered' | 'open' | 'verified';

async function start(script: HTMLScriptElement): Promise<void> {
  const state = (s: State) => (script.dataset.state = s);
  const storeId = script.dataset.store?.trim();
  if (!storeId) return void state('off');
  const base = new URL(script.src, location.href).origin;
  const page = {
    productTags: list(script.dataset.productTags),
    collectionTags: list(script.dataset.collectionTags),
    handle: script.dataset.pageHandle?.trim().toLowerCase() || handleOf(location.pathname),
  };
  const customerId = script.dataset.customerId?.trim() || null;

  let config: WidgetConfig | null;
  try {
    const res = await fetch(`${base}/api/age-gate/config/${encodeURIComponent(storeId)}`, { credentials: 'omit', cache: 'no-store' });
    // Unknown store or gate switched off: the page stays as it is.
    config = res.ok ? parseConfig(await res.json()) : null;
  } catch {
    config = null;
  }
  if (!config || !applies(config, page)) return void state('off');
  const key = memoryKey(config.store_id, config.session_mode, customerId);
  if (remembered(readMemory(key), Date.now())) return void state('remembered');
  const body = await whenBody();
  state('open');
  gate(body, base, config, key, customerId, state);
}

function gate(body: HTMLElement, base: string, config: WidgetConfig, key: string, customerId: string | null, state: (s: State) => void): void {
  const host = document.createElement('div');
  host.setAttribute('data-cc-age-gate', '');
  body.append(host);
  const unlock = lockScroll();
  let dob = '';
  /** The step a retry goes back to. */
  let step: 'dob' | 'selfie' = 'dob';

  const finish = (s: State) => {
    overlay.destroy();
    unlock();
    state(s);
  };

  const send = async (selfie?: string): Promise<void> => {
    overlay.show({ step: 'checking' });
    const req: AgeGateRequest = {
      store_id: config.store_id,
      date_of_birth: dob,
      min_age: config.min_age,
      use_case: config.use_case,
      mode: config.session_mode,
      attestation_only: !config.require_selfie,
      ...(config.session_mode === 'profile' && customerId ? { customer_id: customerId } : {}),
      ...(selfie ? { selfie_b64: selfie } : {}),
    };
    let res: Response;
    try {
      res = await fetch(`${base}/api/verify-age`, {
        method: 'POST', credentials: 'omit', cache: 'no-store', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(req),
      });
    } catch {
      overlay.show({ step: 'error', message: t.networkError });
      return;
    }
    if (res.status === 429) {
      // Blocked for now: no retry button, no further tries from this page.
      overlay.show({ step: 'too_many' });
      return;
    }
    // The merchant switched the gate off meanwhile.
    if (res.status === 404) return finish('off');
    const answer = res.ok ? parseAnswer(await res.json().catch(() => null)) : null;
    if (!answer) {
      overlay.show({ step: 'error', message: t.unexpected });
      return;
    }
    if (answer.verified) {
      writeMemory(key, memoryValue(answer.session_duration_hours, Date.now()));
      finish('verified');
      document.dispatchEvent(new CustomEvent('cc-age-gate:verified'));
      return;
    }
    if (answer.reason === 'underage') {
      const to = answer.redirect_url && /^https?:\/\//i.test(answer.redirect_url) ? answer.redirect_url : null;
      overlay.show({ step: 'underage', redirecting: to !== null });
      if (to) location.assign(to);
      return;
    }
    // Every answer counts as an attempt: with none left, another selfie would only be refused.
    if (answer.attempts_remaining <= 0) {
      overlay.show({ step: 'too_many' });
      return;
    }
    step = 'selfie';
    const view: OverlayView =
      answer.reason === 'selfie_required'
        ? { step: 'selfie', attemptsLeft: answer.attempts_remaining }
        : { step: 'not_conclusive', message: answer.reason === 'selfie_not_conclusive' ? t.notConclusive : t.selfieFailed, attemptsLeft: answer.attempts_remaining };
    overlay.show(view);
  };

  const overlay: Overlay = mountOverlay(host, config, {
    submitDob: (value) => {
      dob = value;
      void send();
    },
    submitSelfie: (b64) => void send(b64),
    retry: () => overlay.show({ step }),
  });
}

const script = ownScript();
if (script) void start(script);
