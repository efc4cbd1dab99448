// A QR code drawn as React SVG from the `qrcode` library's module matrix: no HTML string is
// injected, no data: URL or canvas is needed, so the console's CSP stays as it is.
import QRCode from 'qrcode';
import { useMemo } from 'react';

/** Modules of white space around the symbol (the standard's quiet zone). */
const QUIET = 4;

/** One path for every dark module, row by row, joining runs into one rectangle each. */
function modulesPath(text: string): { size: number; d: string } {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const n = modules.size;
  const parts: string[] = [];
  for (let y = 0; y < n; y++) {
    let x = 0;
    while (x < n) {
      if (!modules.get(y, x)) {
        x++;
        continue;
      }
      const start = x;
      while (x < n && modules.get(y, x)) x++;
      parts.push(`M${start + QUIET} ${y + QUIET}h${x - start}v1h${start - x}z`);
    }
  }
  return { size: n + 2 * QUIET, d: parts.join('') };
}

interface QrCodeProps {
  value: string;
  /** What the code holds, for screen readers. */
  label: string;
  /** Rendered width and height in CSS pixels. */
  size?: number;
  testId?: string;
}

export function QrCode({ value, label, size = 232, testId }: QrCodeProps) {
  const { size: modules, d } = useMemo(() => modulesPath(value), [value]);
  return (
    <svg
      className="hs-qr"
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${modules} ${modules}`}
      shapeRendering="crispEdges"
      data-testid={testId}
    >
      <rect width={modules} height={modules} style={{ fill: 'var(--qr-light)' }} />
      <path d={d} style={{ fill: 'var(--qr-dark)' }} />
    </svg>
  );
}
