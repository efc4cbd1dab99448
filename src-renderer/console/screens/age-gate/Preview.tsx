// The live preview: the storefront widget's own overlay (src-renderer/widget/overlay.ts), drawn
// from the form as it stands, before anything is saved, over a sketch of a store page.
import { useEffect, useRef, useState } from 'react';
import { renderPreview, type OverlayConfig, type OverlayView } from '../../../widget/overlay';
import { t } from '../../../widget/strings';

const STEPS = {
  dob: { label: 'Date of birth', view: { step: 'dob' } },
  selfie: { label: 'Selfie', view: { step: 'selfie' } },
  not_conclusive: { label: 'Try again', view: { step: 'not_conclusive', message: t.notConclusive } },
  too_many: { label: 'Too many attempts', view: { step: 'too_many' } },
} satisfies Record<string, { label: string; view: OverlayView }>;
type Step = keyof typeof STEPS;

export function Preview({ config, selfie }: { config: OverlayConfig; selfie: boolean }) {
  const hostRef = useRef<HTMLDivElement>(null);
  const [step, setStep] = useState<Step>('dob');
  const shown: Step = !selfie && (step === 'selfie' || step === 'not_conclusive') ? 'dob' : step;

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const overlay = renderPreview(host, config, STEPS[shown].view);
    return () => overlay.destroy();
  }, [config, shown]);

  const steps = (Object.keys(STEPS) as Step[]).filter((s) => selfie || (s !== 'selfie' && s !== 'not_conclusive'));
  return (
    <section className="panel ag-preview" aria-labelledby="ag-preview-heading">
      <div className="panel-header">
        <h2 id="ag-preview-heading">Live preview</h2>
        <span className="muted">Updates as you type; not saved yet</span>
      </div>
      <div className="ag-preview-steps" role="group" aria-label="Preview step">
        {steps.map((s) => (
          <button
            key={s} type="button" className="btn btn-small" aria-pressed={shown === s} onClick={() => setStep(s)} data-testid={`age-gate-preview-step-${s}`}
          >
            {STEPS[s].label}
          </button>
        ))}
      </div>
      <div className="ag-preview-frame">
        {/* A sketch of a store page behind the overlay. */}
        <div className="ag-preview-page" aria-hidden="true">
          <div className="ag-sketch-bar" />
          <div className="ag-sketch-hero" />
          <div className="ag-sketch-cards">
            <div />
            <div />
            <div />
          </div>
        </div>
        <div ref={hostRef} className="ag-preview-host" data-testid="age-gate-preview" aria-label="Preview of the age gate as visitors see it" role="img" />
      </div>
    </section>
  );
}
