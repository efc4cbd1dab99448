import { describe, expect, it } from 'vitest';
import { barChart, countLabel, dayLabel, donutChart, trendChart, utcDay } from './charts';

describe('chart layouts', () => {
  const points = [
    { date: '2026-11-01', pass: 10, fail: 2 },
    { date: '2026-11-02', pass: 30, fail: 5 },
    { date: '2026-11-03', pass: 20, fail: 0 },
  ];

  it('stacks passes under failures and draws the total on top', () => {
    const c = trendChart(points, { width: 600, height: 200 });
    expect(c.paths.map((p) => p.key)).toEqual(['pass', 'fail', 'total']);
    for (const p of c.paths) expect(p.d).toMatch(/^M[\d.]+,[\d.]+/);
    // The y axis reaches at least the busiest day (35) and starts at 0 at the plot's bottom.
    const top = Math.max(...c.yTicks.map((t) => Number(t.label.replace(/,/g, ''))));
    expect(top).toBeGreaterThanOrEqual(35);
    expect(c.yTicks[0]).toEqual({ pos: c.plot.y + c.plot.height, label: '0' });
    // The first day sits on the left edge of the plot, the last on the right.
    expect(c.paths[2]!.d.startsWith(`M${c.plot.x},`)).toBe(true);
    expect(c.xTicks.length).toBeGreaterThanOrEqual(2);
  });

  it('labels count axes with whole numbers, each once, however few the counts (issue 38: "1, 1, 1, 0, 0, 0")', () => {
    for (const [pass, fail] of [[1, 0], [0, 0], [2, 1], [3, 0], [7, 0]] as const) {
      const labels = trendChart([{ date: '2026-11-01', pass, fail }, { date: '2026-11-02', pass: 0, fail: 0 }], { width: 600, height: 200 }).yTicks.map((t) => t.label);
      expect(new Set(labels).size, labels.join()).toBe(labels.length);
      expect(labels.every((l) => /^\d+$/.test(l)), labels.join()).toBe(true);
      expect(labels.length).toBeGreaterThanOrEqual(2);
    }
    const bars = barChart([{ key: 'a', label: 'A', value: 1 }, { key: 'b', label: 'B', value: 0 }], { width: 400, height: 120 }).xTicks.map((t) => t.label);
    expect(bars).toEqual(['0', '1']);
  });

  it('draws nothing for an empty series but keeps its axes', () => {
    const c = trendChart([], { width: 600, height: 200 });
    expect(c.paths).toEqual([]);
    expect(c.yTicks.length).toBeGreaterThan(0);
  });

  it('sizes bars in proportion to their values', () => {
    const c = barChart([{ key: 'a', label: 'A', value: 50 }, { key: 'b', label: 'B', value: 25 }], { width: 400, height: 120 }, { max: 100, percent: true });
    const [a, b] = c.rects;
    expect(a!.width).toBeCloseTo(2 * b!.width, 6);
    expect(a!.width).toBeCloseTo(c.plot.width / 2, 6);
    expect(c.xTicks.at(-1)!.label).toBe('100%');
    expect(c.yTicks.map((t) => t.label)).toEqual(['A', 'B']);
  });

  it('gives each non-empty share an arc and keeps every item in the legend', () => {
    const c = donutChart([
      { key: 'human', label: 'Liveness', value: 3 }, { key: 'age', label: 'Age', value: 0 }, { key: 'identity', label: 'Identity', value: 1 },
    ], { width: 160, height: 160 });
    expect(c.paths.map((p) => p.key)).toEqual(['human', 'identity']);
    expect(c.paths[1]!.tone).toBe('series-2');
    expect(c.legend).toHaveLength(3);
  });

  it('prints labels the same way everywhere', () => {
    expect(dayLabel(utcDay('2026-11-03'))).toBe('3 Nov');
    expect(countLabel(1234567)).toBe('1,234,567');
  });
});
