import { describe, expect, it } from 'vitest';
import { assessRisk, band, matchLevel, riskChange } from './risk';

describe('risk mapping', () => {
  it('uses the spec bands exactly', () => {
    expect([0, 29, 30, 59, 60, 100].map((s) => band(s))).toEqual([
      { level: 'low', decision: 'clear' }, { level: 'low', decision: 'clear' },
      { level: 'medium', decision: 'review' }, { level: 'medium', decision: 'review' },
      { level: 'high', decision: 'high_risk_review' }, { level: 'high', decision: 'high_risk_review' },
    ]);
  });

  it('no matches: score 0, clear, no flags', () => {
    expect(assessRisk([])).toEqual({ score: 0, level: 'low', decision: 'clear', flags: [], reasons: [] });
  });

  it('a strong sanctions match is high risk with the spec flag and reason', () => {
    const r = assessRisk([{ kind: 'sanctions', score: 93, strength: 'strong', cleared: false }]);
    expect(r).toMatchObject({ score: 93, level: 'high', decision: 'high_risk_review', flags: ['SANCTIONS_STRONG_MATCH'], reasons: ['sanctions_strong_match'] });
  });

  it('a possible PEP match is review, never clear', () => {
    const r = assessRisk([{ kind: 'pep', score: 72, strength: 'possible', cleared: false }]);
    expect(r.level).toBe('medium');
    expect(r.flags).toEqual(['PEP_POSSIBLE_MATCH']);
  });

  it('a PEP match is medium risk, never high, even strong with a perfect score and alongside other PEP matches', () => {
    for (const score of [100, 90, 80]) {
      expect(matchLevel({ kind: 'pep', score, strength: 'strong' })).toBe('medium');
      expect(assessRisk([{ kind: 'pep', score, strength: 'strong', cleared: false }])).toMatchObject({ level: 'medium', decision: 'review', flags: ['PEP_STRONG_MATCH'] });
    }
    const several = assessRisk(Array.from({ length: 4 }, () => ({ kind: 'pep' as const, score: 100, strength: 'strong' as const, cleared: false })));
    expect(several.level).toBe('medium');
    // A sanctions match beside it still makes the result high.
    expect(assessRisk([{ kind: 'pep', score: 100, strength: 'strong', cleared: false }, { kind: 'sanctions', score: 93, strength: 'strong', cleared: false }]).level).toBe('high');
  });

  it('cleared and weak matches carry no risk', () => {
    const r = assessRisk([
      { kind: 'sanctions', score: 95, strength: 'strong', cleared: true },
      { kind: 'sanctions', score: 60, strength: 'weak', cleared: false },
    ]);
    expect(r.score).toBe(0);
  });

  it('several hits add a little, at most 10', () => {
    const one = assessRisk([{ kind: 'sanctions', score: 86, strength: 'strong', cleared: false }]);
    const many = assessRisk(Array.from({ length: 8 }, () => ({ kind: 'sanctions' as const, score: 86, strength: 'strong' as const, cleared: false })));
    expect(many.score - one.score).toBe(10);
    expect(many.flags).toContain('MULTIPLE_MATCHES');
  });

  it('possible matches land in the review band, however high their score and however many', () => {
    const exactNameWrongDob = assessRisk([{ kind: 'sanctions', score: 69, strength: 'possible', cleared: false }]);
    expect(exactNameWrongDob).toMatchObject({ level: 'medium', decision: 'review' });
    const highScore = assessRisk([{ kind: 'sanctions', score: 99, strength: 'possible', cleared: false }]);
    expect(highScore.level).toBe('medium');
    const many = assessRisk(Array.from({ length: 8 }, () => ({ kind: 'sanctions' as const, score: 84, strength: 'possible' as const, cleared: false })));
    expect(many.level).toBe('medium');
    expect(many.score).toBeLessThanOrEqual(59);
  });

  it('each match carries its own level: high only when strong', () => {
    expect(matchLevel({ kind: 'sanctions', score: 90, strength: 'strong' })).toBe('high');
    expect(matchLevel({ kind: 'sanctions', score: 90, strength: 'possible' })).toBe('medium');
    expect(matchLevel({ kind: 'rca', score: 86, strength: 'strong' })).toBe('medium');
  });

  it('never emits the words approved, rejected, pass or fail', () => {
    const r = assessRisk([{ kind: 'sanctions', score: 99, strength: 'strong', cleared: false }, { kind: 'pep', score: 70, strength: 'possible', cleared: false }]);
    expect(JSON.stringify(r)).not.toMatch(/approved|rejected|pass|fail/i);
  });
});

describe('risk change', () => {
  const high = assessRisk([{ kind: 'sanctions', score: 90, strength: 'strong', cleared: false }]);
  const low = assessRisk([]);
  it('unknown without a summary', () => expect(riskChange(high, undefined)).toBe('unknown_without_prior_result'));
  it('level up is an increase, level down a decrease', () => {
    expect(riskChange(high, { risk_score: 0, risk_level: 'low', flags: [] })).toBe('risk_increased');
    expect(riskChange(low, { risk_score: 90, risk_level: 'high', flags: ['SANCTIONS_STRONG_MATCH'] })).toBe('risk_decreased');
  });
  it('small score noise within a level is unchanged; a new match flag is an increase', () => {
    expect(riskChange(high, { risk_score: 86, risk_level: 'high', flags: ['SANCTIONS_STRONG_MATCH'] })).toBe('risk_unchanged');
    expect(riskChange(high, { risk_score: 88, risk_level: 'high', flags: ['PEP_STRONG_MATCH'] })).toBe('risk_increased');
  });
});
