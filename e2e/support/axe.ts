// axe-core (Deque's accessibility rules engine) over what a page shows now: the serious and
// critical violations, one line each, for `expect(...).toEqual([])` (issue 38, item 5).
//
// axe is put into the page once per document and run there. @axe-core/playwright's `analyze`
// injects its 550 kB again at every call and finishes each run in a blank page of its own: 1.0-1.7 s
// of Chromium's CPU per check against 0.07-0.25 s here, and the accessibility spec checks 18
// screens. None of the console's pages has an iframe, which is what that builder adds.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import type * as Axe from 'axe-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: Axe.ImpactValue | undefined;
  help: string;
  targets: string[];
}

/** Serious and critical axe violations on `page`, within `include` (a CSS selector) when given. */
export async function axeViolations(page: Page, where: string, include?: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (within: string | null): Promise<Violation[]> => {
    const axe = (window as unknown as { axe: typeof Axe }).axe;
    const { violations: found } = await axe.run(within ?? document, { resultTypes: ['violations'] });
    return found.map((v) => ({ id: v.id, impact: v.impact ?? undefined, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
  }, include ?? null);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${where}: ${v.impact} ${v.id} (${v.help}): ${v.targets.slice(0, 3).join(' | ')}${v.targets.length > 3 ? ` and ${v.targets.length - 3} more` : ''}`);
}
